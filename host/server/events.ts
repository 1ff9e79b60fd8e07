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
  'server.connected': { lastEventId: number; replayBufferSize: number };
  /** The client asked to resume from an event the ring buffer no longer holds. */
  'replay.gap': {
    requestedAfter: number;
    /** The oldest event still held; replay starts here. */
    oldestAvailable: number;
    /** Events that cannot be replayed (unknown when the id is from another server instance). */
    missed: number | null;
    reason: 'evicted' | 'unknown-id';
  };
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
    reason: 'timeout' | 'cancelled' | 'aborted' | 'session-deleted' | 'server-closed';
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
export function frame(id: number, data: unknown): Uint8Array {
  return encoder.encode(`id: ${id}\ndata: ${JSON.stringify(data)}\n\n`);
}

export const HEARTBEAT = encoder.encode(': heartbeat\n\n');
