// sse10: the replay window holds its frames in byte slabs, a held event as numbers in a typed array. What every
// stream carries is byte for byte what the code before sent (each format built from the event's text), through
// a window that wraps over many slabs, with multibyte text, events larger than a slab and server-wide events;
// a tick of /event frames is written as a view of the slab, not a copy (fails on the code before, which encoded
// a joined string per tick, and had no slabs); a session's view gets a copy.
import { describe, expect, it } from 'vitest';
import { encodeEvent, frameJson, referencePayload, sessionOf, type StreamEvent } from '../../host/server/events.js';
import { SLAB_BYTES } from '../../host/server/frame-slabs.js';
import { EventHub } from '../../host/server/hub.js';
import type { Client } from '../../host/server/hub-client.js';
import { replayFrames } from '../../host/server/hub-frames.js';
import { Ring, type StreamFormat } from '../../host/server/ring.js';
import type { DirectSink } from '../../host/runtime/serve-types.js';
import { MemoryEventLog } from '../../host/store/memory-log.js';

const FORMATS: StreamFormat[] = ['plain', 'global', 'reference'];
/** Byte for byte (a Buffer comparison: thousands of frames are compared). */
const same = (got: Uint8Array, want: Uint8Array, what: string) => expect(Buffer.from(got).equals(want), what).toBe(true);

/** The frame as the code before built it: from the event's text, in each format. */
function before(id: string, event: StreamEvent, format: StreamFormat): Uint8Array {
  const { event: logged, json } = encodeEvent(event);
  const session = sessionOf(logged);
  if (format === 'plain') return frameJson(id, json);
  if (format === 'global') return frameJson(id, `{"sessionId":${JSON.stringify(session)},"event":${json}}`);
  return frameJson(id, JSON.stringify({ sessionID: session, payload: referencePayload(JSON.parse(json) as StreamEvent) }));
}

const TEXTS = ['plain words ', 'é accents à la ', '漢字かな ', '😀 emoji 👩‍👩‍👧 ', 'quote " and \\ and \n newline '];
/** Event n: a mix of sizes, scripts and sessions, a server-wide one now and then, a large one every 37th. */
function event(n: number, slab: number): StreamEvent {
  if (n % 11 === 0) return { type: 'session.created', time: n, sessionId: `s${n % 3}` };
  if (n % 13 === 0) return { type: 'plugin.loaded', time: n, name: `p${n}` } as unknown as StreamEvent;
  const text = (TEXTS[n % TEXTS.length] as string).repeat(n % 37 === 0 ? slab : 1 + (n % 5));
  return { type: 'text.delta', sessionId: `s${n % 3}`, seq: n, time: n, text };
}

