// Hostile review red6 on each runtime, through its own serve adapter and raw
// sockets: one scenario per class of hole in what is reachable over HTTP.
import assert from 'node:assert/strict';
import { z } from 'zod';
import * as wasmhooks from '../../dist/index.js';
import { mcpHttpApp } from '../../dist/mcp.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import { get, openSse, rawRequest } from './raw-http.ts';

const runtime = runtimeName();
type Server = ReturnType<typeof createServer>;

function makeHost() {
  const model = wasmhooks.scriptedModel({ rules: [{ when: () => true, reply: { text: 'Hello.' } }] });
  return wasmhooks.createHost({ model });
}

async function withServer(options: Record<string, unknown>, run: (port: number, server: Server) => Promise<void>): Promise<void> {
  const server = createServer(makeHost(), { port: 0, ...options });
  const { port } = await server.listen();
  try {
    await run(port, server);
  } finally {
    await server.close();
  }
}

/** A raw POST; `body` is latin1 (one char per byte). */
const post = (path: string, body: string, headers: string[] = ['Host: 127.0.0.1', 'Content-Type: application/json']) =>
  `POST ${path} HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join('')}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;

const errorOf = (body: string) => (JSON.parse(body) as { error: { code: string; message: string } }).error;
const header = (head: string, name: string) => new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1]?.trim();

const MCP_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const MCP_ACCEPT = 'Accept: application/json, text/event-stream';

/** Sends `head`, then one more header byte every 100 ms (slowloris on headers), until the server closes or `ms` pass. */
function trickleHeaders(port: number, head: string, ms: number): Promise<{ status: string; closed: boolean; afterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    let got = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    const timer = setInterval(() => socket.writable && socket.write('a'), 100);
    const finish = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(stop);
      socket.destroy();
      resolve({ status: got.split('\r\n')[0] ?? '', closed, afterMs: Date.now() - started });
    };
    const stop = setTimeout(() => finish(false), ms);
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
  });
}

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: the MCP endpoint has the control plane's guards: fetch metadata, JSON-only POSTs, security headers`]: async () => {
    const served = await mcpHttpApp(makeHost(), { port: 0 }).listen();
    const { port } = served;
    try {
      // Baseline: a plain client lists the tools, and the answer carries the security headers.
      const ok = await rawRequest(port, post('/mcp', MCP_LIST, ['Host: 127.0.0.1', 'Content-Type: application/json', MCP_ACCEPT]));
      assert.equal(ok.status, 200, ok.head + ok.body);
      assert.match(ok.body, /"tools"/);
      for (const [name, value] of [['x-frame-options', 'DENY'], ['x-content-type-options', 'nosniff'], ['cross-origin-resource-policy', 'same-origin']]) {
        assert.equal(header(ok.head, name as string), value, `${name} on ${ok.head}`);
      }
      // A "simple" cross-site POST (a form or no-cors fetch: text/plain, whose parameters may say anything) is refused by our check.
      const simple = await rawRequest(port, post('/mcp', MCP_LIST, ['Host: 127.0.0.1', 'Content-Type: text/plain; x=application/json', MCP_ACCEPT]));
      assert.equal(simple.status, 415, simple.head + simple.body);
      assert.equal(errorOf(simple.body).code, 'unsupported_media_type');
      // A request another site embeds, without Origin (fetch metadata), is refused: GET and POST.
      const embedded = ['Host: 127.0.0.1', 'Sec-Fetch-Site: cross-site', 'Sec-Fetch-Mode: no-cors', 'Sec-Fetch-Dest: empty'];
      const viaPost = await rawRequest(port, post('/mcp', MCP_LIST, [...embedded, 'Content-Type: application/json', MCP_ACCEPT]));
      assert.equal(viaPost.status, 403, viaPost.head + viaPost.body);
      assert.match(errorOf(viaPost.body).message, /embedded by another site/);
      const viaGet = await rawRequest(port, get('/mcp', [...embedded.slice(0, 2), 'Sec-Fetch-Dest: iframe', 'Accept: text/event-stream']));
      assert.equal(viaGet.status, 403, viaGet.head);
      assert.equal(header(viaGet.head, 'x-frame-options'), 'DENY');
      // Bodies are read the one way (the SDK's JSON.parse took any depth, then overflowed the stack: -32603 on Node and Bun).
      const nested = '['.repeat(200_000) + ']'.repeat(200_000);
      const deepCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"x":${nested}}}}`;
      for (const [what, body, type] of [
        ['deep', deepCall, 'application/json'],
        ['twice', '{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call","params":{}}', 'application/json'],
        ['not UTF-8', '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"\xff"}}', 'application/json'],
        ['UTF-16', MCP_LIST, 'application/json; charset=utf-16'],
      ] as const) {
        const res = await rawRequest(port, post('/mcp', body, ['Host: 127.0.0.1', `Content-Type: ${type}`, MCP_ACCEPT]), 5000);
        assert.equal(res.status, what === 'UTF-16' ? 415 : 400, `${what}: ${res.head}${res.body.slice(0, 200)}`);
        if (what !== 'UTF-16') assert.equal((JSON.parse(res.body) as { error: { code: number } }).error.code, -32700, res.body);
      }
      // Still refused as before: a foreign Host (DNS rebinding) and a foreign Origin.
      assert.equal((await rawRequest(port, post('/mcp', MCP_LIST, ['Host: attacker.example', 'Content-Type: application/json', MCP_ACCEPT]))).status, 403);
      assert.equal((await rawRequest(port, post('/mcp', MCP_LIST, ['Host: 127.0.0.1', 'Origin: https://attacker.example', 'Content-Type: application/json', MCP_ACCEPT]))).status, 403);
    } finally {
      await served.close();
    }
  },

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
      for (const query of ['limit=0', 'limit=1001', 'offset=-1', 'offset=1e3', 'limit=%201', 'offset=0x10', 'limit=']) {
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

  [`${runtime}: plugin loading reaches no inward address: POST /plugins refuses loopback/private hosts in every spelling, file: URLs and devices; no redirects`]: async () => {
    const pin = '0'.repeat(64);
    // A local server that redirects: a public URL could send the download inward the same way.
    const redirector = http.createServer((_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end());
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const redirectPort = (redirector.address() as net.AddressInfo).port;
    try {
      const redirected = await wasmhooks.loadPlugin({ url: `http://127.0.0.1:${redirectPort}/x.wasm`, sha256: pin, redirect: 'error' }).then(
        () => assert.fail('loaded'),
        (e: Error & { code?: string }) => e,
      );
      assert.equal(redirected.code, 'LOAD_FAILED', redirected.message);
      assert.match(redirected.message, /redirects are not followed/);
      for (const source of [{ url: 'file:///etc/hostname', sha256: pin }, { path: '/dev/zero' }]) {
        const started = Date.now();
        const error = await wasmhooks.loadPlugin(source).then(
          () => assert.fail('loaded'),
          (e: Error & { code?: string }) => e,
        );
        assert.match(`${error.code} ${error.message}`, 'url' in source ? /^INVALID_OPTIONS .*http: or https:/ : /^LOAD_FAILED .*not a regular file/);
        assert.ok(Date.now() - started < 2000);
      }
      // A host that loads at run time as `wasmhooks serve` does (the source as the route hands it over, redirect included).
      const inner = makeHost();
      const loading = {
        session: (options: Parameters<typeof inner.session>[0]) => inner.session(options),
        loadPlugin: async (source: Parameters<typeof wasmhooks.loadPlugin>[0]) => wasmhooks.loadPlugin(source),
      };
      const server = createServer(loading as unknown as Parameters<typeof createServer>[0], { port: 0, allowPluginLoading: true });
      const { port } = await server.listen();
      try {
        const load = (body: unknown) => rawRequest(port, post('/plugins', JSON.stringify(body)), 5000);
        for (const url of [
          `http://127.0.0.1:${redirectPort}/x.wasm`,
          `http://2130706433:${redirectPort}/x.wasm`,
          `http://[::ffff:7f00:1]:${redirectPort}/x.wasm`,
          'http://169.254.169.254/latest/meta-data',
          `http://localhost:${redirectPort}/x.wasm`,
          'http://10.0.0.1/x.wasm',
        ]) {
          const refused = await load({ url, sha256: pin });
          assert.equal(refused.status, 403, `${url}: ${refused.body}`);
          assert.match(errorOf(refused.body).message, /not a public address/);
        }
        const file = await load({ url: 'file:///etc/hostname', sha256: pin });
        assert.equal(file.status, 400, file.body);
        const device = await load({ path: '/dev/zero' });
        assert.ok(device.status >= 400, device.body);
        assert.match(errorOf(device.body).message, /not a regular file/);
      } finally {
        await server.close();
      }
    } finally {
      redirector.close();
    }
  },

  [`${runtime}: one reading of a body: a Content-Type naming its charset twice is 415, a "__proto__" key (in any spelling, at any depth) is 400`]: () =>
    withServer({}, async (port) => {
      for (const type of ['application/json;charset=utf-8;charset=utf-16', 'application/json; charset=utf-8; CHARSET="latin1"', 'application/json;charset=utf-8;charset=utf-8']) {
        const res = await rawRequest(port, post('/session', '{}', ['Host: 127.0.0.1', `Content-Type: ${type}`]));
        assert.equal(res.status, 415, `${type}: ${res.head}`);
        assert.match(errorOf(res.body).message, /more than once/);
      }
      assert.equal((await rawRequest(port, post('/session', '{}', ['Host: 127.0.0.1', 'Content-Type: application/json; charset=UTF-8']))).status, 201);
      // JSON.parse keeps "__proto__" as data; the first Object.assign copy makes it a prototype, zod's records drop it.
      const id = (JSON.parse((await rawRequest(port, post('/session', '{}'))).body) as { id: string }).id;
      for (const [path, body] of [
        ['/session', '{"__proto__":{"title":"x"}}'],
        ['/session', '{"\\u005f_proto__":{}}'],
        [`/session/${id}/control-response`, '{"requestID":"r","subtype":"can_use_tool","response":{"behavior":"allow","updatedInput":{"a":[{"__proto__":{"command":"rm -rf /"}}]}}}'],
      ]) {
        const res = await rawRequest(port, post(path as string, body as string));
        assert.equal(res.status, 400, `${body}: ${res.body}`);
        assert.match(errorOf(res.body).message, /__proto__/);
      }
      // Other keys named like Object's own members are plain data.
      assert.equal((await rawRequest(port, post(`/session/${id}/control-cancel`, '{"requestID":"constructor"}'))).status, 200);
    }),

  [`${runtime}: a control answer counts once, for its own session only (another session's id, a replayed answer, a cancel after it)`]: async () => {
    const model = wasmhooks.scriptedModel({
      rules: [
        { when: { lastToolName: 'Ask' }, reply: { text: 'Thanks.' } },
        { when: { lastUser: 'ask' }, reply: { toolCalls: [{ name: 'Ask', input: {} }] } },
        { when: () => true, reply: { text: 'Hello.' } },
      ],
    });
    const ask: { elicit?: Server['elicit'] } = {};
    const askTool = wasmhooks.tool('Ask', 'Ask the user', z.object({}), async (_input, ctx) => JSON.stringify(await ask.elicit!(ctx.sessionId, { message: 'Name?' })));
    const server = createServer(wasmhooks.createHost({ model, tools: [askTool], allowedTools: ['Ask'] }), { port: 0 });
    ask.elicit = server.elicit;
    const { port } = await server.listen();
    try {
      const create = async () => (JSON.parse((await rawRequest(port, post('/session', '{}'))).body) as { id: string }).id;
      const [mine, other] = [await create(), await create()];
      assert.equal((await rawRequest(port, post(`/session/${mine}/prompt`, '{"prompt":"ask"}'))).status, 202);
      const deadline = Date.now() + 5000;
      while (server.broker.pending(mine).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      const requestID = server.broker.pending(mine)[0]!.id;
      const answer = JSON.stringify({ requestID, subtype: 'elicitation', response: { action: 'accept', content: { name: 'Ada' } } });
      const foreign = await rawRequest(port, post(`/session/${other}/control-response`, answer));
      assert.deepEqual(JSON.parse(foreign.body), { resolved: false, reason: 'session-mismatch' });
      assert.equal(JSON.parse((await rawRequest(port, post(`/session/${other}/control-cancel`, JSON.stringify({ requestID })))).body).cancelled, 0);
      assert.equal(server.broker.pending(mine).length, 1);
      assert.deepEqual(JSON.parse((await rawRequest(port, post(`/session/${mine}/control-response`, answer))).body), { resolved: true });
      assert.deepEqual(JSON.parse((await rawRequest(port, post(`/session/${mine}/control-response`, answer))).body), { resolved: false, reason: 'not-pending' });
      assert.equal(JSON.parse((await rawRequest(port, post(`/session/${mine}/control-cancel`, JSON.stringify({ requestID })))).body).cancelled, 0);
      // Ids that are not ids: refused before any lookup.
      for (const id of ['a%2Fb', '%E2%80%AE', 'x'.repeat(129), '..']) {
        const res = await rawRequest(port, post(`/session/${id}/control-response`, answer));
        assert.ok(res.status === 400 || res.status === 404, `${id}: ${res.head}`);
      }
    } finally {
      await server.close();
    }
  },

  [`${runtime}: a data directory's lock claims left by crashed take-overs are removed when the lock is taken`]: async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'wasmhooks-red6-')), 'data');
    const sessions = join(dataDir, 'sessions');
    mkdirSync(sessions, { recursive: true, mode: 0o700 });
    const dead = spawnSync('true').pid as number;
    const orphan = `.lock.${'a'.repeat(32)}.claim`;
    writeFileSync(join(sessions, orphan), `${JSON.stringify({ pid: dead, host: hostname(), nonce: 'gone' })}\n`, { mode: 0o600 });
    const opened = await wasmhooks.openStore({ kind: 'file', dataDir });
    try {
      assert.ok(!readdirSync(sessions).includes(orphan), readdirSync(sessions).join(' '));
    } finally {
      await opened.close();
    }
  },

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
};
