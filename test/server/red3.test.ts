// Hostile review red3 of the HTTP control plane, sessions and the data
// directory: one describe per class of hole, each test written against the
// code before its fix (it failed there). Bodies and slow senders: red3-bodies.test.ts.
// Cross-runtime: test/xrt/server-red3.xrt.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { MemorySessionStore } from '../../host/store/memory.js';
import { asker, realHost } from './real-host.js';
import { call, until } from './helpers.js';

let server: WasmhooksServer;
afterEach(() => server?.close());

const LOCAL = { host: '127.0.0.1:4096' };
/** What a browser sends for an element of a page on another site pointing here. */
const embedded = (dest: string, site = 'cross-site') => ({ ...LOCAL, 'sec-fetch-site': site, 'sec-fetch-mode': dest === 'iframe' ? 'navigate' : 'no-cors', 'sec-fetch-dest': dest });

describe('1. cross-site embedding: framing the console (clickjacking an allow), no-cors reads', () => {
  it('refuses requests another site embeds (no Origin, Sec-Fetch-Site cross-site or same-site)', async () => {
    server = createServer(realHost());
    const { json: s } = await call(server, 'POST', '/session', {});
    for (const [path, headers] of [
      ['/', embedded('iframe')],
      ['/', embedded('iframe', 'same-site')],
      ['/session', embedded('script')],
      [`/session/${s.id}/control-requests`, embedded('image')],
      ['/event', embedded('empty')],
    ] as const) {
      const res = await server.app.request(path, { headers });
      expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/embedded by another site/);
    }
  });

  it('still serves the user: a link followed to the console, the console itself, non-browser clients, corsOrigins "*"', async () => {
    server = createServer(realHost());
    const navigate = { ...LOCAL, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    expect((await server.app.request('/', { headers: navigate })).status).toBe(200);
    expect((await server.app.request('/session', { headers: { ...LOCAL, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' } })).status).toBe(200);
    expect((await server.app.request('/session', { headers: { ...LOCAL, 'sec-fetch-site': 'none' } })).status).toBe(200);
    expect((await server.app.request('/session', { headers: LOCAL })).status).toBe(200);
    await server.close();
    server = createServer(realHost(), { corsOrigins: ['*'], token: 'a-token-of-enough-length' });
    expect((await server.app.request('/session', { headers: { ...embedded('script'), authorization: 'Bearer a-token-of-enough-length' } })).status).toBe(200);
  });

  it('forbids framing and sniffing on every response; the console runs only its own script', async () => {
    server = createServer(realHost());
    for (const [path, status] of [['/', 200], ['/session', 200], ['/nope', 404], ['/session/x', 404]] as const) {
      const res = await server.app.request(path, { headers: LOCAL });
      expect(res.status, path).toBe(status);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
      expect(res.headers.get('content-security-policy'), path).toMatch(/frame-ancestors 'none'/);
    }
    const forbidden = await server.app.request('/session', { headers: { host: 'attacker.example' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('x-frame-options')).toBe('DENY');
    const page = await server.app.request('/', { headers: LOCAL });
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/connect-src 'self'/);
    // The hash names the page's inline script exactly: nothing else (an injected script) may run.
    const script = /<script>([\s\S]*)<\/script>/.exec(await page.text())?.[1] ?? '';
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(script)));
    expect(csp).toContain(`script-src 'sha256-${btoa(String.fromCharCode(...digest))}'`);
    const sse = await server.app.request('/event', { headers: LOCAL });
    expect(sse.headers.get('x-frame-options')).toBe('DENY');
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await sse.body?.cancel();
  });
});

describe('3. an answer given on another replica gets the same verdict as on the one that asked', () => {
  it('a refused elicitation answer is a 400 naming the field on either replica, not "not-pending"', async () => {
    const store = new MemorySessionStore();
    const a = createServer(realHost(), { store, replica: 'a' });
    const b = createServer(realHost(), { store, replica: 'b' });
    server = a;
    try {
      await Promise.all([a.ready, b.ready]);
      asker.elicit = a.elicit;
      const { json: s } = await call(a, 'POST', '/session', {});
      await call(a, 'POST', `/session/${s.id}/prompt`, { prompt: 'ask me' });
      await until(async () => (await store.controls(s.id)).length === 1);
      const requestID = (await store.controls(s.id))[0]!.id;
      const missing = { requestID, subtype: 'elicitation', response: { action: 'accept', content: {} } };
      const onA = await call(a, 'POST', `/session/${s.id}/control-response`, missing);
      expect(onA.status).toBe(400);
      const onB = await call(b, 'POST', `/session/${s.id}/control-response`, missing);
      expect(onB.status).toBe(400);
      expect(onB.json.error).toEqual(onA.json.error);
      expect(a.broker.pending(s.id)).toHaveLength(1);
      const good = { ...missing, response: { action: 'accept', content: { file: 'notes.txt' } } };
      expect((await call(b, 'POST', `/session/${s.id}/control-response`, good)).json).toEqual({ resolved: true });
      // Once settled, a second answer from anywhere changes nothing.
      expect((await call(b, 'POST', `/session/${s.id}/control-response`, good)).json).toEqual({ resolved: false, reason: 'not-pending' });
    } finally {
      asker.elicit = undefined;
      await b.close();
    }
  });
});

describe('5. the Redis URL in messages (503 bodies reach HTTP clients) never carries its credentials', () => {
  it('leaves out user info (a password with "@" included) and the query (ioredis reads ?password=)', async () => {
    const { describeUrl, guarded } = await import('../../host/store/redis-client.js');
    for (const [url, shown] of [
      ['redis://:hunter2@db.internal:6379/2', 'redis://***@db.internal:6379/2'],
      ['redis://default:p@ss@hunter2@db.internal:6379', 'redis://***@db.internal:6379'],
      ['rediss://db.internal:6380/?password=hunter2&username=admin', 'rediss://db.internal:6380?…'],
      ['redis://db.internal', 'redis://db.internal'],
      ['redis://[::1]:7000/0', 'redis://[::1]:7000/0'],
    ] as const) {
      expect(describeUrl(url), url).toBe(shown);
    }
    const error = await guarded('redis://x:hunter2@h/?password=hunter2', () => Promise.reject(new Error('connect ECONNREFUSED'))).catch((e: Error) => e);
    expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect((error as Error).message).not.toMatch(/hunter2/);
  });
});

describe('6. options that would let every web page drive the agent', () => {
  it('refuses corsOrigins ["*"] or ["null"] without a token, at start-up, saying what to do', () => {
    expect(() => createServer(realHost(), { corsOrigins: ['*'] })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/corsOrigins \["\*"\] without a token.*list the origins/) }),
    );
    expect(() => createServer(realHost(), { corsOrigins: ['https://ui.example', '*'] })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    // "null" is what every sandboxed iframe sends, from any site: as open as "*".
    expect(() => createServer(realHost(), { corsOrigins: ['null'] })).toThrow(expect.objectContaining({ message: expect.stringMatching(/corsOrigins \["null"\] without a token/) }));
    server = createServer(realHost(), { corsOrigins: ['https://ui.example'] });
  });
});

describe('7. polled routes cost O(1) store reads', () => {
  it('GET /health counts sessions without reading each one and its pending questions', async () => {
    let reads = 0;
    class Counting extends MemorySessionStore {
      override async get(id: string) {
        reads++;
        return super.get(id);
      }
      override async list() {
        reads++;
        return super.list();
      }
      override async controls(id: string) {
        reads++;
        return super.controls(id);
      }
    }
    const store = new Counting();
    server = createServer(realHost(), { store });
    for (let i = 0; i < 50; i++) await call(server, 'POST', '/session', {});
    reads = 0;
    const res = await call(server, 'GET', '/health');
    expect(res.json).toMatchObject({ ok: true, sessions: 50 });
    expect(reads).toBe(0);
  });
});
