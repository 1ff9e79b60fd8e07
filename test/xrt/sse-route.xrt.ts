// The SSE fast route (`GET /event`, `GET /global/event` answered ahead of the
// app's middleware chain) on each runtime: for every request of a matrix of
// configurations, paths, queries and hostile headers (foreign Host, cross-site
// Origin, another site embedding the stream (Sec-Fetch-*), missing or wrong
// token, bad session ids, bad Last-Event-ID), the
// server's own handler answers exactly what the app's chain answers: status,
// headers (the security headers included), JSON error, and for a stream the
// same first frames, with one hub
// client while it is open and none for a refusal. Then the same refusals
// through this runtime's serve adapter on real sockets.
import assert from 'node:assert/strict';
import * as wasmhooks from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { get, openSse, rawRequest } from './raw-http.ts';

const runtime = runtimeName();
const TOKEN = 'sse-route-token-0123456789';
type Server = ReturnType<typeof createServer>;

const newServer = (options: Record<string, unknown>): Server =>
  createServer(wasmhooks.createHost({ model: wasmhooks.scriptedModel({ turns: [{ text: 'hi' }] }) }), { port: 0, heartbeatMs: 60_000, ...options });

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** What a response says, with the parts that differ between two answers made a moment apart (times) blanked. */
async function answer(response: Response, server: Server): Promise<string> {
  const all: [string, string][] = [];
  response.headers.forEach((value, name) => all.push([name, value]));
  const headers = all.filter(([name]) => name !== 'date').sort(([a], [b]) => a.localeCompare(b));
  let body: string;
  if (response.status === 200 && response.body) {
    // A stream: its first frames (retry, server.connected), then it is cancelled and the hub lets it go.
    assert.equal(server.hub.clientCount, 1, 'an open stream is one hub client');
    const reader = response.body.getReader();
    body = '';
    const decoder = new TextDecoder();
    while (!body.includes('server.connected')) {
      const { value, done } = await reader.read();
      if (done) break;
      body += decoder.decode(value);
    }
    await reader.cancel();
    await until(() => server.hub.clientCount === 0);
  } else {
    body = await response.text();
    assert.equal(server.hub.clientCount, 0, `a refused request opened no stream: ${body}`);
  }
  return JSON.stringify({ status: response.status, headers, body: body.replace(/"time":\d+/g, '"time":0') });
}

const CONFIGS: Record<string, Record<string, unknown>> = {
  default: {},
  token: { token: TOKEN },
  'token + allowedHosts': { token: TOKEN, allowedHosts: ['app.example'] },
  'off loopback with a token': { hostname: '0.0.0.0', token: TOKEN },
  cors: { corsOrigins: ['http://app.example'], token: TOKEN },
  'reference format': { globalEventFormat: 'reference' },
};

const PATHS = [
  '/event',
  '/global/event',
  '/global/event?format=reference',
  '/global/event?format=wasmhooks',
  '/global/event?format=nope',
  '/event?session=ses_1',
  '/event?session=bad%20id',
  '/event?session=a+b',
  '/event?session=' + 'x'.repeat(200),
  '/event?session=ok&session=bad!',
  '/event?lastEventId=zzz',
  '/event?lastEventId=123',
  '/event?lastEventId=',
  '/event/',
  '/Event',
  '/%65vent',
  '/global//event',
];

