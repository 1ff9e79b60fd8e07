/**
 * The control-request broker. A pending request is settled exactly once: by a
 * matching response, a cancel, its timeout, its abort signal, or shutdown.
 * Request ids are random UUIDs, so a late answer can never land on a later
 * request; a response that does not match session, id and subtype is refused.
 */
import type { CanUseTool, PermissionAnswer } from '../permissions/types.js';
import {
  controlResponseSchemas,
  type ControlPayloads,
  type ControlRequest,
  type ControlResponses,
  type ControlSubtype,
  type NotResolvedReason,
  type WireSubtype,
} from './control-types.js';
import { ApiError, validationError } from './errors.js';
import { encodeEvent, type ServerEventPayloads } from './events.js';
import { timerDelay } from '../timer.js';

type CancelReason = ServerEventPayloads['control.cancelled']['reason'];

/** How a request ended. */
export type ControlOutcome<S extends ControlSubtype> =
  | { kind: 'answered'; response: ControlResponses[S] }
  | { kind: 'cancelled'; reason: CancelReason };

interface Pending {
  request: ControlRequest;
  /** A further check of a well-formed answer; a message refuses it (400) and the request stays pending. */
  check?: (response: never) => string | undefined;
  settle(outcome: ControlOutcome<ControlSubtype>): void;
}

export interface ControlSink {
  request(request: ControlRequest): void;
  resolved(request: ControlRequest): void;
  cancelled(request: ControlRequest, reason: CancelReason): void;
}

export class ControlBroker {
  readonly #pending = new Map<string, Pending>();
  #closed = false;

  constructor(
    private readonly sink: ControlSink,
    private readonly defaultTimeoutMs: number,
  ) {}

  /** Asks the remote client; never rejects. */
  ask<S extends ControlSubtype>(
    sessionId: string,
    subtype: S,
    payload: ControlPayloads[S],
    options: { signal?: AbortSignal; timeoutMs?: number; check?: (response: ControlResponses[S]) => string | undefined } = {},
  ): Promise<ControlOutcome<S>> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const request = { id: crypto.randomUUID(), sessionId, subtype, payload, createdAt: Date.now(), timeoutMs } as ControlRequest;
    if (this.#closed) return Promise.resolve({ kind: 'cancelled', reason: 'server-closed' });
    if (options.signal?.aborted) return Promise.resolve({ kind: 'cancelled', reason: 'aborted' });
    // A question nobody could read (its payload cannot be encoded for the stream) is settled at once, never left to time out.
    if (encodeEvent({ type: 'control.request', time: 0, ...request }).event.type !== 'control.request') {
      this.sink.cancelled(request, 'unencodable');
      return Promise.resolve({ kind: 'cancelled', reason: 'unencodable' });
    }
    return new Promise<ControlOutcome<S>>((resolve) => {
      const onAbort = () => this.#cancel(request.id, 'aborted');
      // Through timerDelay: a `controlTimeoutMs` past 2³¹ − 1 ms ("wait for the user") wrapped to 1 ms, so every question timed out at once.
      const timer = setTimeout(() => this.#cancel(request.id, 'timeout'), timerDelay(timeoutMs));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(request.id, {
        request,
        ...(options.check ? { check: options.check as (response: never) => string | undefined } : {}),
        settle: (outcome) => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          this.#pending.delete(request.id);
          resolve(outcome as ControlOutcome<S>);
        },
      });
      this.sink.request(request);
    });
  }

  /** Pending requests of one session, oldest first. */
  pending(sessionId: string): ControlRequest[] {
    return [...this.#pending.values()].map((p) => p.request).filter((r) => r.sessionId === sessionId);
  }

  /**
   * Applies a client's answer. A malformed `response` for a matching request
   * throws a validation `ApiError` and leaves the request pending.
   */
  respond(
    sessionId: string,
    requestID: string,
    subtype: WireSubtype,
    response: unknown,
  ): { resolved: true } | { resolved: false; reason: NotResolvedReason } {
    const pending = this.#pending.get(requestID);
    if (!pending) return { resolved: false, reason: 'not-pending' };
    if (pending.request.sessionId !== sessionId) return { resolved: false, reason: 'session-mismatch' };
    if (pending.request.subtype !== subtype) return { resolved: false, reason: 'subtype-mismatch' };
    const parsed = controlResponseSchemas[subtype].safeParse(response);
    if (!parsed.success) throw validationError(parsed.error, 'response');
    const refused = pending.check?.(parsed.data as never);
    if (refused !== undefined) throw new ApiError('validation', `response.content: ${refused}`, 'response.content');
    pending.settle({ kind: 'answered', response: parsed.data as ControlResponses[ControlSubtype] });
    this.sink.resolved(pending.request);
    return { resolved: true };
  }

  /** Cancels one request of the session (only if it has `subtype`, when given), or all of them; returns how many. */
  cancel(sessionId: string, requestID?: string, reason: CancelReason = 'cancelled', subtype?: WireSubtype): number {
    const ids = requestID ? [requestID] : this.pending(sessionId).map((r) => r.id);
    let count = 0;
    for (const id of ids) {
      const request = this.#pending.get(id)?.request;
      if (request?.sessionId !== sessionId || (subtype !== undefined && request.subtype !== subtype)) continue;
      if (this.#cancel(id, reason)) count++;
    }
    return count;
  }

  /** Settles everything as cancelled (server shutdown). */
  close(): void {
    this.#closed = true;
    for (const id of [...this.#pending.keys()]) this.#cancel(id, 'server-closed');
  }

  #cancel(id: string, reason: CancelReason): boolean {
    const pending = this.#pending.get(id);
    if (!pending) return false;
    pending.settle({ kind: 'cancelled', reason });
    this.sink.cancelled(pending.request, reason);
    return true;
  }
}

/**
 * A session's permission callback that asks over control requests. Any
 * outcome but an explicit allow is a denial, with the reason in the message.
 *
 * @example
 * host.session({ canUseTool: remoteCanUseTool(broker, 's1') })
 */
export function remoteCanUseTool(broker: ControlBroker, sessionId: string, timeoutMs?: number): CanUseTool {
  return async (toolName, input, info): Promise<PermissionAnswer> => {
    const outcome = await broker.ask(
      sessionId,
      'can_use_tool',
      {
        toolName,
        toolUseId: info.toolUseId,
        input,
        reason: info.reason,
        workingDirectory: info.workingDirectory,
        ...(info.agentId !== undefined ? { agentId: info.agentId, ...(info.parentToolUseId !== undefined ? { parentToolUseId: info.parentToolUseId } : {}) } : {}),
      },
      { signal: info.signal, ...(timeoutMs ? { timeoutMs } : {}) },
    );
    if (outcome.kind === 'answered') return outcome.response;
    return { behavior: 'deny', message: `permission request for ${toolName} was not answered (${outcome.reason})` };
  };
}

