/**
 * What the SSE endpoints carry: every `HostEvent` of every session created
 * over HTTP, plus the server's own events (one union, discriminated on
 * `type`). On `/event` the data is the event itself; on `/global/event` it is
 * wrapped as `{ sessionId, event }`, or, in the reference runtime API's
 * format, as `{ sessionID, payload: { type, properties } }`.
 */
import type { HostEvent } from '../events/types.js';
import type { ControlRequest, ControlSubtype } from './control-types.js';

export interface ServerEventPayloads {
  /** First event of every connection. `lastEventId` is where this stream resumes from. */
  'server.connected': { lastEventId: string; replayBufferSize: number };
  /**
   * The client asked to resume from an event the log no longer holds, or from
   * an id of another log or an older incarnation of this one (`unknown-id`:
   * the epoch before the dot differs). `over-limit`: more is held than one
   * client may have queued (`clientQueueBytes`); the newest that fit are
   * replayed, the older ones are not.
   */
  'replay.gap': {
    requestedAfter: string;
    /** The oldest event still held (null when none is); replay starts there. */
    oldestAvailable: string | null;
    /** Events that cannot be replayed (null when unknown). */
    missed: number | null;
    reason: 'evicted' | 'unknown-id' | 'over-limit';
  };
  /**
   * The replica running this session's prompt stopped without finishing it
   * (its lease expired); found and reported by another replica or a restart.
   */
  'prompt.interrupted': { sessionId: string; replica: string; message: string };
  /** `clearedFrom`: made by `POST /session/:id/clear` to replace that session. */
  'session.created': { sessionId: string; clearedFrom?: string };
  'session.deleted': { sessionId: string };
  /** The prompt could not start or its run threw (the host's own failures arrive as agent.end). */
  'prompt.failed': { sessionId: string; code: string; message: string };
  'control.request': ControlRequest;
  'control.resolved': { id: string; sessionId: string; subtype: ControlSubtype };
  'control.cancelled': {
    id: string;
    sessionId: string;
    subtype: ControlSubtype;
    reason: 'timeout' | 'cancelled' | 'aborted' | 'session-deleted' | 'server-closed' | 'unencodable' | 'interrupted';
  };
  /**
   * Stands in for an event that could not be encoded as JSON (a cycle, a
   * BigInt, nesting too deep for the runtime's stack): the stream and the
   * replay stay readable, and the reader learns what was lost.
   */
  'event.unencodable': { sessionId: string | null; originalType: string; message: string };
  /** The last event of every stream when the server shuts down; the stream ends after it. */
  'server.closing': { reason: 'shutdown' };
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

/** An event with its JSON text; `event` is the stand-in when the original could not be encoded. */
export interface Encoded {
  event: StreamEvent;
  json: string;
}

/**
 * Encodes an event; never throws. Called once per event before it enters
 * the replay ring (or an event log), so a value that cannot be serialised
 * is replaced there by `event.unencodable` and can never poison a replay.
 */
export function encodeEvent(event: StreamEvent): Encoded {
  let why: string;
  try {
    const json = JSON.stringify(event) as string | undefined;
    if (typeof json === 'string') return { event, json };
    why = 'it is not a JSON value';
  } catch (error) {
    why = error instanceof Error ? `${error.name}: ${error.message}` : 'serialisation threw';
  }
  const stand: ServerEvent = {
    type: 'event.unencodable',
    time: Date.now(),
    sessionId: typeof event === 'object' && event !== null ? sessionOf(event) : null,
    originalType: String((event as { type?: unknown } | null)?.type).slice(0, 100),
    message: `a ${String((event as { type?: unknown } | null)?.type).slice(0, 100)} event could not be encoded as JSON (${why.slice(0, 300)}); it was dropped`,
  };
  return { event: stand, json: JSON.stringify(stand) };
}

/**
 * An event in the reference runtime API's shape: `{ type, properties }`,
 * with `sessionId` spelled `sessionID` (as in its events).
 */
export function referencePayload(event: StreamEvent): { type: string; properties: Record<string, unknown> } {
  const { type, ...rest } = event as { type: string; sessionId?: unknown } & Record<string, unknown>;
  if ('sessionId' in rest) {
    const { sessionId, ...others } = rest;
    return { type, properties: { sessionID: sessionId, ...others } };
  }
  return { type, properties: rest };
}

const encoder = new TextEncoder();

/** One SSE frame's text around JSON text. JSON never contains a raw newline, so one `data:` line suffices. */
export function frameText(id: string | undefined, json: string): string {
  return id === undefined ? `data: ${json}\n\n` : `id: ${id}\ndata: ${json}\n\n`;
}

/** One SSE frame around JSON text, as bytes. */
export function frameJson(id: string | undefined, json: string): Uint8Array {
  return encoder.encode(frameText(id, json));
}

export const HEARTBEAT = encoder.encode(': heartbeat\n\n');

/** The reference format's heartbeat is a data event without an id (so `Last-Event-ID` is unchanged). */
export const REFERENCE_HEARTBEAT = frameJson(undefined, JSON.stringify({ sessionID: null, payload: { type: 'server.heartbeat', properties: {} } }));
