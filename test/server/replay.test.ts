import { EventSource } from 'eventsource';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { Ring } from '../../host/server/ring.js';
import { EventHub } from '../../host/server/hub.js';
import { MemoryEventLog } from '../../host/store/memory-log.js';
import type { Since } from '../../host/store/types.js';
import type { ServerEvent } from '../../host/server/events.js';
import { realHost } from './real-host.js';
import { readSse, until } from './helpers.js';

let server: WasmhooksServer;
afterEach(() => server?.close());

/** The position part of an `<epoch>.<position>` id. */
const pos = (id: string | undefined) => Number(id?.split('.')[1]);
const at = (n: number) => `${server.hub.log.epoch}.${n}`;
const ev = (n: number): ServerEvent => ({ type: 'session.created', time: n, sessionId: `s${n}` });

describe('replay ring', () => {
  it('returns what came after an id, and reports a gap when it is gone', () => {
    const ring = new Ring(4, 'ep');
    expect(ring.since(0)).toEqual({ kind: 'ok', entries: [] });
    for (let i = 1; i <= 10; i++) ring.push(ev(i));
    expect(ring.lastPosition).toBe(10);
    expect(ring.oldestPosition).toBe(7);
    const ok = ring.since(7);
    expect(ok.kind).toBe('ok');
    expect(ok.entries.map((e) => e.id)).toEqual(['ep.8', 'ep.9', 'ep.10']);
    expect(ring.since(6)).toMatchObject({ kind: 'ok' });
    const gap = ring.since(3);
    expect(gap).toMatchObject({ kind: 'gap', oldest: 7, missed: 3 });
    expect(gap.entries.map((e) => e.id)).toEqual(['ep.7', 'ep.8', 'ep.9', 'ep.10']);
    expect(ring.since(10).entries).toEqual([]);
    expect(ring.since(99)).toMatchObject({ kind: 'gap', missed: null });
  });
});

