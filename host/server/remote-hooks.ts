/**
 * Hook callbacks owned by a remote client. The host's hook registry is
 * shared by all sessions, so one handler per event is registered once and
 * routes by `session_id`: sessions that asked for the event get a
 * `hook_callback` control request; every other session's chain skips it (no
 * call, no hook.start/hook.end in its stream).
 * An unanswered callback is a failure (TIMEOUT or ABORTED), so the failure
 * policy decides: guards fail closed (deny), observers fail open.
 */
import type { HookEventName, HookHandler, HookResult } from '../hooks/types.js';
import { defaultFailurePolicy } from '../hooks/decisions.js';
import type { ControlBroker } from './control.js';
import { ApiError } from './errors.js';
import type { ServerHost } from './types.js';

export class RemoteHooks {
  readonly #sessions = new Map<HookEventName, Set<string>>();
  readonly #handlerIds: string[] = [];

  constructor(
    private readonly host: ServerHost,
    private readonly broker: ControlBroker,
    private readonly controlTimeoutMs: number,
  ) {}

  /** Routes the session's `events` to its remote client. */
  enable(sessionId: string, events: readonly HookEventName[]): void {
    if (events.length === 0) return;
    const hooks = this.host.hooks;
    if (!hooks) throw new ApiError('not_implemented', 'this host has no hook registry; hookCallbacks are unavailable');
    for (const event of events) {
      let sessions = this.#sessions.get(event);
      if (!sessions) {
        sessions = new Set();
        this.#sessions.set(event, sessions);
        this.#handlerIds.push(hooks.addHandler(this.#handler(event, sessions)));
      }
      sessions.add(sessionId);
    }
  }

  disable(sessionId: string): void {
    for (const sessions of this.#sessions.values()) sessions.delete(sessionId);
  }

  /** Removes the handlers from the host. */
  close(): void {
    for (const id of this.#handlerIds.splice(0)) this.host.hooks?.remove(id);
    this.#sessions.clear();
  }

  #handler(event: HookEventName, sessions: ReadonlySet<string>): HookHandler {
    const id = `remote:${event}`;
    return {
      id,
      name: 'remote',
      kind: 'js',
      event,
      // Only the sessions that asked for the event run it (and show its hook.start/hook.end).
      sessions,
      failurePolicy: defaultFailurePolicy(event),
      // The control request's own timeout fires first and says so.
      timeoutMs: this.controlTimeoutMs + 1000,
      run: async (input, ctx): Promise<HookResult> => {
        const sessionId = input.session_id;
        // The dispatcher skips other sessions (`sessions` above); kept for a caller that does not.
        if (!sessions.has(sessionId)) return { ok: true, output: {} };
        const outcome = await this.broker.ask(sessionId, 'hook_callback', { callbackId: id, hookEvent: event, input }, { signal: ctx.signal });
        if (outcome.kind === 'answered') {
          const { decision, reason, systemMessage, additionalContext, updatedInput } = outcome.response;
          return {
            ok: true,
            output: {
              decision,
              ...(reason !== undefined ? { reason } : {}),
              ...(systemMessage !== undefined ? { systemMessage } : {}),
              ...(additionalContext !== undefined ? { additionalContext } : {}),
              ...(updatedInput !== undefined ? { updatedInput } : {}),
            },
          };
        }
        const code = outcome.reason === 'timeout' ? 'TIMEOUT' : 'ABORTED';
        return { ok: false, failure: { code, message: `the remote client did not answer the ${event} hook callback (${outcome.reason})` } };
      },
    };
  }
}
