// Hostile review red6, the limits on resources reachable over HTTP, on each
// runtime through its own serve adapter and raw sockets: headers in time, SSE
// streams, pages of lists, replays, request bodies held at once.
import assert from 'node:assert/strict';
import net from 'node:net';
import { createServer, runtimeName } from '../../dist/server.js';
import { get, openSse, rawRequest, trickle } from './raw-http.ts';
import { errorOf, header, makeHost, post, withServer } from './red6-helpers.ts';

const runtime = runtimeName();

/** Sends `head`, then one more header byte every 100 ms (slowloris on headers), until the server closes or `ms` pass. */
const trickleHeaders = (port: number, head: string, ms: number) => trickle(port, head, 'a', ms);

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: headers trickled byte by byte (slowloris on headers) are cut: Node 408 in headersTimeoutMs, Bun its own ~10 s`]: () =>
    withServer({ headersTimeoutMs: 500 }, async (port) => {
      const head = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';
      if (runtime === 'deno') {
        // Deno.serve has no header timeout and offers none (docs/http-api.md): the server still serves everyone else.
        const slow = trickleHeaders(port, head, 1500);
        assert.equal((await rawRequest(port, get('/health'))).status, 200);
        assert.equal((await slow).closed, false);
        return;
      }
      const answer = await trickleHeaders(port, head, 15_000);
      assert.ok(answer.closed, JSON.stringify(answer));
      if (runtime === 'node') {
        // Was Node's own 60 s (checked every 30 s), answered 400.
        assert.match(answer.status, /^HTTP\/1\.1 408/, JSON.stringify(answer));
        assert.ok(answer.afterMs < 2500, JSON.stringify(answer));
      } else assert.ok(answer.afterMs < 14_000, JSON.stringify(answer));
    }),

  [`${runtime}: SSE streams are bounded (maxSseClients): one more is 503 too_many_streams, on the fast route and through the app`]: () =>
    withServer({ maxSseClients: 2 }, async (port, server) => {
      const first = openSse(port, '/event');
      const second = openSse(port, '/global/event');
      await Promise.all([first.opened, second.opened]);
      assert.equal(server.hub.clientCount, 2);
      for (const path of ['/event', '/global/event', '/%65vent']) {
        const refused = await rawRequest(port, get(path));
        assert.equal(refused.status, 503, `${path}: ${refused.head}`);
        assert.equal(errorOf(refused.body).code, 'too_many_streams');
        assert.equal(header(refused.head, 'retry-after'), '5');
        assert.equal(header(refused.head, 'x-frame-options'), 'DENY');
      }
      // The stream's parameters given twice are refused too, on the fast route and through the app.
      for (const path of ['/event?session=a&session=b', '/global/event?format=wasmhooks&format=reference', '/%65vent?session=a&session=b']) {
        const twice = await rawRequest(port, get(path));
        assert.equal(twice.status, 400, `${path}: ${twice.head}`);
        assert.match(errorOf(twice.body).message, /give it once/);
      }
      // A HEAD opens no stream and is still answered.
      assert.equal((await rawRequest(port, get('/event').replace('GET', 'HEAD'))).status, 200);
    }),

  [`${runtime}: lists are paged: a long conversation is never one response (limit, about 4 MiB a page, nextOffset), bad paging is 400`]: () =>
    withServer({ bodyLimit: 1_100_000 }, async (port) => {
      const call = async (method: string, path: string, body?: string) => {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body !== undefined ? { body } : {}) });
        return { status: res.status, json: (await res.json()) as Record<string, unknown> };
      };
      const id = (await call('POST', '/session', '{}')).json.id as string;
      for (let i = 0; i < 5; i++) {
        assert.equal((await call('POST', `/session/${id}/prompt`, JSON.stringify({ prompt: String(i).repeat(1_000_000) }))).status, 202);
        const deadline = Date.now() + 10_000;
        while ((await call('GET', `/session/${id}`)).json.running === true && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      }
      // Ten messages, five of a million characters: the old route sent all of them (5 MB) in one answer.
      const first = (await call('GET', `/session/${id}/messages`)).json;
      assert.equal(first.total, 10);
      const firstPage = first.messages as unknown[];
      assert.ok(firstPage.length >= 1 && firstPage.length < 10, `first page: ${firstPage.length}`);
      assert.ok(JSON.stringify(firstPage).length < 4.5 * 1024 * 1024);
      const all = [...firstPage];
      let next = first.nextOffset as number | undefined;
      while (next !== undefined) {
        const page = (await call('GET', `/session/${id}/messages?offset=${next}`)).json;
        all.push(...(page.messages as unknown[]));
        next = page.nextOffset as number | undefined;
      }
      assert.equal(all.length, 10);
      const two = (await call('GET', `/session/${id}/messages?offset=8&limit=2`)).json;
      assert.equal((two.messages as unknown[]).length, 2);
      assert.equal(two.nextOffset, undefined);
      assert.deepEqual(Object.keys((await call('GET', '/session?limit=1')).json).sort(), ['offset', 'sessions', 'total']);
      for (let i = 0; i < 2; i++) await call('POST', '/session', '{}');
      const sessions = (await call('GET', '/session?limit=2')).json;
      assert.deepEqual([(sessions.sessions as unknown[]).length, sessions.total, sessions.nextOffset], [2, 3, 2]);
      const rest = (await call('GET', '/session?offset=2&limit=2')).json;
      assert.deepEqual([(rest.sessions as { id: string }[]).length, rest.nextOffset], [1, undefined]);
      assert.notEqual((rest.sessions as { id: string }[])[0]!.id, (sessions.sessions as { id: string }[])[1]!.id);
      // A parameter given twice is refused: we read the first, many proxies the last.
      for (const query of ['limit=0', 'limit=1001', 'offset=-1', 'offset=1e3', 'limit=%201', 'offset=0x10', 'limit=', 'limit=1&limit=1000', 'offset=0&offset=5']) {
        const bad = await call('GET', `/session/${id}/messages?${query}`);
        assert.equal(bad.status, 400, `${query}: ${JSON.stringify(bad.json)}`);
        assert.match((bad.json.error as { path: string }).path, /^query\.(offset|limit)$/);
      }
    }),

  [`${runtime}: a replay counts against the client's queue limits: the newest that fit, after a replay.gap (over-limit)`]: () =>
    withServer({ clientQueueBytes: 5000, replayBufferSize: 1000 }, async (port, server) => {
      const from = server.hub.lastId;
      for (let i = 0; i < 60; i++) assert.equal((await rawRequest(port, post('/session', '{}'))).status, 201);
      await server.hub.log.drain();
      // Before: all 60 were queued for every client that asked, whatever its limits (and, from Redis, read as a copy per connection).
      const sse = openSse(port, '/event', [`Last-Event-ID: ${from}`], 1500);
      const { data } = await sse.done;
      const events = data.map((d) => JSON.parse(d) as { type: string; reason?: string; missed?: number });
      assert.equal(events[0]?.type, 'server.connected');
      assert.deepEqual(events[1] && { type: events[1].type, reason: events[1].reason }, { type: 'replay.gap', reason: 'over-limit' });
      const replayed = events.filter((e) => e.type === 'session.created').length;
      assert.ok(replayed > 0 && replayed < 60, `replayed ${replayed}`);
      assert.equal(events[1]?.missed, 60 - replayed);
      // Without a Last-Event-ID nothing is replayed and nothing is missed.
      assert.ok(!(await openSse(port, '/event', [], 500).done).data.some((d) => d.includes('replay.gap')));
    }),

  [`${runtime}: request bodies held at once are bounded over all requests (bodyBytesInFlight): one more is 503 at once`]: () =>
    withServer({ bodyLimit: 1000, bodyBytesInFlight: 2000, bodyTimeoutMs: 5000 }, async (port) => {
      // Two clients each announce 1000 bytes and send one: together they hold the whole budget.
      const holders = [0, 1].map(() => {
        const socket = net.connect(port, '127.0.0.1', () =>
          socket.write('POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{'),
        );
        socket.on('error', () => {});
        return socket;
      });
      await new Promise((r) => setTimeout(r, 300));
      const full = await rawRequest(port, post('/session', `{"title":"${'a'.repeat(900)}"}`));
      assert.equal(full.status, 503, full.head);
      assert.equal(errorOf(full.body).code, 'unavailable');
      assert.match(errorOf(full.body).message, /bodyBytesInFlight/);
      assert.equal(header(full.head, 'retry-after'), '5');
      // A bodiless GET is not concerned.
      assert.equal((await rawRequest(port, get('/health'))).status, 200);
      for (const socket of holders) socket.destroy();
      // Their reservations come back when their requests end.
      const deadline = Date.now() + 4000;
      let after = 0;
      while (Date.now() < deadline && (after = (await rawRequest(port, post('/session', '{}'))).status) !== 201) await new Promise((r) => setTimeout(r, 100));
      assert.equal(after, 201);
      assert.throws(() => createServer(makeHost(), { bodyLimit: 2000, bodyBytesInFlight: 1000 }), /bodyBytesInFlight .* is below bodyLimit/);
    }),

  [`${runtime}: a GET or HEAD that declares a body is 400 with Connection: close (its body trickled would outlive bodyTimeoutMs)`]: () =>
    withServer({ bodyTimeoutMs: 500 }, async (port) => {
      for (const [method, path, framing] of [
        ['GET', '/health', 'Content-Length: 100000'],
        ['HEAD', '/health', 'Content-Length: 100000'],
        ['GET', '/event', 'Transfer-Encoding: chunked'],
        ['GET', '/session', 'Content-Length: 1'],
      ]) {
        // Before: 200, and the connection stayed open (Node, Deno, Bun) while the body trickled in.
        const answer = await trickle(port, `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${framing}\r\n\r\n`, 'a', 3000, runtime === 'deno');
        assert.match(answer.status, /^HTTP\/1\.1 400/, `${method} ${path}: ${JSON.stringify(answer)}`);
        // Deno gives the handler no way to close a connection (docs/http-api.md): there only the status is read.
        if (runtime !== 'deno') assert.ok(answer.closed && answer.afterMs < 2000, `${method} ${path}: ${JSON.stringify(answer)}`);
      }
      const res = await rawRequest(port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
      assert.match(errorOf(res.body).message, /carries no body/);
      assert.equal(header(res.head, 'connection'), 'close');
      assert.equal((await rawRequest(port, get('/health'))).status, 200);
    }),
};
