// The HTTP hardening of issue 19 on each runtime, through its own serve
// adapter and raw sockets: Host/Origin/content-type guards, malformed Host,
// refusals before the app, deep JSON, slow SSE readers, shutdown, the
// reference envelope and elicitation. Where a runtime answers by itself
// (below our handler) the expectation says so; docs/http-api.md lists it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { z } from 'zod';
import * as wasmhooks from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { get, openSse, rawRequest, stalledReader } from './raw-http.ts';

const runtime = runtimeName();
type Server = ReturnType<typeof createServer>;

function makeHost(ask: { elicit?: Server['elicit'] }) {
  const model = wasmhooks.scriptedModel({
    rules: [
      { when: { lastToolName: 'Write' }, reply: { text: 'Written.' } },
      { when: { lastToolName: 'Ask' }, reply: { text: 'Thanks.' } },
      { when: { lastUser: 'write' }, reply: { toolCalls: [{ name: 'Write', input: { name: 'a.txt' } }] } },
      { when: { lastUser: 'ask' }, reply: { toolCalls: [{ name: 'Ask', input: {} }] } },
      { when: () => true, reply: { text: 'Hello.' } },
    ],
  });
  const write = wasmhooks.tool('Write', 'Write a file', z.object({ name: z.string() }), ({ name }) => `wrote ${name}`);
  const askTool = wasmhooks.tool('Ask', 'Ask the user', z.object({}), async (_input, ctx) => {
    const answer = await ask.elicit!(ctx.sessionId, { message: 'Name?', schema: { type: 'object', properties: { name: { type: 'string' } } } });
    return JSON.stringify(answer);
  });
  return wasmhooks.createHost({ model, tools: [write, askTool], allowedTools: ['Ask'] });
}

async function withServer(options: Record<string, unknown>, run: (port: number, server: Server) => Promise<void>): Promise<void> {
  const ask: { elicit?: Server['elicit'] } = {};
  const server = createServer(makeHost(ask), { port: 0, ...options });
  ask.elicit = server.elicit;
  const { port } = await server.listen();
  try {
    await run(port, server);
  } finally {
    await server.close();
  }
}

