/** What a session is built from (host.ts resolves it) and what its prompts and its close take. */
import type { Emit } from '../events/types.js';
import { WasmhooksError } from '../errors.js';
import { SESSION_END_REASONS, type SessionEndReason } from '../hooks/types.js';
import type { Message } from '../models/types.js';
import type { LoopSettings } from './config.js';
import type { OpenedSessions } from './opened.js';

/** Everything a session needs, resolved from host and session options. */
export interface SessionSettings {
  /** What every prompt's loop shares (`sessionId` is the session's id). */
  loop: LoopSettings;
  /** The parent's tool call, for a sub-agent's session: stamped on its events (its loop still runs as a session's). */
  parentToolUseId?: string;
  /**
   * The conversation so far, when continuing a stored session: the first prompt then fires SessionStart with
   * `source: 'resume'` (not `startup`), unless `opened` says this host has the session open already.
   */
  history?: readonly Message[];
  /** A conversation started by `host.clear()`: its first prompt fires SessionStart with `source: 'clear'`. */
  startAs?: 'clear';
  /** Continuing a stored session: its last event's `seq` and last prompt's number, which this one counts on from. */
  resumeAt?: { seq: number; turn: number };
  /** The sessions this host started or resumed (host-wide): a continued session's `resume` fires once per host. */
  opened?: OpenedSessions;
  /** Host-wide events (plugin health) reach sessions while a prompt runs. */
  announcements?: { subscribe(emit: Emit): () => void };
  /** Runs before each prompt's loop (starts MCP servers). Contract: must not throw. */
  prepare?: () => Promise<void>;
}

export interface PromptOptions {
  /** Aborting it aborts this prompt (same as `session.abort()`). */
  signal?: AbortSignal;
}

export interface StreamOptions extends PromptOptions {
  /** Queue size of the stream's own subscription. Default: unbounded (the stream never drops). */
  buffer?: number;
}

export interface CloseOptions {
  /**
   * The SessionEnd hooks' `reason`, in Claude Code's words: say `clear`, `logout` or `prompt_input_exit`
   * when your app closes the session for one of those. Default `other`.
   */
  reason?: SessionEndReason;
}

/** `CloseOptions.reason`, checked. */
export function endReason(reason: unknown): SessionEndReason {
  if (reason === undefined) return 'other';
  if ((SESSION_END_REASONS as readonly unknown[]).includes(reason)) return reason as SessionEndReason;
  throw new WasmhooksError('INVALID_OPTIONS', `session.close: reason must be one of ${SESSION_END_REASONS.join(', ')} (Claude Code's SessionEnd reasons); got ${JSON.stringify(reason)}`);
}

/** Forwards an outside signal's abort to `controller`; returns the unlink function. */
export function link(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (signal === undefined) return () => {};
  // Checked here, not deep in a prompt: a plain object ({ aborted: false }) would never abort, silently.
  if (typeof signal !== 'object' || signal === null || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function') {
    throw new WasmhooksError('INVALID_OPTIONS', 'options.signal must be an AbortSignal (new AbortController().signal, or AbortSignal.timeout(ms))');
  }
  const forward = () => controller.abort(signal.reason);
  if (signal.aborted) {
    forward();
    return () => {};
  }
  signal.addEventListener('abort', forward, { once: true });
  return () => signal.removeEventListener('abort', forward);
}
