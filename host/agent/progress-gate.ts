/**
 * Whether a tool call's progress may be shown while it runs. PostToolUse hooks
 * may rewrite the call's output before anyone sees it (a redactor:
 * `tool.output` and the conversation carry its rewrite), but
 * progress is the tool's own text, sent live, before any of them has run: a
 * secret the redactor takes out of the output would reach every watcher (SSE,
 * the event log, an MCP client) through the progress first. No hook can vouch
 * for text it never sees, and running the output hooks on each message would
 * hand them a `tool_response` that is not the output (and cost a plugin call
 * per message). So while any such hook applies to the call (its matcher and its
 * sessions, whatever its failure policy: a fail-open redactor still rewrites
 * when it succeeds), the call's progress is withheld, after one note saying so;
 * so are a plugin tool's log lines written during the call (the same text,
 * the same way out: `plugin.log` events of the session). PostToolUseFailure
 * hooks alone withhold nothing: they review a failed call's error text, not
 * its output (and an observer of failures on every tool, a common hook, would
 * otherwise silence every tool's progress).
 */
import { applies } from '../hooks/chain.js';
import type { HookRegistry } from '../hooks/registry.js';

/** What a watcher sees once, in place of a call's withheld progress. */
export const PROGRESS_WITHHELD = '[progress withheld: a PostToolUse hook reviews this tool\'s output]';
/** The same for a plugin tool's log lines during the call (`plugin.log`). */
export const LOG_WITHHELD = '[log lines withheld: a PostToolUse hook reviews this tool\'s output]';

export class ProgressGate {
  #reviewed = false;
  /** Whether the note went out, per kind of text. */
  #noted = { progress: false, log: false };

  constructor(
    private readonly registry: HookRegistry,
    private readonly toolName: string,
    private readonly sessionId: string,
  ) {}

  /**
   * What to emit for one progress message (or log line): the text, the one note in place of the first
   * withheld one, or undefined. Read at each message: a hook registered while the tool runs counts from then on.
   */
  pass(text: string, kind: 'progress' | 'log' = 'progress'): string | undefined {
    // Asked again at each message, not cached by the list: the registry replaces an event's list when
    // a hook comes or goes, but a handler's `sessions` is its owner's set, grown in place (the server's
    // remote hooks add a session to one shared set): a redactor could come to apply mid-call (rv12).
    // Once it applied, this call stays withheld (its earlier messages were not shown either way).
    this.#reviewed ||= this.registry.forEvent('PostToolUse').some((h) => applies(h, this.toolName, this.sessionId));
    if (!this.#reviewed) return text;
    if (this.#noted[kind]) return undefined;
    this.#noted[kind] = true;
    return kind === 'progress' ? PROGRESS_WITHHELD : LOG_WITHHELD;
  }
}
