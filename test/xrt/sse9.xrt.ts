// sse9 on Node, Deno and Bun, through the built package: a logged event is kept as its JSON text only, so every
// stream carries it as published (vitest twin: test/server/ring-entry.test.ts). Fails on the old code: the
// reference format was built later from the publisher's own object, which the log held.
import assert from 'node:assert/strict';
import { createServer } from '../../dist/server.js';
import { openSse } from './raw-http.ts';
import { makeHost } from './red6-helpers.ts';

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const scenarios: Record<string, () => Promise<void>> = {
  'an event object changed after publish reaches every format, live and replayed, as it was published': async () => {
    const server = createServer(makeHost(), { port: 0 });
    const { port } = await server.listen();
    try {
      const ref = openSse(port, '/global/event?format=reference');
      const ours = openSse(port, '/global/event');
      await Promise.all([ref.opened, ours.opened]);
      await until(() => server.hub.clientCount === 2);
      const event = { type: 'text.delta' as const, sessionId: 's-1', seq: 0, time: 1, text: 'as published' };
      server.hub.publish(event);
      event.text = 'changed later';
      const replay = openSse(port, `/global/event?format=reference&lastEventId=${server.hub.log.epoch}.0`);
      await replay.opened;
      await until(() => server.hub.clientCount === 3);
      await server.close();
      const texts = await Promise.all([ref, ours, replay].map(async (s) => (await s.done).data.map((d) => JSON.parse(d)).filter((d) => (d.payload ?? d.event).type === 'text.delta')));
      assert.deepEqual(texts.map((frames) => frames.map((d) => (d.payload?.properties ?? d.event).text)), [['as published'], ['as published'], ['as published']]);
      const live = texts[0]?.[0];
      assert.deepEqual(live, { sessionID: 's-1', payload: { type: 'text.delta', properties: { sessionID: 's-1', seq: 0, time: 1, text: 'as published' } } });
    } finally {
      await server.close();
    }
  },

  'the log hands out copies read back from the text, with <epoch>.<position> ids': async () => {
    const server = createServer(makeHost(), { port: 0 });
    try {
      const event = { type: 'session.created' as const, time: 5, sessionId: 's-1' };
      server.hub.publish(event);
      server.hub.publish(event);
      const since = await server.hub.log.since(`${server.hub.log.epoch}.0`);
      assert.equal(since.kind, 'ok');
      assert.deepEqual(since.entries.map((e) => e.id), [`${server.hub.log.epoch}.1`, `${server.hub.log.epoch}.2`]);
      assert.deepEqual(since.entries[0]?.event, event);
      assert.notEqual(since.entries[0]?.event, event);
    } finally {
      await server.close();
    }
  },
};
