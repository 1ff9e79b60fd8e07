/**
 * The bytes the event hub writes besides an entry's own frame: its own
 * events (in each stream format) and a tick's entries joined for one view.
 */
import { encodeEvent, frameJson, referencePayload, type ServerEvent, type ServerEventPayloads } from './events.js';
import { concatBytes } from '../bytes.js';
import { joinFrames } from './frame-slabs.js';
import type { Client } from './hub-client.js';
import { Entry, type StreamFormat } from './ring.js';
import type { Since } from '../store/types.js';

const encoder = new TextEncoder();

/** One tick's events for one view, as one chunk. */
export interface Batch {
  bytes: Uint8Array;
  frames: number;
}

/** Whether a client's stream carries this entry (its session's events and server-wide ones). */
export function wants(client: Client, entry: Entry): boolean {
  const session = client.request.session;
  return session === undefined || entry.sessionId === null || entry.sessionId === session;
}

/**
 * A tick's live entries, with each frame's text built at most once per
 * format however many views (session filters) of that format the clients
 * hold: the reference format re-encodes the event, which is worth doing once.
 * `/event` views take the frames' bytes as they are held.
 */
export class Tick {
  readonly #texts: Partial<Record<StreamFormat, (string | undefined)[]>> = {};

  constructor(readonly entries: readonly Entry[]) {}

  /** The entries a client's view carries, as one chunk encoded once (null when none is for it). */
  batch(client: Client): Batch | null {
    const format = client.request.format;
    if (format === 'plain') return this.#frames(client);
    const texts = (this.#texts[format] ??= []);
    let text = '';
    let frames = 0;
    for (let i = 0; i < this.entries.length; i++) {
      const entry = this.entries[i] as Entry;
      if (!wants(client, entry)) continue;
      text += texts[i] ??= entry.text(format);
      frames++;
    }
    return frames === 0 ? null : { bytes: encoder.encode(text), frames };
  }

  /**
   * `/event` frames are bytes already (a window's slabs): a tick's in one slab are one view of it, not a copy.
   * A session's view gets a copy: a view keeps its whole slab alive, and a stalled client of a quiet session
   * would hold a slab per queued frame (thousands of frames, long after the window let them go).
   */
  #frames(client: Client): Batch | null {
    if (client.request.session === undefined) {
      // Every entry, side by side in a slab as the window wrote them: one view, no object per frame.
      const run = Entry.run(this.entries);
      if (run !== undefined) return { bytes: run, frames: this.entries.length };
    }
    const frames: Uint8Array[] = [];
    for (const entry of this.entries) if (wants(client, entry)) frames.push(entry.frame('plain'));
    if (frames.length === 0) return null;
    return { bytes: client.request.session === undefined ? joinFrames(frames) : concatBytes(frames), frames: frames.length };
  }
}

/** A frame of the hub's own (not logged: it concerns one connection, or this server's shutdown). */
export function serverFrame<K extends 'server.connected' | 'replay.gap' | 'server.closing'>(
  format: StreamFormat,
  id: string,
  type: K,
  payload: ServerEventPayloads[K],
): Uint8Array {
  const event = { type, time: Date.now(), ...payload } as ServerEvent;
  if (format === 'reference') return frameJson(id, JSON.stringify({ sessionID: null, payload: referencePayload(event) }));
  const { json } = encodeEvent(event);
  return frameJson(id, format === 'global' ? `{"sessionId":null,"event":${json}}` : json);
}

/**
 * Where the newest of `entries` whose frames fit in `room` bytes start: the
 * ones before that index are left out of a replay (a `replay.gap`).
 */
function newestThatFit(entries: readonly Entry[], format: StreamFormat, room: number): number {
  let start = entries.length;
  for (; start > 0; start--) {
    const size = (entries[start - 1] as Entry).frame(format).length;
    if (size > room) break;
    room -= size;
  }
  return start;
}

/**
 * What a replay after `after` sends before going live: a `replay.gap` where
 * events are missing, then the newest of the client's entries that fit in
 * `room` bytes. The replay counts against the client's byte limit (not its
 * frame limit: a client dropped as slow catches up by replay): a log read
 * back from Redis is a copy per connection, so a window of any size times
 * every reconnecting client would otherwise be held.
 */
export function replayFrames(client: Client, after: string, since: Since, room: number): Uint8Array[] {
  const format = client.request.format;
  const frames: Uint8Array[] = [];
  const wanted = since.entries.filter((entry) => wants(client, entry));
  const start = newestThatFit(wanted, format, room);
  // The log's own cut (it read only the newest events that could fit) and this one are one gap. The log counts
  // every session's events it left unread: exact for a client that takes them all, unknown for a session's stream.
  const logCut = since.kind === 'gap' && since.reason === 'over-limit';
  const unread = since.kind !== 'gap' || !logCut ? 0 : since.missed !== null && client.request.session === undefined ? since.missed : null;
  if (since.kind === 'gap' && !(logCut && start > 0)) {
    const gap = { requestedAfter: after, oldestAvailable: since.oldest, missed: logCut ? unread : since.missed, reason: since.reason };
    frames.push(serverFrame(format, after, 'replay.gap', gap));
  }
  if (start > 0) {
    const gap = { requestedAfter: after, oldestAvailable: wanted[start]?.id ?? null, missed: unread === null ? null : unread + start, reason: 'over-limit' as const };
    frames.push(serverFrame(format, after, 'replay.gap', gap));
  }
  for (let i = start; i < wanted.length; i++) frames.push(framedFor(client, (wanted[i] as Entry).frame(format)));
  return frames;
}

/**
 * A held frame as a client's queue should keep it: a session's stream picks scattered frames, and a view of one
 * keeps its whole slab (256 KiB) alive after the window let it go, so a stalled reader of a quiet session would
 * hold a slab per queued frame; such a view is copied (as a tick's batch is, above). A stream of every event
 * takes the slabs' frames in order, so its views hold little more than their own bytes.
 */
export function framedFor(client: Client, frame: Uint8Array): Uint8Array {
  return client.request.session !== undefined && frame.byteLength < frame.buffer.byteLength ? frame.slice() : frame;
}
