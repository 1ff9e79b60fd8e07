// sse9: a logged event is kept as its JSON text only. The entry used to hold the publisher's own object and
// build the reference format's frames from it later (in the tick's microtask, or at a replay), so an object
// changed after `publish` reached `?format=reference` changed while `/event` carried it as published.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { Ring } from '../../host/server/ring.js';
import { realHost } from './real-host.js';
import { readSse, until } from './helpers.js';

let server: WasmhooksServer;
afterEach(async () => {
  await server?.close();
});

const data = (m: { data: string }) => JSON.parse(m.data);

describe('a logged event is its text', () => {
  it('every format, live and replayed, carries the event as it was published', async () => {
    server = createServer(realHost());
    const ref = await server.app.request('/global/event?format=reference');
    const ours = await server.app.request('/global/event');
    const reading = [ref, ours].map((r) => readSse(r.body!, (m) => m.length === 2));
    await until(() => server.hub.clientCount === 2);
    const event = { type: 'text.delta' as const, sessionId: 's-1', seq: 0, time: 1, text: 'as published' };
    server.hub.publish(event);
    // The publisher reuses its object in the same tick, before the hub writes the tick.
    event.text = 'changed later';
    const [refFrames, oursFrames] = await Promise.all(reading);
    const live = refFrames?.[1];
    const mine = oursFrames?.[1];
    expect(data(live!)).toEqual({ sessionID: 's-1', payload: { type: 'text.delta', properties: { sessionID: 's-1', seq: 0, time: 1, text: 'as published' } } });
    expect(data(mine!).event.text).toBe('as published');
    const replay = await server.app.request(`/global/event?format=reference&lastEventId=${server.hub.log.epoch}.0`);
    const [, replayed] = await readSse(replay.body!, (m) => m.length === 2);
    expect(data(replayed!).payload.properties.text).toBe('as published');
  });

  it('holds no object of the publisher: `event` reads a copy back from the text, `id` is <epoch>.<position>', () => {
    const ring = new Ring(2, 'ep');
    const event = { type: 'session.created' as const, time: 5, sessionId: 's-1' };
    const entry = ring.push(event);
    expect(entry.event).toEqual(event);
    expect(entry.event).not.toBe(event);
    expect(entry.json).toBe(JSON.stringify(event));
    expect([entry.id, entry.sessionId]).toEqual(['ep.1', 's-1']);
    ring.push(event);
    ring.push(event);
    expect(ring.since(0).entries.map((e) => e.id)).toEqual(['ep.2', 'ep.3']);
  });
});
