// Hostile review red10 on each runtime, through its own serve adapter and raw
// sockets: one scenario per class of hole in what is reachable over HTTP.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as wasmhooks from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { get, rawRequest, trickle } from './raw-http.ts';
import { errorOf, makeHost, post, withServer } from './red6-helpers.ts';

const runtime = runtimeName();
const TOKEN = 'red10-token-0123456789';
const AUTH = `Authorization: Bearer ${TOKEN}`;

/** Sends `head`, then (once `sendBody` says so from what arrived) `body`; reads until close or `ms`. */
function expectContinue(port: number, head: string, body: string, ms = 3000): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    let got = '';
    let sent = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(got);
    };
    const timer = setTimeout(finish, ms);
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (!sent && got.startsWith('HTTP/1.1 100')) {
        sent = true;
        socket.write(body);
      }
    });
    socket.on('close', finish);
    socket.on('error', finish);
  });
}

/** A host whose run-time loads wait `ms` before loading as `wasmhooks serve` does (a slow route). */
function slowLoadingHost(ms: number) {
  const inner = makeHost();
  return {
    session: (options: Parameters<typeof inner.session>[0]) => inner.session(options),
    loadPlugin: async (source: Parameters<typeof wasmhooks.loadPlugin>[0]) => {
      await new Promise((r) => setTimeout(r, ms));
      return wasmhooks.loadPlugin(source);
    },
  } as unknown as Parameters<typeof createServer>[0];
}

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: Expect: 100-continue is not answered before the token is checked; an authorised one gets its 100 and is served`]: () =>
    withServer({ token: TOKEN }, async (port) => {
      const head = (auth: boolean) =>
        `POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth ? `${AUTH}\r\n` : ''}Content-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`;
      const refused = await expectContinue(port, head(false), '{}');
      if (runtime === 'node') {
        // Node sent 100 Continue at once (before the app ran): the client then sent a body only to be refused.
        assert.match(refused, /^HTTP\/1\.1 401 /, refused.slice(0, 80));
      } else {
        // Deno and Bun answer the expectation themselves before the handler runs (docs/server.md): the 401 follows.
        assert.match(refused, /HTTP\/1\.1 401 /);
      }
      const served = await expectContinue(port, head(true), '{}');
      assert.match(served, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /, served.slice(0, 80));
    }),

  [`${runtime}: an absolute-form target naming another host is 400 with Host empty or absent, as with a Host that differs`]: () =>
    withServer({}, async (port) => {
      const empty = await rawRequest(port, 'GET http://evil.test/health HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n');
      const absent = await rawRequest(port, 'GET http://evil.test/health HTTP/1.0\r\n\r\n');
      if (runtime === 'bun') {
        // Bun drops the target's authority before the app sees the request: it routes by the path, and no one reads evil.test.
        assert.equal(empty.status, 200);
      } else {
        for (const answer of [empty, absent]) {
          assert.equal(answer.status, 400, answer.head);
          assert.match(errorOf(answer.body).message, /evil\.test.*not a proxy/);
        }
      }
      // A target naming this server itself, with no Host, is still served.
      const own = await rawRequest(port, `GET http://127.0.0.1:${port}/health HTTP/1.0\r\n\r\n`);
      assert.equal(own.status, 200, own.head);
    }),

  [`${runtime}: Sec-Fetch-Site fails closed: a value no browser sends (two joined) is cross-site, not harmless`]: () =>
    withServer({}, async (port) => {
      const joined = await rawRequest(port, get('/session', ['Host: 127.0.0.1', 'Sec-Fetch-Site: same-origin', 'Sec-Fetch-Site: cross-site']));
      assert.equal(joined.status, 403, joined.head);
      const odd = await rawRequest(port, get('/session', ['Host: 127.0.0.1', 'Sec-Fetch-Site: cross-site-ish']));
      assert.equal(odd.status, 403, odd.head);
      for (const site of ['same-origin', 'none']) {
        const ok = await rawRequest(port, get('/session', ['Host: 127.0.0.1', `Sec-Fetch-Site: ${site}`]));
        assert.equal(ok.status, 200, `${site}: ${ok.head}`);
      }
    }),

  [`${runtime}: POST /plugins naming a FIFO without a writer is answered at once and holds no file-system thread`]: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'red10-fifo-'));
    const fifo = join(dir, 'p.wasm');
    execFileSync('mkfifo', [fifo]);
    const server = createServer(slowLoadingHost(0), { port: 0, allowPluginLoading: true });
    const { port } = await server.listen();
    try {
      // Four at once: more than Node's and Deno's file-system thread pools hold by default.
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 6 }, () => rawRequest(port, post('/plugins', JSON.stringify({ path: fifo })), 8000)));
      // 400 LOAD_FAILED (it reads as empty): the client named it. Was a 500, and before that no answer at all.
      for (const answer of answers) assert.equal(answer.status, 400, `answered: ${answer.status} ${answer.head}`);
      const missing = await rawRequest(port, post('/plugins', JSON.stringify({ path: join(dir, 'nothing-here.wasm') })), 8000);
      assert.equal(missing.status, 400, missing.body);
      assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
      // The file system still answers a real load at once.
      const calc = new URL('../../plugins/calc/build/calc.wasm', import.meta.url).pathname;
      const loaded = await rawRequest(port, post('/plugins', JSON.stringify({ path: calc })), 8000);
      assert.equal(loaded.status, 201, loaded.body);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },

  [`${runtime}: POST /plugins with a path that is no plugin does not read out the file's first bytes or size`]: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'red10-leak-'));
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'SECRET=hunter2\n');
    const server = createServer(slowLoadingHost(0), { port: 0, allowPluginLoading: true });
    const { port } = await server.listen();
    try {
      const answer = await rawRequest(port, post('/plugins', JSON.stringify({ path: secret })), 8000);
      assert.equal(answer.status, 400, answer.head);
      const { message } = errorOf(answer.body);
      assert.match(message, /not a WebAssembly module/);
      // Before: "(15 bytes, starting 53 45 43 52 45 54 3d 68; …)": eight bytes and the size of any file the server can open.
      assert.doesNotMatch(message, /53 45 43|15 bytes/, message);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },

  [`${runtime}: a slow route does not pin its body's share of bodyBytesInFlight once the body is read`]: async () => {
    const calc = new URL('../../plugins/calc/build/calc.wasm', import.meta.url).pathname;
    const body = JSON.stringify({ path: calc });
    // Room for one body at a time; the route then waits 1.5 s (a plugin load, a model) after reading it.
    const server = createServer(slowLoadingHost(1500), { port: 0, allowPluginLoading: true, bodyLimit: body.length + 10, bodyBytesInFlight: body.length + 10 });
    const { port } = await server.listen();
    try {
      const first = rawRequest(port, post('/plugins', body), 8000);
      await new Promise((r) => setTimeout(r, 400));
      // Before: 503 "receiving … bytes already" for as long as the first route ran.
      const second = await rawRequest(port, post('/plugins', body), 8000);
      assert.equal(second.status, 201, second.body);
      assert.equal((await first).status, 201);
    } finally {
      await server.close();
    }
  },

  [`${runtime}: a chunked body the runtime refuses midway (a 1 MiB chunk extension, a bad chunk size) is a 4xx, never a 500`]: () =>
    withServer({}, async (port) => {
      const start = 'POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n';
      const shapes = {
        // Deno refuses it while the app reads the body: the read's failure was answered 500 internal.
        longExtension: `${start}2;a=${'b'.repeat(1 << 20)}\r\n{}\r\n0\r\n\r\n`,
        badSize: `${start}2\r\n{}\r\nzz\r\n{}\r\n0\r\n\r\n`,
      };
      for (const [name, raw] of Object.entries(shapes)) {
        const answer = await rawRequest(port, raw, 5000);
        // 0: the runtime reset the connection after refusing it (Bun's bare 413 may be lost to the reset).
        assert.ok(answer.status === 0 || (answer.status >= 400 && answer.status < 500), `${name}: ${answer.head}`);
        if (answer.body.startsWith('{')) assert.notEqual(errorOf(answer.body).code, 'internal', `${name}: ${answer.body}`);
      }
    }),

  [`${runtime}: a TRACE that declares a body is refused and closed, as a GET or HEAD is (Bun read it as slowly as sent)`]: () =>
    withServer({ bodyTimeoutMs: 800 }, async (port) => {
      const answer = await trickle(port, 'TRACE /health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n', 'a', 3000, runtime === 'deno');
      assert.match(answer.status, /^HTTP\/1\.1 400 /, JSON.stringify(answer));
      // Deno gives the handler no way to close a connection (docs/http-api.md): it answers and reads on (so there
      // only the status is read: trickle's statusOnly).
      if (runtime !== 'deno') assert.ok(answer.closed && answer.afterMs < 2000, JSON.stringify(answer));
    }),

  [`${runtime}: checked and clean: smuggling shapes (two Content-Lengths, CL with TE, an unknown coding, obs-fold) are 400; a refused body is never a request`]: () =>
    withServer({ token: TOKEN }, async (port) => {
      const start = `POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\nContent-Type: application/json\r\n`;
      const shapes = {
        twoLengths: `${start}Content-Length: 2\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{} `,
        lengthAndChunked: `${start}Content-Length: 7\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
        unknownCoding: `${start}Transfer-Encoding: xchunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
        obsFold: `${start}X-A: a\r\n b\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
        nulInHeader: `GET /event HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\nLast-Event-ID: 1\x002\r\nConnection: close\r\n\r\n`,
      };
      for (const [name, raw] of Object.entries(shapes)) {
        const answer = await rawRequest(port, raw);
        assert.equal(answer.status, 400, `${name}: ${answer.head}`);
      }
      // A body refused before it was read (415, 401) is never taken for the next request on the connection,
      // on any runtime (Deno keeps the connection and reads on: it skips the body by its length).
      const inner = `POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;
      for (const refusal of [`${AUTH}\r\nContent-Type: text/plain`, 'Content-Type: application/json']) {
        await rawRequest(port, `POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\n${refusal}\r\nContent-Length: ${inner.length}\r\n\r\n${inner}`, 1500);
      }
      const listed = await rawRequest(port, get('/session', ['Host: 127.0.0.1', AUTH]));
      assert.equal(JSON.parse(listed.body).total, 0, listed.body);
    }),

  [`${runtime}: checked and clean: dot segments, encoded slashes and CR/LF in ids never pass the token or the id checks, on every route`]: () =>
    withServer({ token: TOKEN }, async (port) => {
      // Node and Bun resolve %2e%2e, Deno routes it as written: whichever, the token is checked on every path.
      for (const path of ['/session/%2e%2e/health', '/%2e%2e/session', '//session', '/x/../session', '/event/%2e%2e/session']) {
        const answer = await rawRequest(port, get(path));
        assert.ok(answer.status === 401 || answer.status === 400, `${path}: ${answer.head}`);
      }
      const ids = ['a%2Fb', 'a%0D%0AX-Injected:%201', 'a%00b', 'x'.repeat(200)];
      for (const id of ids) {
        const answer = await rawRequest(port, get(`/session/${id}`, ['Host: 127.0.0.1', AUTH]));
        assert.equal(answer.status, 400, `${id}: ${answer.head}`);
        assert.doesNotMatch(answer.head, /X-Injected/i);
        const sse = await rawRequest(port, get(`/event?session=${id}`, ['Host: 127.0.0.1', AUTH]));
        assert.equal(sse.status, 400, `sse ${id}: ${sse.head}`);
      }
      const huge = await rawRequest(port, get('/event', ['Host: 127.0.0.1', AUTH, `Last-Event-ID: ${'9'.repeat(30_000)}`]));
      assert.ok(huge.status === 400 || huge.status === 431, huge.head);
    }),

  [`${runtime}: checked and clean: a rebinding Host in any spelling is refused on every route and method, before the token, SSE included`]: () =>
    withServer({ token: TOKEN }, async (port) => {
      const hosts = ['evil.test', `evil.test:${port}`, 'localhost.evil.test', '127.0.0.1.evil.test', '0x7f000001', '2130706433', '127.1', '[::ffff:127.0.0.1]', 'LOCALHOST.EVIL.TEST.'];
      const routes = [['GET', '/'], ['GET', '/health'], ['GET', '/event'], ['GET', '/global/event'], ['HEAD', '/event'], ['GET', '/session'], ['OPTIONS', '/session'], ['POST', '/session'], ['POST', '/session/x/control-response'], ['DELETE', '/session/x'], ['POST', '/mcp']];
      for (const host of hosts) {
        for (const [method, path] of routes) {
          const answer = await rawRequest(port, `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${AUTH}\r\nContent-Type: application/json\r\nContent-Length: ${method === 'POST' ? 2 : 0}\r\nConnection: close\r\n\r\n${method === 'POST' ? '{}' : ''}`);
          assert.ok(answer.status === 403 || answer.status === 400, `${method} ${path} Host ${host}: ${answer.head}`);
        }
      }
    }),

  [`${runtime}: checked and clean: JSON at the zod edges (duplicate keys, __proto__ in any spelling, 100,000 levels, 1e400) is 400`]: () =>
    withServer({}, async (port) => {
      const bodies = {
        duplicate: '{"maxTurns":1,"maxTurns":1000}',
        proto: '{"__proto__":{"maxTurns":1}}',
        escapedProto: '{"\\u005f_proto__":{"x":1}}',
        deep: `{"title":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
        huge: '{"maxTurns":1e400}',
        notUtf8: '{"title":"\xff"}',
      };
      for (const [name, body] of Object.entries(bodies)) {
        const answer = await rawRequest(port, post('/session', body));
        assert.equal(answer.status, 400, `${name}: ${answer.head} ${answer.body.slice(0, 200)}`);
      }
      const sessions = await rawRequest(port, get('/session'));
      assert.equal(JSON.parse(sessions.body).total, 0);
    }),

  [`${runtime}: checked and clean: a CORS preflight from an origin not listed gets no Access-Control-Allow-Origin`]: () =>
    withServer({ corsOrigins: ['http://app.test'] }, async (port) => {
      const preflight = (origin: string) =>
        rawRequest(port, `OPTIONS /session HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${origin}\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\nConnection: close\r\n\r\n`);
      const foreign = await preflight('http://evil.test');
      assert.equal(foreign.status, 403, foreign.head);
      assert.doesNotMatch(foreign.head, /access-control-allow-origin/i);
      const listed = await preflight('http://app.test');
      assert.ok(listed.status === 204 || listed.status === 200, listed.head);
      assert.match(listed.head, /access-control-allow-origin: http:\/\/app\.test/i);
      // A simple cross-site POST (text/plain, a form) is refused whatever its Origin says, or without one.
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const answer = await rawRequest(port, post('/session', '{}', ['Host: 127.0.0.1', `Content-Type: ${type}`]));
        assert.equal(answer.status, 415, `${type}: ${answer.head}`);
      }
    }),
};
