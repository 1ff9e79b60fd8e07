// Bounded loopback load: 200 SSE clients on real sockets, a stream of events,
// every client must get every event, in order. Figures: npm run bench -- --only sse.
import { createParser } from 'eventsource-parser';
import { afterAll, expect, it } from 'vitest';
import { createServer } from '../../host/server/app.js';
import { realHost } from './real-host.js';

const CLIENTS = 200;
const EVENTS = 300;
const server = createServer(realHost(), { port: 0 });
afterAll(() => server.close());

it(`delivers every event to each of ${CLIENTS} SSE clients (zero lost)`, async () => {
  const { url } = await server.listen();
  const controller = new AbortController();
  const received = Array.from({ length: CLIENTS }, () => [] as number[]);
  const done = Array.from({ length: CLIENTS }, async (_, i) => {
    const res = await fetch(`${url}/event`, { signal: controller.signal });
    const parser = createParser({
      onEvent: (m) => {
        const data = JSON.parse(m.data) as { type: string; sessionId?: string };
        if (data.type === 'session.created') received[i]!.push(Number(data.sessionId));
      },
    });
    const decoder = new TextDecoder();
    try {
      const reader = res.body!.getReader();
      while (received[i]!.length < EVENTS) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
      await reader.cancel();
    } catch {
      // aborted at the end
    }
  });
  while (server.hub.clientCount < CLIENTS) await new Promise((r) => setTimeout(r, 10));
  for (let n = 0; n < EVENTS; n++) {
    server.hub.emit('session.created', { sessionId: String(n) });
    if (n % 50 === 49) await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.race([Promise.all(done), new Promise((r) => setTimeout(r, 20_000))]);
  controller.abort();
  const expected = Array.from({ length: EVENTS }, (_, n) => n);
  const lost = received.reduce((sum, r) => sum + (EVENTS - r.length), 0);
  expect(lost).toBe(0);
  for (const r of received) expect(r).toEqual(expected);
}, 30_000);