const auth = { authorization: `Bearer ${TOKEN}` };
const HEADERS: Record<string, string>[] = [
  {},
  auth,
  { authorization: 'Bearer wrong-token-0123456789xx' },
  { authorization: `bearer    ${TOKEN}  ` },
  { authorization: TOKEN },
  { ...auth, host: 'evil.example' },
  { ...auth, host: 'app.example:8080' },
  { ...auth, host: 'localhost:4096' },
  { ...auth, host: 'bad host' },
  { ...auth, host: '127.0.0.1:0' },
  { ...auth, origin: 'http://evil.example' },
  { ...auth, origin: 'null' },
  { ...auth, origin: 'http://app.example' },
  { ...auth, host: '127.0.0.1', origin: 'http://127.0.0.1' },
  { ...auth, 'last-event-id': 'not an id' },
  { ...auth, 'last-event-id': '0' },
  { host: 'evil.example' },
  { origin: 'http://evil.example' },
  { ...auth, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
  { ...auth, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
  { ...auth, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
  { ...auth, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
  { ...auth, 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' },
];

export const scenarios = {
  [`${runtime}: the SSE fast route answers every request of the matrix as the app's middleware chain does`]: async () => {
    let compared = 0;
    for (const [name, options] of Object.entries(CONFIGS)) {
      const server = newServer(options);
      try {
        for (const path of PATHS) {
          for (const headers of HEADERS) {
            for (const method of ['GET', 'HEAD']) {
              const request = () => new Request(`http://127.0.0.1${path}`, { method, headers });
              const viaApp = await answer(await server.app.fetch(request()), server);
              const fast = await answer(await server.fetch(request()), server);
              assert.equal(fast, viaApp, `${name}: ${method} ${path} ${JSON.stringify(headers)}`);
              compared++;
            }
          }
        }
      } finally {
        await server.close();
      }
    }
    assert.equal(compared, Object.keys(CONFIGS).length * PATHS.length * HEADERS.length * 2);
  },

  [`${runtime}: on real sockets the SSE route refuses cross-site, rebinding and unauthenticated requests as before, and opens nothing for them`]: async () => {
    const server = newServer({ token: TOKEN });
    const { port } = await server.listen();
    try {
      const refused: [string[], number, string][] = [
        [['Host: 127.0.0.1'], 401, 'unauthorized'],
        [['Host: 127.0.0.1', 'Authorization: Bearer wrong-token-0123456789xx'], 401, 'unauthorized'],
        [['Host: evil.example', `Authorization: Bearer ${TOKEN}`], 403, 'forbidden'],
        [['Host: 127.0.0.1', 'Origin: http://evil.example', `Authorization: Bearer ${TOKEN}`], 403, 'forbidden'],
        [['Host: 127.0.0.1', 'Origin: null', `Authorization: Bearer ${TOKEN}`], 403, 'forbidden'],
        [['Host: 127.0.0.1', `Authorization: Bearer ${TOKEN}`, 'Last-Event-ID: not an id'], 400, 'validation'],
        [['Host: 127.0.0.1', `Authorization: Bearer ${TOKEN}`, 'Sec-Fetch-Site: cross-site', 'Sec-Fetch-Mode: no-cors', 'Sec-Fetch-Dest: script'], 403, 'forbidden'],
      ];
      for (const path of ['/event', '/global/event']) {
        for (const [headers, status, code] of refused) {
          const res = await rawRequest(port, get(path, headers));
          assert.equal(res.status, status, `${path} ${headers.join(', ')}: ${res.head}`);
          assert.equal(JSON.parse(res.body).error.code, code);
          if (status === 401) assert.match(res.head, /www-authenticate: Bearer/i);
          assert.match(res.head, /x-frame-options: DENY/i);
          assert.equal(server.hub.clientCount, 0);
          // The same answer the app's chain gives.
          const viaApp = await server.app.fetch(
            new Request(`http://127.0.0.1${path}`, { headers: Object.fromEntries(headers.map((h) => h.split(': ') as [string, string])) }),
          );
          assert.equal(viaApp.status, status);
          assert.deepEqual(JSON.parse(res.body), await viaApp.json());
        }
      }
      // The stream itself, with its headers, to an authorized same-site reader.
      const stream = openSse(port, '/event', [`Authorization: Bearer ${TOKEN}`, 'Origin: http://127.0.0.1']);
      await stream.opened;
      await until(() => server.hub.clientCount === 1);
      server.hub.publish({ type: 'text.delta', sessionId: 's', seq: 7, time: 0, text: 'x' });
      const head = (await rawRequest(port, `GET /event HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`, 300)).head;
      assert.match(head, /^HTTP\/1\.1 200/);
      assert.match(head, /content-type: text\/event-stream; charset=utf-8/i);
      assert.match(head, /cache-control: no-cache, no-transform/i);
      assert.match(head, /x-accel-buffering: no/i);
      assert.match(head, /x-content-type-options: nosniff/i);
      assert.match(head, /x-frame-options: DENY/i);
      assert.match(head, /content-security-policy: frame-ancestors 'none'/i);
      await server.close();
      const { data, ended } = await stream.done;
      assert.ok(data.some((d) => d.includes('"seq":7')), data.join('\n'));
      assert.ok(data.at(-1)?.includes('server.closing'), data.join('\n'));
      assert.ok(ended, 'shutdown ends the stream cleanly');
    } finally {
      await server.close();
    }
  },
};
