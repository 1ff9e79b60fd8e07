// Hostile review red15 on real sockets (Node here; test/xrt/red15.xrt.ts runs the same on Deno and Bun).
// Bytes that do not parse, sent after a request that does (pipelined, or after `Connection: close`):
// Node's parser failed on them while the first request was still being served, and the server wrote
// its "400 malformed request" in the place of that request's answer and closed the socket, though the
// request ran (a session created, a tool approved). The client was told it failed.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { realHost } from './real-host.js';
import { rawRequest } from '../xrt/raw-http.js';
import { call, until } from './helpers.js';
import { serve } from '../../host/runtime/serve.js';
import net from 'node:net';

let server: WasmhooksServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOKEN = 'red15-token-0123456789';
const AUTH = `Authorization: Bearer ${TOKEN}`;
const HEALTH = `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\n\r\n`;
const jsonPost = (path: string, body: string, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`;
const statuses = (raw: string) => [...raw.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));

async function sessionCount(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/session`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return ((await res.json()) as { sessions: unknown[] }).sessions.length;
}

describe('red15: a request followed by bytes that do not parse', () => {
  it('after Connection: close, the request gets its own answer and what follows is not served', async () => {
    server = createServer(realHost(), { port: 0, token: TOKEN });
    const { port } = await server.listen();
    const answer = await rawRequest(port, jsonPost('/session', '{}', 'Connection: close\r\n') + jsonPost('/session', '{}'));
    // Old code: [400] "malformed request (HPE_CLOSED_CONNECTION)", and the session created all the same.
    expect(statuses(answer.head + answer.body)).toEqual([201]);
    expect(await sessionCount(port)).toBe(1);
  });

  it.each([
    ['a malformed request line', 'GARBAGE\x01\r\n\r\n', 400, 'bad_request'],
    ['headers past the limit', `GET / HTTP/1.1\r\nX: ${'a'.repeat(100_000)}\r\n\r\n`, 431, 'headers_too_large'],
    ['a CONNECT', 'CONNECT evil.test:443 HTTP/1.1\r\nHost: evil.test:443\r\n\r\n', 405, 'bad_request'],
  ])('pipelined after a keep-alive request, %s: the request gets its answer first, then the refusal', async (_, junk, status, code) => {
    server = createServer(realHost(), { port: 0, token: TOKEN });
    const { port } = await server.listen();
    const answer = await rawRequest(port, jsonPost('/session', '{}') + junk);
    const text = `${answer.head}\r\n\r\n${answer.body}`;
    expect(statuses(text)).toEqual([201, status]);
    expect(text).toContain(`"code":"${code}"`);
    expect(await sessionCount(port)).toBe(1);
  });

  it('junk after two pipelined requests waits for both answers', async () => {
    server = createServer(realHost(), { port: 0, token: TOKEN });
    const { port } = await server.listen();
    const answer = await rawRequest(port, jsonPost('/session', '{}') + jsonPost('/session', '{}') + 'GARBAGE\x01\r\n\r\n');
    expect(statuses(`${answer.head}\r\n\r\n${answer.body}`)).toEqual([201, 201, 400]);
    expect(await sessionCount(port)).toBe(2);
  });

  it('a chunked body whose trailer is no field is refused at once, not after bodyTimeoutMs', async () => {
    server = createServer(realHost(), { port: 0, token: TOKEN, bodyTimeoutMs: 20_000 });
    const { port } = await server.listen();
    const started = Date.now();
    const chunked = `POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n`;
    const answer = await rawRequest(port, chunked + HEALTH, 10_000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(statuses(answer.head)).toEqual([400]);
    expect(await sessionCount(port)).toBe(0);
  });

  it('an approval pipelined with junk is answered {"resolved":true}, as it was applied', async () => {
    server = createServer(realHost(), { port: 0, token: TOKEN });
    const { port } = await server.listen();
    const { json: session } = await call(server, 'POST', '/session', {}, { authorization: `Bearer ${TOKEN}` });
    const id = (session as { id: string }).id;
    await call(server, 'POST', `/session/${id}/prompt`, { prompt: 'tool' }, { authorization: `Bearer ${TOKEN}` });
    let request: { id: string } | undefined;
    await until(async () => {
      const { json } = await call(server!, 'GET', `/session/${id}/control-requests`, undefined, { authorization: `Bearer ${TOKEN}` });
      request = (json as { requests: { id: string }[] }).requests[0];
      return request !== undefined;
    });
    const allow = JSON.stringify({ requestID: request!.id, subtype: 'can_use_tool', response: { behavior: 'allow' } });
    const answer = await rawRequest(port, jsonPost(`/session/${id}/control-response`, allow) + '\x00junk\r\n\r\n' + HEALTH);
    // Old code: one 400 "malformed request", while the Write was approved and ran.
    expect(statuses(answer.head + answer.body)).toEqual([200, 400]);
    expect(answer.body).toContain('{"resolved":true}');
  });
});

describe('red15: pipelined requests are served one at a time', () => {
  it('a client that pipelines and reads nothing gets one answer built, not one per request', async () => {
    let calls = 0;
    const page = new Uint8Array(4 * 1024 * 1024).fill(0x61);
    const served = await serve(() => (calls++, new Response(page)), { hostname: '127.0.0.1', port: 0 });
    const socket = net.connect(served.port, '127.0.0.1');
    try {
      socket.pause();
      socket.write('GET /page HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(20));
      await new Promise((r) => setTimeout(r, 500));
      // Old code: 20 (Node ran every request at once and kept 20 × 4 MiB answers until the client read).
      expect(calls).toBe(1);
      socket.resume();
      await until(() => calls === 20, 10_000);
    } finally {
      socket.destroy();
      await served.close(0);
    }
  });

  it('past 32 requests waiting, the next is answered 503 unavailable with Connection: close, unrun', async () => {
    server = createServer(realHost(), { port: 0, token: TOKEN });
    const { port } = await server.listen();
    const answer = await rawRequest(port, HEALTH.repeat(40), 5000);
    const text = `${answer.head}\r\n\r\n${answer.body}`;
    expect(statuses(text)).toEqual([...Array.from({ length: 33 }, () => 200), 503]);
    expect(text).toContain('"code":"unavailable"');
    expect(text.slice(text.lastIndexOf('HTTP/1.1 503'))).toMatch(/connection: close/i);
  });
});
