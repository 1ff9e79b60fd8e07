// Review rhttp: the per-client caps (maxSseClientsPerAddress, maxSessionsPerAddress) on each runtime count a
// client, not one of the addresses it can take. Before: a process connecting from 127.0.0.2, 127.0.0.3, … (any of
// 127.0.0.0/8 on Linux, no set-up) or an IPv6 host from the addresses of its own prefix got a cap per address, and
// an app embedded as the docs show (Deno.serve(server.fetch), Bun.serve({ fetch: server.fetch }), @hono/node-server)
// had no cap at all: those servers pass no `remoteAddress`.
import assert from 'node:assert/strict';
import net from 'node:net';
import { createServer, runtimeName } from '../../dist/server.js';
import { errorOf, makeHost, type Server } from './red6-helpers.ts';

const runtime = runtimeName();
const CAPS = { maxSseClientsPerAddress: 2, maxSessionsPerAddress: 2 };
const SSE = 'GET /event HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
const SESSION = 'POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}';

interface Answer {
  status: number;
  /** The body's first bytes (a JSON error arrives whole with its head). */
  body: string;
}

/** Sends `raw` from `from` (a local address) and resolves with the answer's status once its head arrived; the socket stays open (a stream). */
function ask(port: number, raw: string, sockets: net.Socket[], from = '127.0.0.1'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    sockets.push(socket);
    let got = '';
    const timer = setTimeout(() => reject(new Error(`no answer to ${raw.split('\r\n')[0]} from ${from}`)), 5000);
    socket.on('data', (d) => {
      got += d.toString('latin1');
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0);
      const length = Number(/^content-length: *(\d+)/im.exec(got.slice(0, end))?.[1] ?? 0);
      // A 2xx stream or a created session: the head is enough; an error: wait for its JSON body.
      if (status >= 400 && got.length < end + 4 + length) return;
      clearTimeout(timer);
      resolve({ status, body: got.slice(end + 4) });
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(raw);
  });
}

function refusedAsCapped(answer: Answer, what: string): void {
  assert.equal(answer.status, 429, `${what}: ${answer.body.slice(0, 200)}`);
  const error = errorOf(answer.body);
  assert.equal(error.code, 'too_many_requests');
  assert.match(error.message, /this client \(loopback\) already holds 2 .*its cap \(maxS(?:se|ession)s?\w*PerAddress: 2\)/);
}

/** Asks twice (each within the cap) then once more, from the addresses given in turn. */
async function capHolds(port: number, raw: string, from: readonly string[], what: string): Promise<void> {
  const sockets: net.Socket[] = [];
  try {
    const answers: Answer[] = [];
    for (const address of from) answers.push(await ask(port, raw, sockets, address));
    assert.deepEqual(answers.slice(0, -1).map((a) => a.status), from.slice(0, -1).map(() => (raw === SSE ? 200 : 201)), what);
    refusedAsCapped(answers.at(-1) as Answer, what);
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}

/** The server's app embedded in this runtime's own HTTP server, as docs/http-api.md shows. */
async function embedded(server: Server): Promise<{ port: number; stop: () => Promise<void> }> {
  const g = globalThis as unknown as Record<string, any>;
  if (runtime === 'deno') {
    const served = g.Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, server.fetch);
    return { port: served.addr.port, stop: () => served.shutdown() };
  }
  if (runtime === 'bun') {
    const served = g.Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: server.fetch });
    return { port: served.port, stop: async () => void (await served.stop(true)) };
  }
  const { serve } = await import('@hono/node-server');
  const served = serve({ fetch: server.fetch as (request: Request) => Response, hostname: '127.0.0.1', port: 0 });
  await new Promise((resolve) => served.once('listening', resolve));
  return {
    port: (served.address() as net.AddressInfo).port,
    stop: () => new Promise<void>((resolve) => {
      served.close(() => resolve());
      (served as unknown as { closeAllConnections(): void }).closeAllConnections();
    }),
  };
}

const viaFetch = (server: Server, raw: 'sse' | 'session', remoteAddress: string) =>
  server.fetch(
    raw === 'sse'
      ? new Request('http://127.0.0.1/event')
      : new Request('http://127.0.0.1/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    { remoteAddress },
  );

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: streams and sessions from other loopback addresses (127.0.0.2, 127.1.2.3) count against the same client's caps`]: async () => {
    const server = createServer(makeHost(), { port: 0, ...CAPS });
    const { port } = await server.listen();
    try {
      await capHolds(port, SSE, ['127.0.0.1', '127.0.0.2', '127.1.2.3'], 'streams');
      await capHolds(port, SESSION, ['127.0.0.2', '127.0.0.3', '127.0.0.4'], 'sessions');
    } finally {
      await server.close();
    }
  },

  [`${runtime}: embedded in the runtime's own server (Deno.serve / Bun.serve / @hono/node-server with server.fetch), the caps hold`]: async () => {
    const server = createServer(makeHost(), CAPS);
    const { port, stop } = await embedded(server);
    try {
      await capHolds(port, SSE, ['127.0.0.1', '127.0.0.1', '127.0.0.1'], 'streams');
      await capHolds(port, SESSION, ['127.0.0.1', '127.0.0.1', '127.0.0.1'], 'sessions');
    } finally {
      await server.close();
      await stop();
    }
  },

  [`${runtime}: IPv6 addresses of one /56 are one client, an IPv4-mapped address is its IPv4 address; other clients are not affected`]: async () => {
    const server = createServer(makeHost(), CAPS);
    const open: Response[] = [];
    try {
      for (const address of ['2001:db8:1:100::1', '2001:db8:1:1ff:abcd::2']) open.push(await viaFetch(server, 'sse', address));
      const refused = await viaFetch(server, 'sse', '2001:db8:1:1ab::3');
      assert.equal(refused.status, 429);
      assert.match((await refused.json()).error.message, /this client \(2001:db8:1:100::\/56\) already holds 2 event streams/);
      open.push(await viaFetch(server, 'sse', '2001:db8:1:200::1'));
      assert.deepEqual(open.map((r) => r.status), [200, 200, 200]);
      for (const address of ['::ffff:10.0.0.7', '10.0.0.7']) assert.equal((await viaFetch(server, 'session', address)).status, 201);
      const mapped = await viaFetch(server, 'session', '::ffff:a00:7');
      assert.equal(mapped.status, 429);
      assert.match((await mapped.json()).error.message, /this client \(10\.0\.0\.7\) already holds 2 sessions/);
      assert.equal((await viaFetch(server, 'session', '10.0.0.8')).status, 201);
    } finally {
      for (const r of open) await r.body?.cancel();
      await server.close();
    }
  },
};
