// Hostile review rv11 of the hub writing to Bun's direct controller itself (sse7): on each runtime, paused readers
// whose connection buffers are full (Bun answers the hub's write with a promise) leave mid-write, many at once, and
// the server shuts down while such writes are pending. The hub must forget every one, keep serving the others,
// and close in bounded time.
import assert from 'node:assert/strict';
import { createServer, runtimeName } from '../../dist/server.js';
import { openSse, stalledReader } from './raw-http.ts';
import { makeHost, withServer } from './red6-helpers.ts';

const runtime = runtimeName();
const text = 'x'.repeat(8 * 1024);

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Publishes ~`mb` MB of 8 KiB deltas, yielding now and then so the runtime writes (and its buffers fill). */
async function flood(publish: (seq: number) => void, mb: number): Promise<void> {
  for (let n = 0; n < mb * 128; n++) {
    publish(n);
    if (n % 8 === 7) await new Promise((r) => setTimeout(r, 1));
  }
}

// Queue limits high enough that nobody is dropped as slow: the readers' buffers are full and the writes pending.
const roomy = { clientQueueBytes: 64 * 1024 * 1024, clientQueueLimit: 100_000 };

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: 20 paused SSE readers with full buffers leave at once mid-write: the hub forgets all, the reading client still gets every event`]: () =>
    withServer(roomy, async (port, server) => {
      const stalled = await Promise.all(Array.from({ length: 20 }, () => stalledReader(port, '/event')));
      const reading = openSse(port, '/event', [], 30_000);
      await reading.opened;
      await until(() => server.hub.clientCount === 21);
      const publish = (seq: number) => server.hub.publish({ type: 'text.delta', sessionId: 's', seq, time: 0, text: seq < 0 ? 'last' : text });
      await flood(publish, 6);
      assert.equal(server.hub.clientCount, 21, 'nobody dropped yet (queue limits are roomy)');
      for (const s of stalled) s.socket.destroy();
      // Events keep coming while the runtime reports the leaves (a write to a gone peer must not throw into the flush).
      await flood(publish, 1);
      await until(() => server.hub.clientCount === 1);
      publish(-1);
      await server.close();
      const { data } = await reading.done;
      const deltas = data.map((d) => JSON.parse(d) as { type: string; seq?: number }).filter((e) => e.type === 'text.delta');
      assert.equal(deltas.length, 7 * 128 + 1, 'the reading client got every event');
      assert.equal(deltas.at(-1)?.seq, -1);
    }),

  [`${runtime}: shutdown with writes pending to paused SSE readers finishes in bounded time and lets every client go`]: async () => {
    // Not withServer: its `finally` would close again, and a close that never finishes (Deno before rv11) must fail here.
    const server = createServer(makeHost(), { port: 0, ...roomy });
    const { port } = await server.listen();
    const stalled = await Promise.all(Array.from({ length: 5 }, () => stalledReader(port, '/event')));
    try {
      await until(() => server.hub.clientCount === 5);
      await flood((seq) => server.hub.publish({ type: 'text.delta', sessionId: 's', seq, time: 0, text }), 6);
      const started = Date.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 20_000)));
      const closed = await Promise.race([server.close().then(() => 'closed' as const), late]);
      clearTimeout(timer);
      assert.equal(closed, 'closed', 'server.close() did not finish within 20 s with paused readers holding unsent bytes');
      assert.ok(Date.now() - started < 15_000, `close took ${Date.now() - started} ms`);
      assert.equal(server.hub.clientCount, 0);
    } finally {
      for (const s of stalled) s.socket.destroy();
    }
  },
};
