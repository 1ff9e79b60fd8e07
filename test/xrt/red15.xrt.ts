// Hostile review red15 of the HTTP control plane on Node, Deno and Bun, through each runtime's own
// serve adapter and raw sockets. Vitest twin that fails on the old code: test/server/red15.test.ts.
import assert from 'node:assert/strict';
import net from 'node:net';
import { createServer, runtimeName, serve } from '../../dist/server.js';
import { rawRequest } from './raw-http.ts';
import { makeHost, writingHost } from './red6-helpers.ts';

const runtime = runtimeName();
const TOKEN = 'red15-token-0123456789';
const AUTH = `Authorization: Bearer ${TOKEN}`;
const HEALTH = `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\n\r\n`;
const jsonPost = (path: string, body: string, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`;
const statuses = (raw: string) => [...raw.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));

type Server = ReturnType<typeof createServer>;

async function withTokenServer(host: Parameters<typeof createServer>[0], run: (port: number, server: Server) => Promise<void>): Promise<void> {
  const server = createServer(host, { port: 0, token: TOKEN });
  const { port } = await server.listen();
  try {
    await run(port, server);
  } finally {
    await server.close();
  }
}

async function api(port: number, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return (await res.json()) as Record<string, unknown>;
}

const sessionCount = async (port: number) => ((await api(port, 'GET', '/session')).sessions as unknown[]).length;

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: a request sent with Connection: close and more bytes after it gets its own answer; what follows is not served`]: () =>
    withTokenServer(makeHost(), async (port) => {
      const answer = await rawRequest(port, jsonPost('/session', '{}', 'Connection: close\r\n') + jsonPost('/session', '{}'));
      assert.deepEqual(statuses(answer.head + answer.body), [201], answer.head + answer.body);
      assert.equal(await sessionCount(port), 1);
    }),

  [`${runtime}: junk, or a CONNECT, pipelined after a keep-alive request: the request's answer first, then the refusal`]: () =>
    withTokenServer(makeHost(), async (port) => {
      for (const [n, junk] of ['GARBAGE\x01\r\n\r\n', 'CONNECT evil.test:443 HTTP/1.1\r\nHost: evil.test:443\r\n\r\n'].entries()) {
        const answer = await rawRequest(port, jsonPost('/session', '{}') + junk);
        const got = statuses(`${answer.head}\r\n\r\n${answer.body}`);
        assert.equal(got[0], 201, answer.head);
        // The refusal is each runtime's own (junk: Node and Deno 400, Bun 505; CONNECT: Node 405, Deno 403, Bun 400);
        // none answers in the request's place.
        assert.equal(got.length, 2, answer.body);
        assert.ok((got[1] as number) >= 400, answer.body);
        assert.equal(await sessionCount(port), n + 1);
      }
    }),

  [`${runtime}: junk after two pipelined requests: both answers first, then the refusal`]: () =>
    withTokenServer(makeHost(), async (port) => {
      const answer = await rawRequest(port, jsonPost('/session', '{}') + jsonPost('/session', '{}') + 'GARBAGE\x01\r\n\r\n');
      const got = statuses(`${answer.head}\r\n\r\n${answer.body}`);
      assert.deepEqual(got.slice(0, 2), [201, 201], answer.head);
      assert.equal(got.length, 3, answer.body);
      assert.equal(await sessionCount(port), 2);
    }),

  [`${runtime}: a chunked body whose trailer section holds a request line is refused at once, and that request is not served`]: async () => {
    const server = createServer(makeHost(), { port: 0, token: TOKEN, bodyTimeoutMs: 20_000 });
    const { port } = await server.listen();
    try {
      const started = Date.now();
      const chunked = `POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n`;
      const answer = await rawRequest(port, chunked + HEALTH, 10_000);
      const elapsed = Date.now() - started;
      // Node refuses the request (400); Deno closes without an answer; Bun serves the body, then answers the trailer 400.
      assert.ok(elapsed < 5000, `answered after ${elapsed} ms`);
      const got = statuses(answer.head + answer.body);
      assert.ok(!got.includes(200), `the request in the trailer section was served: ${got.join(',')}`);
      assert.ok(got.at(-1) === undefined || (got.at(-1) as number) >= 400, answer.head);
    } finally {
      await server.close();
    }
  },

  [`${runtime}: an approval pipelined with junk is answered {"resolved":true}, as it was applied`]: () =>
    withTokenServer(writingHost(), async (port) => {
      const id = (await api(port, 'POST', '/session', {})).id as string;
      await api(port, 'POST', `/session/${id}/prompt`, { prompt: 'write' });
      let request: { id: string } | undefined;
      for (let i = 0; i < 200 && request === undefined; i++) {
        request = ((await api(port, 'GET', `/session/${id}/control-requests`)).requests as { id: string }[])[0];
        if (request === undefined) await new Promise((r) => setTimeout(r, 10));
      }
      assert.ok(request, 'the Write asked for permission');
      const allow = JSON.stringify({ requestID: request.id, subtype: 'can_use_tool', response: { behavior: 'allow' } });
      const answer = await rawRequest(port, jsonPost(`/session/${id}/control-response`, allow) + '\x00junk\r\n\r\n' + HEALTH);
      const got = statuses(answer.head + answer.body);
      assert.equal(got[0], 200, answer.head);
      assert.ok(answer.body.startsWith('{"resolved":true}'), answer.body);
    }),

  [`${runtime}: a client that pipelines requests and reads nothing gets one answer built, not one per request`]: async () => {
    let calls = 0;
    const page = new Uint8Array(4 * 1024 * 1024).fill(0x61);
    const served = await serve(() => (calls++, new Response(page)), { hostname: '127.0.0.1', port: 0 });
    const socket = net.connect(served.port, '127.0.0.1');
    try {
      socket.pause();
      socket.write('GET /page HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(20));
      await new Promise((r) => setTimeout(r, 500));
      // Node ran all 20 at once and held 20 × 4 MiB until the client read (2.1 GB for 300 pages of messages).
      assert.equal(calls, 1);
      socket.resume();
      if (runtime === 'bun') {
        // Bun cuts a connection that has a request waiting behind an answer it cannot send (measured: the first
        // answer is cut too); nothing more is built.
        await new Promise((r) => setTimeout(r, 500));
        assert.equal(calls, 1);
      } else {
        for (let i = 0; i < 500 && calls < 20; i++) await new Promise((r) => setTimeout(r, 20));
        assert.equal(calls, 20, 'every request is served once the client reads');
      }
    } finally {
      socket.destroy();
      await served.close(0);
    }
  },

  [`${runtime}: 40 pipelined requests are answered in order; on Node the 34th, with 33 waiting before it, is 503 and closes`]: () =>
    withTokenServer(makeHost(), async (port) => {
      // A 41st request with Connection: close ends the exchange once every answer is out (Deno and Bun keep
      // the connection open after the 40th, and the read waited out its whole 5 s); Node's 503 comes first.
      const answer = await rawRequest(port, HEALTH.repeat(40) + HEALTH.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'), 5000);
      const text = `${answer.head}\r\n\r\n${answer.body}`;
      const got = statuses(text);
      if (runtime === 'node') {
        assert.deepEqual(got, [...Array.from({ length: 33 }, () => 200), 503]);
        assert.ok(text.includes('"code":"unavailable"'), text.slice(-400));
      } else {
        // Deno and Bun read a connection's next request once the answer before it is written: nothing piles up.
        assert.deepEqual(got, Array.from({ length: 41 }, () => 200));
      }
    }),
};
