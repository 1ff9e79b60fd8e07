/**
 * What the SSE endpoints carry: every `HostEvent` of every session created
 * over HTTP, plus the server's own events (one union, discriminated on
 * `type`). On `/event` the data is the event itself; on `/global/event` it is
 * wrapped as `{ sessionId, event }`.
 */
import type { HostEvent } from '../events/types.js';
import type { ControlRequest, ControlSubtype } from './control-types.js';

export interface ServerEventPayloads {
  /** First event of every connection. `lastEventId` is where this stream resumes from. */
  'server.connected': { lastEventId: string; replayBufferSize: number };
  /**
   * The client asked to resume from an event the log no longer holds, or from
   * an id of another log or an older incarnation of this one (`unknown-id`:
   * the epoch before the dot differs).
   */
  'replay.gap': {
    requestedAfter: string;
    /** The oldest event still held (null when none is); replay starts there. */
    oldestAvailable: string | null;
    /** Events that cannot be replayed (null when unknown). */
    missed: number | null;
    reason: 'evicted' | 'unknown-id';
  };
  /** Last event of every stream when the server shuts down; reconnect (to another replica) with Last-Event-ID. */
  'server.closing': { reason: 'shutdown' };
  /**
   * The replica running this session's prompt stopped without finishing it
   * (its lease expired); found and reported by another replica or a restart.
   */
  'prompt.interrupted': { sessionId: string; replica: string; message: string };
  'session.created': { sessionId: string };
  'session.deleted': { sessionId: string };
  /** The prompt could not start or its run threw (the host's own failures arrive as agent.end). */
  'prompt.failed': { sessionId: string; code: string; message: string };
  'control.request': ControlRequest;
  'control.resolved': { id: string; sessionId: string; subtype: ControlSubtype };
  'control.cancelled': {
    id: string;
    sessionId: string;
    subtype: ControlSubtype;
    reason: 'timeout' | 'cancelled' | 'aborted' | 'session-deleted' | 'server-closed' | 'interrupted';
  };
}

export type ServerEventType = keyof ServerEventPayloads;

export type ServerEvent = {
  [K in ServerEventType]: { type: K; time: number } & ServerEventPayloads[K];
}[ServerEventType];

/** What a stream carries. */
export type StreamEvent = HostEvent | ServerEvent;

/** The `/global/event` envelope. `sessionId` is null for server-wide events. */
export interface GlobalEnvelope {
  sessionId: string | null;
  event: StreamEvent;
}

/** The session an event belongs to, if any. */
export function sessionOf(event: StreamEvent): string | null {
  return 'sessionId' in event && typeof event.sessionId === 'string' ? event.sessionId : null;
}

const encoder = new TextEncoder();

/** One SSE frame. JSON never contains a raw newline, so one `data:` line suffices. */
export function frame(id: string, data: unknown): Uint8Array {
  return encoder.encode(`id: ${id}\ndata: ${JSON.stringify(data)}\n\n`);
}

export const HEARTBEAT = encoder.encode(': heartbeat\n\n');
