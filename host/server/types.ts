/**
 * What the server needs from the host, as structural types: the real
 * `createHost()` result satisfies them, and so does a test double.
 */
import type { AgentResult, AgentState, HostEvent, HostEventOf } from '../events/types.js';
import type { CanUseTool, PermissionMode } from '../permissions/types.js';
import type { HookHandler } from '../hooks/types.js';
import type { Message } from '../models/types.js';
import type { ResolvedGrants } from '../plugins/grants.js';
import type { Limits } from '../sandbox/types.js';
import type { WasiGrant } from '../sandbox/wasi/options.js';

/** Options the server passes when it creates a session for an HTTP client. */
export interface ServerSessionOptions {
  /** The id the server picked; the host should use it (the server falls back to `session.id`). */
  sessionId: string;
  canUseTool: CanUseTool;
  /** Longer than the control timeout, so the control request times out (and says so) first. */
  permissionTimeoutMs: number;
  permissionMode?: PermissionMode;
  systemPrompt?: string;
  maxTurns?: number;
  /** The stored conversation, when the session continues one (after a restart, or on another replica). */
  history?: readonly Message[];
  /** Where the store keeps the conversation as JSONL (hook inputs carry it as `transcript_path`). */
  transcriptPath?: string;
  /** A continued session's counters (its last event's `seq`, its last prompt's number): its events go on after them. */
  resumeAt?: { seq: number; turn: number };
  /** A session that replaces a cleared one (`POST /session/:id/clear`): its first prompt fires SessionStart `clear`. */
  startAs?: 'clear';
}

export interface ServerSession {
  /** The host's id; the server uses it as the session's URL id when present. */
  readonly id?: string;
  readonly state: AgentState;
  /** The conversation; the server keeps it in its store when present. */
  readonly messages?: readonly Message[];
  prompt(text: string, options?: { signal?: AbortSignal }): Promise<AgentResult>;
  subscribe(fn: (event: HostEvent) => void, options?: { buffer?: number }): () => void;
  abort(): void;
  /** Ends the session (SessionEnd hooks); `reason: 'clear'` when a clear replaces it. */
  close?(options?: { reason?: 'clear' }): void | Promise<void>;
  /** Holds each prompt's `agent.end` until `hold` settles (the host's `Session.holdEnd`): the server writes the transcript first. */
  holdEnd?(hold: (end: HostEventOf<'agent.end'>) => Promise<unknown>): () => void;
  /** Makes `close()` wait for `hold` after SessionEnd (the host's `Session.holdClose`): the end's events are written first. */
  holdClose?(hold: (lastSeq: number) => Promise<unknown>): () => void;
}

/** A loaded plugin as `GET /plugins` reads it (the host's `WasmPlugin` fits). */
export interface ServerPlugin {
  readonly name: string;
  readonly info?: {
    version?: string;
    hooks?: readonly { event: string; matcher?: string; failurePolicy?: string }[];
    tools?: readonly { name: string }[];
  };
  readonly limits?: Readonly<Limits>;
  readonly sandbox?: { readonly health: string };
  readonly sha256?: string;
  readonly origin?: string;
  /** What it was granted, recorded with its sha256 (WASI included). */
  readonly pin?: { readonly wasi: WasiGrant | null; readonly grants: ResolvedGrants };
}

export interface ServerHost {
  session(options: ServerSessionOptions): ServerSession | Promise<ServerSession>;
  /** Loaded plugins, as a list or a getter. */
  readonly plugins?: readonly ServerPlugin[] | (() => readonly ServerPlugin[]);
  /** The host's shared hook registry; needed only for sessions that ask for `hookCallbacks`. */
  readonly hooks?: { addHandler(handler: HookHandler): string; remove(id: string): boolean };
  /**
   * Present when the host can load plugins at run time (used only with `allowPluginLoading`). For a `url`
   * the server gives `address`, the IP it checked is public: every download of the load (the plugin and its
   * `.sig`) must connect there and resolve nothing (pass it on as the source's `address`, as `wasmhooks serve`
   * does); a second resolution of the name could answer a private address (DNS rebinding).
   */
  /** `signal` ends the load (its client left, or its load slot's time ran out: plugin-loads.ts). */
  loadPlugin?(source: { path?: string; url?: string; sha256?: string; redirect?: 'follow' | 'error'; address?: string; signal?: AbortSignal }): Promise<ServerPlugin>;
}
