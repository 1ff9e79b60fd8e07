// Hostile review red9 on each runtime, through its own serve adapter and raw
// sockets: one scenario per class of hole in what is reachable over HTTP (those that
// need Redis are in server-red9-redis.xrt.ts).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import * as wasmhooks from '../../dist/index.js';
import { mcpHttpApp, relayModel } from '../../dist/mcp.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { get, listenOn, rawRequest } from './raw-http.ts';
import { errorOf, header, makeHost, post, postJson, withServer } from './red6-helpers.ts';

const runtime = runtimeName();

/** A host that loads at run time as `wasmhooks serve` does: the source as the route hands it over. */
function loadingHost() {
  const inner = makeHost();
  return {
    session: (options: Parameters<typeof inner.session>[0]) => inner.session(options),
    loadPlugin: async (source: Parameters<typeof wasmhooks.loadPlugin>[0]) => wasmhooks.loadPlugin(source),
  } as unknown as Parameters<typeof createServer>[0];
}

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: DNS rebinding on POST /plugins: the name is resolved once and the download connects to the address checked`]: async () => {
    const wasm = readFileSync(new URL('../../plugins/calc/build/calc.wasm', import.meta.url));
    const sha256 = createHash('sha256').update(wasm).digest('hex');
    // The registry (127.0.0.2, allowed as an internal registry) and the victim (127.0.0.1: what a
    // rebinding name answers the second time) listen on the same port.
    const registry = await listenOn('127.0.0.2', 0, (req, res) => {
      if (req.url === '/calc.wasm') res.writeHead(200, { 'content-type': 'application/wasm' }).end(wasm);
      else if (req.url === '/endless.wasm') {
        // A body without end, as fast as the reader takes it.
        res.writeHead(200);
        const chunk = new Uint8Array(1 << 20);
        const more = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', more);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        more();
      } else res.writeHead(404).end();
    });
    const victim = await listenOn('127.0.0.1', registry.port, (req, res) =>
      req.url === '/moved.wasm' ? res.writeHead(302, { location: 'http://169.254.169.254/' }).end() : res.writeHead(200).end(wasm),
    );
    const answers: string[][] = [];
    // Public (here: allowed) for the check, loopback for whoever asks again.
    const resolve = async (hostname: string) => {
      assert.equal(hostname, 'rebind.test');
      const answer = answers.length === 0 ? ['127.0.0.2'] : ['127.0.0.1'];
      answers.push(answer);
      return answer;
    };
    const server = createServer(loadingHost(), { port: 0, allowPluginLoading: true, pluginUrlResolve: resolve, pluginUrlAllow: ['127.0.0.2'] });
    const { port } = await server.listen();
    try {
      const url = `http://rebind.test:${registry.port}/calc.wasm`;
      const loaded = await rawRequest(port, post('/plugins', JSON.stringify({ url, sha256 })), 10_000);
      assert.equal(loaded.status, 201, loaded.head + loaded.body);
      assert.deepEqual(answers, [['127.0.0.2']], 'the name was resolved once');
      assert.equal(victim.seen.length, 0, `the victim was asked ${JSON.stringify(victim.seen)}`);
      // The plugin (the library's loadPlugin reads no .sig; `wasmhooks serve`'s does, through the same download), sent the URL's own Host.
      assert.deepEqual(registry.seen.map((s) => s.path), ['/calc.wasm']);
      for (const s of registry.seen) assert.equal(s.host, `rebind.test:${registry.port}`);
      // Without the allow-list entry the same address is private: 403, nothing downloaded.
      answers.length = 0;
      const strict = createServer(loadingHost(), { port: 0, allowPluginLoading: true, pluginUrlResolve: async () => ['127.0.0.2'] });
      const strictPort = (await strict.listen()).port;
      try {
        const refused = await rawRequest(strictPort, post('/plugins', JSON.stringify({ url, sha256 })), 5000);
        assert.equal(refused.status, 403, refused.body);
        assert.match(errorOf(refused.body).message, /resolves to 127\.0\.0\.2, which is not a public address/);
        // A resolver answering nothing, or something that is no address, is refused too.
        for (const answer of [[], ['not-an-ip']]) {
          const odd = createServer(loadingHost(), { port: 0, allowPluginLoading: true, pluginUrlResolve: async () => answer });
          const oddPort = (await odd.listen()).port;
          const res = await rawRequest(oddPort, post('/plugins', JSON.stringify({ url, sha256 })), 5000);
          await odd.close();
          assert.ok(res.status === 400 || res.status === 403, `${JSON.stringify(answer)}: ${res.head}${res.body}`);
        }
      } finally {
        await strict.close();
      }
      // A pinned download refuses a redirect as fetch's redirect: 'error' does.
      const redirecting = await wasmhooks
        .loadPlugin({ url: `http://rebind.test:${registry.port}/moved.wasm`, sha256, address: '127.0.0.1' })
        .then(() => assert.fail('loaded'), (e: Error & { code?: string }) => e);
      assert.equal(redirecting.code, 'LOAD_FAILED', redirecting.message);
      assert.match(redirecting.message, /redirect/);
      assert.equal(victim.seen.length, 1);
      assert.equal(victim.seen[0]?.host, `rebind.test:${registry.port}`);
      // A pinned download is read capped, as fetch's is: an endless body fails the load at the limit.
      const endless = await wasmhooks
        .loadPlugin({ url: `http://rebind.test:${registry.port}/endless.wasm`, sha256, address: '127.0.0.2' })
        .then(() => assert.fail('loaded'), (e: Error & { code?: string }) => e);
      assert.equal(endless.code, 'LOAD_FAILED', endless.message);
      assert.match(endless.message, /above the \d+-byte limit/);
    } finally {
      await server.close();
      await registry.close();
      await victim.close();
    }
  },

  [`${runtime}: MCP over HTTP: a tools/call with an unknown argument is isError "Unrecognized key"; a host without the relay model says so`]: async () => {
    const calc = await wasmhooks.loadPlugin({ path: new URL('../../plugins/calc/build/calc.wasm', import.meta.url).pathname });
    const relay = wasmhooks.createHost({ model: relayModel(), plugins: [calc], permissionMode: 'bypassPermissions' });
    const call = async (host: Parameters<typeof mcpHttpApp>[0], args: unknown) => {
      const served = await mcpHttpApp(host, { port: 0 }).listen();
      try {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'calc', arguments: args } });
        const res = await rawRequest(served.port, post('/mcp', body, ['Host: 127.0.0.1', 'Content-Type: application/json', 'Accept: application/json, text/event-stream']), 10_000);
        assert.equal(res.status, 200, res.head + res.body);
        return (JSON.parse(res.body) as { result: { content: { text: string }[]; isError: boolean } }).result;
      } finally {
        await served.close();
      }
    };
    try {
      assert.deepEqual(await call(relay, { expression: '1+2' }), { content: [{ type: 'text', text: '3' }], isError: false });
      const extra = await call(relay, { expression: '1+2', extra: 1 });
      assert.equal(extra.isError, true);
      assert.match(extra.content[0]?.text ?? '', /invalid input for calc: .*Unrecognized key: "extra"/);
      // The same call to a host whose model answers in words (red6 saw "did not run (success)" here).
      const scripted = wasmhooks.createHost({ model: wasmhooks.scriptedModel({ rules: [{ when: () => true, reply: { text: 'Hello.' } }] }), plugins: [calc], permissionMode: 'bypassPermissions' });
      const words = await call(scripted, { expression: '1+2', extra: 1 });
      assert.equal(words.isError, true);
      assert.match(words.content[0]?.text ?? '', /did not make it .*relayModel\(\)/);
    } finally {
      await calc.close();
    }
  },

  [`${runtime}: HEAD answers the headers GET does (security headers and CORS, on every route, errors and 401 included)`]: async () => {
    const names = ['x-frame-options', 'x-content-type-options', 'cross-origin-resource-policy', 'referrer-policy', 'content-security-policy', 'access-control-allow-origin', 'www-authenticate'];
    const token = 'a-token-of-sixteen-chars';
    // The plain server (no CORS: node-server dropped the headers there), and one with a token and CORS.
    for (const options of [{}, { token, corsOrigins: ['http://ui.test'] }]) {
      await withServer(options, async (port) => {
        for (const [path, auth] of [['/health', true], ['/session', true], ['/nope', true], ['/session', false], ['/', false]] as const) {
          const headers = ['Host: 127.0.0.1', ...('token' in options ? ['Origin: http://ui.test'] : []), ...(auth && 'token' in options ? [`Authorization: Bearer ${token}`] : [])];
          const viaGet = await rawRequest(port, get(path, headers));
          const viaHead = await rawRequest(port, get(path, headers).replace(/^GET/, 'HEAD'));
          const what = `${JSON.stringify(options)} ${path}`;
          assert.equal(viaHead.status, viaGet.status, `${what}: ${viaHead.head}`);
          assert.equal(viaHead.body, '', `${what}: a HEAD answer has no body`);
          for (const name of names) assert.equal(header(viaHead.head, name), header(viaGet.head, name), `${what} ${name}:\n${viaHead.head}\n--- GET:\n${viaGet.head}`);
          assert.equal(header(viaHead.head, 'x-frame-options'), 'DENY', `${what}: ${viaHead.head}`);
        }
      });
    }
  },

  [`${runtime}: connections are bounded: Node caps them (maxConnections), Bun closes an idle keep-alive (idleTimeoutMs), SSE and slow answers are not cut`]: () =>
    withServer({ maxConnections: 3, idleTimeoutMs: 1000, heartbeatMs: 60_000 }, async (port) => {
      /** A socket and when the server closed it (undefined: open). */
      const open = (send?: string) => {
        const socket = net.connect(port, '127.0.0.1');
        const state = { socket, closedAfter: undefined as number | undefined, data: '' };
        const started = Date.now();
        socket.on('connect', () => send && socket.write(send));
        socket.on('data', (d) => (state.data += d.toString('latin1')));
        socket.on('close', () => (state.closedAfter = Date.now() - started));
        socket.on('error', () => {});
        return state;
      };
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const sse = open('GET /event HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n');
      const keepAlive = open('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      const idle = open();
      await sleep(300);
      assert.match(sse.data, /^HTTP\/1\.1 200/, sse.data);
      assert.match(keepAlive.data, /^HTTP\/1\.1 200/, keepAlive.data);
      const extra = open();
      await sleep(2500);
      if (runtime === 'node') {
        // The fourth connection was closed as it was accepted, unanswered; the three others were not (Node's own keep-alive: 5 s).
        assert.ok(extra.closedAfter !== undefined && extra.closedAfter < 1000, `extra: ${extra.closedAfter}`);
        assert.equal(extra.data, '');
        assert.equal(keepAlive.closedAfter, undefined);
      }
      if (runtime === 'bun') {
        // Idle after its answer for idleTimeoutMs (1 s; Bun's timers tick every 4 s): closed. Before: held forever.
        for (let waited = 0; keepAlive.closedAfter === undefined && waited < 8000; waited += 100) await sleep(100);
        assert.ok(keepAlive.closedAfter !== undefined && keepAlive.closedAfter < 9000, `keep-alive: ${keepAlive.closedAfter}`);
      }
      // Every runtime: the SSE stream (silent for 2.5 s, no heartbeat yet) is still open.
      assert.equal(sse.closedAfter, undefined, `the SSE stream was closed after ${sse.closedAfter} ms`);
      for (const s of [sse, keepAlive, idle, extra]) s.socket.destroy();
      await sleep(200);
      // Room again: a request is answered.
      const after = await rawRequest(port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      assert.equal(after.status, 200, after.head);
    }),

  [`${runtime}: a session's conversation is bounded (the host's maxMessages): prompts to a full session end with CONVERSATION_TOO_LARGE and add nothing, others still run`]: async () => {
    const model = wasmhooks.scriptedModel({ rules: [{ when: () => true, reply: { text: 'Hello.' } }] });
    const server = createServer(wasmhooks.createHost({ model, maxMessages: 4 }), { port: 0 });
    const { port } = await server.listen();
    const url = `http://127.0.0.1:${port}`;
    const idle = async (id: string) => {
      for (let i = 0; i < 200; i++) {
        const view = (await (await fetch(`${url}/session/${id}`)).json()) as { running: boolean };
        if (!view.running) return;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.fail('the prompt did not end');
    };
    const count = async (id: string) => ((await (await fetch(`${url}/session/${id}/messages`)).json()) as { messages: unknown[] }).messages.length;
    try {
      const id = (await postJson(`${url}/session`, {})).json.id as string;
      for (let i = 0; i < 2; i++) {
        assert.equal((await postJson(`${url}/session/${id}/prompt`, { prompt: `hello ${i}` })).status, 202);
        await idle(id);
      }
      assert.equal(await count(id), 4);
      // A client that keeps prompting a full session grows nothing: each prompt is refused before it is added.
      for (let i = 0; i < 3; i++) {
        assert.equal((await postJson(`${url}/session/${id}/prompt`, { prompt: `one more ${i}` })).status, 202);
        await idle(id);
        const view = (await (await fetch(`${url}/session/${id}`)).json()) as { lastResult?: { error?: { code: string } } };
        assert.equal(view.lastResult?.error?.code, 'CONVERSATION_TOO_LARGE');
      }
      assert.equal(await count(id), 4);
      const fresh = (await postJson(`${url}/session`, {})).json.id as string;
      assert.equal((await postJson(`${url}/session/${fresh}/prompt`, { prompt: 'hi' })).status, 202);
      await idle(fresh);
      assert.equal(await count(fresh), 2);
    } finally {
      await server.close();
    }
  },

  [`${runtime}: a request target in absolute form must name the Host it carries (the checks read Host, the runtimes route by the target)`]: () =>
    withServer({}, async (port) => {
      const send = (target: string, host: string) =>
        rawRequest(port, `POST ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
      for (const [target, host] of [
        ['http://evil.test/session', '127.0.0.1'],
        [`http://evil.test:${port}/session`, `127.0.0.1:${port}`],
        [`http://127.0.0.1:1/session`, `127.0.0.1:${port}`],
      ] as const) {
        const res = await send(target, host);
        if (runtime === 'bun') {
          // Bun drops the target's authority and builds the URL from Host and the path: nothing disagrees to check.
          assert.equal(res.status, 201, `${target} with Host ${host}: ${res.head}${res.body}`);
          continue;
        }
        // Before: 201 on Node and Deno, the checks having read Host and the URL saying evil.test.
        assert.equal(res.status, 400, `${target} with Host ${host}: ${res.head}${res.body}`);
        assert.match(res.body, /not a proxy/);
        assert.match(res.head, /connection: close/i);
      }
      // The same authority in both (any case, the default port spelled or not), or a path: served.
      for (const [target, host] of [
        [`http://127.0.0.1:${port}/session`, `127.0.0.1:${port}`],
        [`http://LOCALHOST:${port}/session`, `localhost:${port}`],
        ['/session', `127.0.0.1:${port}`],
      ] as const) {
        const res = await send(target, host);
        assert.equal(res.status, 201, `${target} with Host ${host}: ${res.head}${res.body}`);
      }
    }),

  [`${runtime}: the stateless MCP endpoint answers GET and DELETE with 405 at once (a GET stream was held open for ever, uncounted)`]: async () => {
    const served = await mcpHttpApp(makeHost(), { port: 0 }).listen();
    try {
      for (const method of ['GET', 'DELETE', 'PUT']) {
        const started = Date.now();
        const res = await rawRequest(served.port, `${method} /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\n\r\n`, 3000);
        assert.equal(res.status, 405, `${method}: ${res.head}`);
        assert.match(res.head, /^allow: POST/im);
        assert.match(res.body, /stateless/);
        assert.ok(Date.now() - started < 2000, `${method} took ${Date.now() - started} ms`);
      }
      // POST still works.
      const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      const ok = await rawRequest(served.port, post('/mcp', list, ['Host: 127.0.0.1', 'Content-Type: application/json', 'Accept: application/json, text/event-stream']));
      assert.equal(ok.status, 200, ok.head);
    } finally {
      await served.close();
    }
  },
};