describe('SSE replay', () => {
  it('sends replay.gap first when the gap is larger than the buffer', async () => {
    server = createServer(realHost(), { replayBufferSize: 5 });
    for (let i = 1; i <= 20; i++) server.hub.publish(ev(i));
    const res = await server.app.request('/event', { headers: { 'last-event-id': at(2) } });
    const got = await readSse(res.body!, (m) => m.length >= 7);
    const data = got.map((m) => JSON.parse(m.data));
    expect(data[0]).toMatchObject({ type: 'server.connected', lastEventId: at(2) });
    expect(data[1]).toMatchObject({ type: 'replay.gap', requestedAfter: at(2), oldestAvailable: at(16), missed: 13, reason: 'evicted' });
    expect(got.slice(2).map((m) => pos(m.id))).toEqual([16, 17, 18, 19, 20]);
  });

  it('replays exactly the missed events when they are still held', async () => {
    server = createServer(realHost(), { replayBufferSize: 100 });
    for (let i = 1; i <= 20; i++) server.hub.publish(ev(i));
    const res = await server.app.request('/global/event', { headers: { 'last-event-id': at(17) } });
    const got = await readSse(res.body!, (m) => m.length >= 4);
    expect(got.map((m) => JSON.parse(m.data).event.type)).toEqual(['server.connected', 'session.created', 'session.created', 'session.created']);
    expect(got.slice(1).map((m) => pos(m.id))).toEqual([18, 19, 20]);
    const byQuery = await server.app.request(`/event?lastEventId=${at(18)}`);
    expect((await readSse(byQuery.body!, (m) => m.length >= 3)).slice(1).map((m) => pos(m.id))).toEqual([19, 20]);
  });

  it('a real EventSource client reconnects with Last-Event-ID and receives what it missed', async () => {
    server = createServer(realHost(), { retryMs: 50 });
    const { url } = await server.listen();
    const sentIds: (string | null)[] = [];
    let cut: (() => void) | undefined;
    // A fetch that can drop the connection, as a flaky network would.
    const fetchLike = async (input: string | URL, init?: RequestInit) => {
      sentIds.push(new Headers(init?.headers).get('last-event-id'));
      const res = await fetch(input, init);
      const drop = new AbortController();
      const pipe = new TransformStream<Uint8Array, Uint8Array>();
      void res.body!.pipeTo(pipe.writable, { signal: drop.signal }).catch(() => {});
      cut = () => drop.abort(new TypeError('network connection lost'));
      return new Response(pipe.readable, { status: res.status, headers: res.headers });
    };
    const es = new EventSource(`${url}/event`, { fetch: fetchLike });
    const received: { id: number; type: string }[] = [];
    es.onmessage = (m) => received.push({ id: pos(m.lastEventId), type: JSON.parse(m.data).type });
    try {
      await until(() => received.length === 1 && server.hub.clientCount === 1);
      for (let i = 1; i <= 5; i++) server.hub.publish(ev(i));
      await until(() => received.length === 6);
      cut!();
      await until(() => server.hub.clientCount === 0);
      for (let i = 6; i <= 12; i++) server.hub.publish(ev(i)); // published while the client is away
      await until(() => received.filter((r) => r.type === 'session.created').length === 12);
      server.hub.publish(ev(13));
      await until(() => received.filter((r) => r.type === 'session.created').length === 13);
    } finally {
      es.close();
    }
    expect(sentIds).toEqual([null, at(5)]);
    const created = received.filter((r) => r.type === 'session.created').map((r) => r.id);
    expect(created).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(received.filter((r) => r.type === 'server.connected')).toHaveLength(2);
  });

  it('disconnects a client that stops reading, and it catches up by replay', async () => {
    server = createServer(realHost(), { clientQueueLimit: 5 });
    const stalled = await server.app.request('/event');
    const fast = await server.app.request('/event');
    const fastReading = readSse(fast.body!, (m) => m.length === 21);
    for (let i = 1; i <= 20; i++) {
      server.hub.publish(ev(i));
      await new Promise((r) => setTimeout(r, 0));
    }
    expect((await fastReading).slice(1).map((m) => pos(m.id))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(server.hub.clientCount).toBe(0);
    // Dropped: the stream is errored and its queue freed; the client resumes from the last id it read (none here).
    await expect(stalled.body!.getReader().read()).rejects.toThrow(/slow client/);
    const last = 0;
    const again = await server.app.request('/event', { headers: { 'last-event-id': at(last) } });
    const rest = await readSse(again.body!, (m) => m.length === 1 + 20 - last);
    expect(rest.slice(1).map((m) => pos(m.id))).toEqual(Array.from({ length: 20 - last }, (_, i) => last + i + 1));
  });
});

describe('a replay whose log read never ends', () => {
  /** A log whose `since` stalls (a Redis that stopped answering): live events pile up behind the replay. */
  class StalledLog extends MemoryEventLog {
    override since(): Promise<Since> {
      return new Promise(() => {});
    }
  }

  it('drops the client once the live events held behind it pass clientQueueLimit', async () => {
    const hub = new EventHub({ replayBufferSize: 100, heartbeatMs: 60_000, clientQueueLimit: 5, clientQueueBytes: 1 << 20, retryMs: 1000 }, new StalledLog(100));
    try {
      const reader = hub.open({ format: 'plain', lastEventId: 'x.1' }).getReader();
      // Read until the stream ends or fails; what it failed with, once it does.
      const failed = (async () => {
        for (;;) if ((await reader.read()).done) return undefined;
      })().catch((e: unknown) => e);
      await until(() => hub.clientCount === 1);
      for (let i = 1; i <= 4; i++) hub.publish(ev(i));
      await new Promise((r) => setTimeout(r, 20));
      expect(hub.clientCount).toBe(1);
      for (let i = 5; i <= 6; i++) hub.publish(ev(i));
      await until(() => hub.clientCount === 0);
      expect(String(await failed)).toMatch(/slow replay: 6 live events/);
    } finally {
      await hub.close();
    }
  });
});