describe('a window in byte slabs', () => {
  it('wraps over many slabs: every held frame, in every format, is the bytes the code before built', () => {
    const slab = 256;
    const ring = new Ring(7, 'ep', slab);
    const published: StreamEvent[] = [];
    for (let n = 1; n <= 300; n++) {
      const e = event(n, slab);
      published.push(e);
      const entry = ring.push(e);
      for (const format of FORMATS) same(entry.frame(format), before(`ep.${n}`, e, format), `ep.${n} ${format}`);
      if (n % 10 !== 0 && n < 290) continue;
      const { entries } = ring.since(0);
      expect(entries.map((x) => x.id)).toEqual(Array.from({ length: 7 }, (_, i) => `ep.${n - 6 + i}`));
      for (const [i, x] of entries.entries()) {
        const original = published[n - 7 + i] as StreamEvent;
        expect(x.json).toBe(encodeEvent(original).json);
        expect(x.sessionId).toBe(sessionOf(original));
        for (const format of FORMATS) same(x.frame(format), before(x.id, original, format), `${x.id} ${format} after ep.${n}`);
      }
      // Evicted slabs are let go: the window's frames, the slab being filled, and one partly evicted at most.
      expect(ring.slabCount).toBeLessThanOrEqual(9);
    }
  });

  it('bounds a replay by characters of text as before, multibyte included', () => {
    const ring = new Ring(5, 'ep', 64);
    for (let n = 1; n <= 9; n++) ring.push({ type: 'text.delta', sessionId: 's', seq: n, time: 0, text: '😀'.repeat(n) });
    const chars = (n: number) => encodeEvent({ type: 'text.delta', sessionId: 's', seq: n, time: 0, text: '😀'.repeat(n) }).json.length;
    expect(ring.newestFrom(5, chars(9) + chars(8))).toBe(8);
    expect(ring.newestFrom(5, chars(9) + chars(8) - 1)).toBe(9);
    expect(ring.newestFrom(5, Infinity)).toBe(5);
  });

  it('writes a tick of /event frames as one view of the slab, and replays the same bytes in every format', async () => {
    const hub = new EventHub({ replayBufferSize: 50, heartbeatMs: 60_000, clientQueueLimit: 1000, clientQueueBytes: 1 << 20, retryMs: 1000 });
    const writes: Uint8Array[] = [];
    const sink: DirectSink = { write: (bytes) => (writes.push(bytes), true), end: () => {}, destroy: () => {} };
    hub.openDirect({ format: 'plain' })(sink);
    const filtered: Uint8Array[] = [];
    hub.openDirect({ format: 'plain', session: 's1' })({ ...sink, write: (bytes) => (filtered.push(bytes), true) });
    const live = Object.fromEntries(FORMATS.map((format) => [format, [] as Uint8Array[]]));
    for (const format of FORMATS) hub.openDirect({ format })({ ...sink, write: (bytes) => (live[format]!.push(bytes), true) });
    await new Promise((r) => setTimeout(r, 0));
    const published = Array.from({ length: 40 }, (_, i) => event(i + 1, 100));
    for (const e of published) hub.publish(e);
    await new Promise((r) => setTimeout(r, 0));
    const tick = writes.at(-1) as Uint8Array;
    expect(tick.buffer.byteLength).toBe(SLAB_BYTES);
    const epoch = hub.log.epoch;
    const expected = (format: StreamFormat) => Buffer.concat(published.map((e, i) => before(`${epoch}.${i + 1}`, e, format)));
    expect(Buffer.from(tick)).toEqual(expected('plain'));
    // A session's view is a copy: a view would keep the whole slab alive for as long as a stalled client holds it.
    const mine = filtered.at(-1) as Uint8Array;
    expect(mine.buffer.byteLength).toBe(mine.length);
    const s1 = published.flatMap((e, i) => (sessionOf(e) === 's1' || sessionOf(e) === null ? [before(`${epoch}.${i + 1}`, e, 'plain')] : []));
    expect(Buffer.from(mine)).toEqual(Buffer.concat(s1));
    for (const format of FORMATS) {
      expect(Buffer.from(live[format]!.at(-1)!)).toEqual(expected(format));
      const replayed: Uint8Array[] = [];
      hub.openDirect({ format, lastEventId: `${epoch}.0` })({ ...sink, write: (bytes) => (replayed.push(bytes), true) });
      await new Promise((r) => setTimeout(r, 10));
      const text = Buffer.concat(replayed).toString('utf8');
      // retry, server.connected, then the replay.
      const body = text.slice(text.indexOf('\n\n', text.indexOf('server.connected')) + 2);
      expect(Buffer.from(body)).toEqual(expected(format));
    }
    await hub.close(10);
  });
});

describe("a session's replay does not keep the window's slabs", () => {
  it('gets its scattered /event frames as copies; a stream of every event gets views', async () => {
    const log = new MemoryEventLog(100);
    for (let n = 1; n <= 60; n++) log.append(event(n, 50));
    const since = await log.since(`${log.epoch}.0`);
    const client = (session?: string) => ({ request: { format: 'plain' as const, ...(session ? { session } : {}) } }) as unknown as Client;
    const mine = replayFrames(client('s1'), `${log.epoch}.0`, since, 1 << 20);
    expect(mine.length).toBeGreaterThan(0);
    for (const frame of mine) expect(frame.buffer.byteLength).toBe(frame.byteLength);
    const all = replayFrames(client(), `${log.epoch}.0`, since, 1 << 20);
    expect(all.some((frame) => frame.buffer.byteLength > frame.byteLength)).toBe(true);
  });
});