const post = (path: string, body: string, headers: string[] = ['Host: 127.0.0.1', 'Content-Type: application/json']) =>
  `POST ${path} HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join('')}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;

const errorOf = (body: string) => (JSON.parse(body) as { error: { code: string; message: string } }).error;

async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function pendingWrite(port: number, server: Server): Promise<{ id: string; requestID: string }> {
  const id = JSON.parse((await rawRequest(port, post('/session', '{}'))).body).id as string;
  assert.equal((await rawRequest(port, post(`/session/${id}/prompt`, '{"prompt":"write it"}'))).status, 202);
  await until(() => server.broker.pending(id).length === 1);
  return { id, requestID: server.broker.pending(id)[0]!.id };
}

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: a rebound page (foreign Host) cannot list sessions or approve a Write; cross-site requests are refused`]: () =>
    withServer({}, async (port, server) => {
      const { id, requestID } = await pendingWrite(port, server);
      const allow = JSON.stringify({ requestID, subtype: 'can_use_tool', response: { behavior: 'allow' } });
      const foreign = await rawRequest(port, post(`/session/${id}/control-response`, allow, ['Host: attacker.example:4096', 'Content-Type: application/json']));
      assert.equal(foreign.status, 403);
      assert.equal((await rawRequest(port, get('/session', ['Host: attacker.example:4096']))).status, 403);
      const evil = await rawRequest(port, post(`/session/${id}/control-response`, allow, ['Host: 127.0.0.1', 'Origin: http://evil.example', 'Content-Type: application/json']));
      assert.equal(evil.status, 403);
      const simple = await rawRequest(port, post(`/session/${id}/control-response`, allow, ['Host: 127.0.0.1', 'Content-Type: text/plain']));
      assert.equal(simple.status, 415);
      assert.equal((await rawRequest(port, post(`/session/${id}/abort`, '', ['Host: 127.0.0.1']))).status, 415);
      assert.equal(server.broker.pending(id).length, 1);
      assert.equal((await rawRequest(port, get('/session', [`Host: localhost:${port}`]))).status, 200);
      const same = await rawRequest(port, post(`/session/${id}/control-response`, allow, [`Host: 127.0.0.1:${port}`, `Origin: http://127.0.0.1:${port}`, 'Content-Type: application/json']));
      assert.deepEqual(JSON.parse(same.body), { resolved: true });
    }),

  [`${runtime}: a missing, empty or malformed Host is a 4xx JSON answer, never a 500`]: () =>
    withServer({}, async (port) => {
      for (const host of ['a b', '127.0.0.1:99999', '%zz', '[::1']) {
        for (const path of ['/health', '/nowhere']) {
          const answer = await rawRequest(port, get(path, [`Host: ${host}`]));
          assert.equal(answer.status, 400, `${host} ${path}: ${answer.head}`);
          assert.equal(errorOf(answer.body).code, 'bad_request');
        }
      }
      const http10 = await rawRequest(port, 'GET /health HTTP/1.0\r\n\r\n');
      assert.equal(http10.status, 200, http10.head);
      assert.equal(JSON.parse(http10.body).ok, true);
      assert.equal((await rawRequest(port, get('/health', ['Host: ']))).status, 200);
      assert.equal(errorOf((await rawRequest(port, 'GET /nowhere HTTP/1.0\r\n\r\n')).body).code, 'not_found');
    }),

  [`${runtime}: requests refused before the app get the JSON error shape where the runtime lets us`]: () =>
    withServer({}, async (port) => {
      // [name, request, status on node, deno, bun]; 'raw' = the runtime's own bare answer, 0 = connection closed.
      const cases: [string, string, Record<typeof runtime, number | 'raw'>][] = [
        ['20 KB URL', get(`/${'a'.repeat(20_000)}`), { node: 431, deno: 414, bun: 'raw' }],
        ['unknown method', 'FOO /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', { node: 400, deno: 404, bun: 'raw' }],
        ['control byte in a header', get('/health', ['Host: 127.0.0.1', 'X-A: a\x01b']), { node: 400, deno: 'raw', bun: 'raw' }],
        ['raw non-ASCII path', get('/s\xe9ssion'), { node: 400, deno: 'raw', bun: 404 }],
        ['backslash in the path', get('/\\session'), { node: 400, deno: 404, bun: 404 }],
      ];
      for (const [name, raw, expected] of cases) {
        const answer = await rawRequest(port, raw);
        const want = expected[runtime];
        assert.ok(answer.status < 500, `${name}: ${answer.head}`);
        if (want === 'raw') continue;
        assert.equal(answer.status, want, `${name}: ${answer.head}`);
        assert.match(errorOf(answer.body).message, /./, name);
      }
    }),

  [`${runtime}: a 20,000-deep control answer is refused (400), the question stays, and the server stays fast`]: () =>
    withServer({}, async (port, server) => {
      const { id, requestID } = await pendingWrite(port, server);
      const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
      const body = `{"requestID":"${requestID}","subtype":"can_use_tool","response":{"behavior":"allow","updatedInput":{"x":${deep}}}}`;
      const answer = await rawRequest(port, post(`/session/${id}/control-response`, body));
      assert.equal(answer.status, 400);
      assert.equal(errorOf(answer.body).code, 'invalid_json');
      const started = performance.now();
      const pending = await rawRequest(port, get(`/session/${id}/control-requests`));
      assert.equal(pending.status, 200);
      assert.equal(JSON.parse(pending.body).requests.length, 1);
      assert.ok(performance.now() - started < 500, `control-requests took ${performance.now() - started} ms`);
      const replay = openSse(port, '/event', ['Last-Event-ID: 0']);
      await replay.opened;
      await server.close();
      const { data } = await replay.done;
      assert.ok(data.some((d) => d.includes('"control.request"')));
    }),

  [`${runtime}: a paused SSE reader is dropped by the hub (and its connection cut where the runtime allows)`]: () =>
    withServer({ clientQueueBytes: 256 * 1024 }, async (port, server) => {
      const stalled = await stalledReader(port, '/event');
      const reading = openSse(port, '/event');
      await reading.opened;
      await until(() => server.hub.clientCount === 2);
      const text = 'x'.repeat(8 * 1024);
      for (let n = 0; n < 5000 && server.hub.clientCount === 2; n++) {
        server.hub.publish({ type: 'text.delta', sessionId: 's', seq: n, time: 0, text });
        if (n % 4 === 3) await new Promise((r) => setTimeout(r, 1));
      }
      assert.equal(server.hub.clientCount, 1, 'the paused reader was dropped, the reading one kept');
      stalled.socket.resume();
      if (runtime === 'node') await until(() => stalled.closed());
      // Deno and Bun give no handle on the connection: the stream is errored and its queue freed, and the runtime
      // keeps the socket (its fd and what the kernel holds) until the peer reads or leaves (next scenario).
      stalled.socket.destroy();
    }),

  [`${runtime}: a dropped SSE reader's body is cut, not ended, and its connection closes once the peer reads`]: () =>
    withServer({ clientQueueBytes: 256 * 1024 }, async (port, server) => {
      const stalled = await stalledReader(port, '/event');
      await until(() => server.hub.clientCount === 1);
      const text = 'x'.repeat(8 * 1024);
      for (let n = 0; n < 5000 && server.hub.clientCount === 1; n++) {
        server.hub.publish({ type: 'text.delta', sessionId: 's', seq: n, time: 0, text });
        if (n % 4 === 3) await new Promise((r) => setTimeout(r, 1));
      }
      assert.equal(server.hub.clientCount, 0, 'the paused reader was dropped');
      let tail = '';
      stalled.socket.on('data', (d: Buffer) => (tail = (tail + d.toString('latin1')).slice(-16)));
      // Node destroyed the socket at once; Deno and Bun close it once their pending write is taken.
      stalled.socket.resume();
      await until(() => stalled.closed(), 10_000);
      // No terminating chunk: the peer sees a cut stream (an EventSource reconnects with Last-Event-ID), never a clean end.
      assert.ok(!tail.endsWith('0\r\n\r\n'), `the body ended cleanly: ${JSON.stringify(tail)}`);
      stalled.socket.destroy();
    }),

  [`${runtime}: dropping a slow SSE reader prints nothing (expected behaviour, not an error: Bun printed each with a stack)`]: async () => {
    const child = new URL('./sse-drop-child.mjs', import.meta.url).pathname;
    const argv = runtime === 'deno' ? ['run', '-A', '--quiet', child] : [child];
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(process.execPath, argv, { timeout: 60_000 }, (error, out, err) => (error ? reject(error) : resolve({ stdout: out, stderr: err }))),
    );
    assert.equal(stdout.trim(), 'dropped');
    assert.doesNotMatch(stderr, /slow client|error/i, stderr);
  },

  [`${runtime}: shutdown delivers control.cancelled and server.closing to SSE clients, then ends the streams`]: () =>
    withServer({}, async (port, server) => {
      const { id } = await pendingWrite(port, server);
      const streams = [openSse(port, `/event?session=${id}`), openSse(port, '/global/event')];
      await Promise.all(streams.map((s) => s.opened));
      await until(() => server.hub.clientCount === 2);
      await server.close();
      for (const stream of streams) {
        const { data, ended } = await stream.done;
        const types = data.map((d) => JSON.parse(d)).map((e) => (e.event ?? e).type as string);
        assert.ok(types.includes('control.cancelled'), types.join(','));
        assert.equal(types.at(-1), 'server.closing');
        assert.ok(ended, 'the chunked body was terminated, not cut');
      }
    }),

  [`${runtime}: /global/event?format=reference speaks {sessionID, payload: {type, properties}}; elicitation round trip`]: () =>
    withServer({}, async (port, server) => {
      const stream = openSse(port, '/global/event?format=reference');
      await stream.opened;
      const id = JSON.parse((await rawRequest(port, post('/session', '{}'))).body).id as string;
      await rawRequest(port, post(`/session/${id}/prompt`, '{"prompt":"ask me"}'));
      await until(() => server.broker.pending(id).length === 1);
      const request = server.broker.pending(id)[0]!;
      assert.equal(request.subtype, 'elicitation');
      const answer = JSON.stringify({ requestID: request.id, subtype: 'elicitation', response: { action: 'accept', content: { name: 'Ada' } } });
      assert.deepEqual(JSON.parse((await rawRequest(port, post(`/session/${id}/control-response`, answer))).body), { resolved: true });
      await until(async () => (await server.sessions.get(id)).lastResult !== undefined);
      await server.close();
      const frames = (await stream.done).data.map((d) => JSON.parse(d));
      assert.deepEqual(frames[0].payload.type, 'server.connected');
      assert.ok('properties' in frames[0].payload && frames[0].sessionID === null);
      const output = frames.find((f) => f.payload.type === 'tool.output');
      assert.equal(output.sessionID, id);
      assert.equal(output.payload.properties.content, '{"action":"accept","content":{"name":"Ada"}}');
    }),
};
