// Hostile review red3 of the HTTP control plane, sessions and the data
// directory: one describe per class of hole, each test written against the
// code before its fix (it failed there). Cross-runtime: test/xrt/server-red3.xrt.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { MemorySessionStore } from '../../host/store/memory.js';
import { asker, realHost } from './real-host.js';
import { call, until } from './helpers.js';
import { parseJson } from '../../host/json.js';

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

describe('2. bodies whose meaning depends on the reader: duplicate keys, bytes that are not UTF-8, other charsets', () => {
  /** A session with a pending can_use_tool question (the Write tool). */
  async function pendingWrite(s: WasmhooksServer): Promise<{ id: string; requestID: string }> {
    const { json } = await call(s, 'POST', '/session', {});
    await call(s, 'POST', `/session/${json.id}/prompt`, { prompt: 'tool please' });
    await until(() => s.broker.pending(json.id).length === 1);
    return { id: json.id, requestID: s.broker.pending(json.id)[0]!.id };
  }

  it('refuses a key named twice (JSON.parse would keep the last one, other readers the first)', async () => {
    server = createServer(realHost());
    const { id, requestID } = await pendingWrite(server);
    // A proxy that reads the first "subtype" sees an mcp_message (resolves nothing); JSON.parse sees the approval.
    const twice = `{"requestID":"${requestID}","subtype":"mcp_message","response":{"behavior":"allow"},"subtype":"can_use_tool"}`;
    const res = await call(server, 'POST', `/session/${id}/control-response`, twice);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'invalid_json', message: expect.stringMatching(/names the key "subtype" twice/) });
    // Nested, and spelled with an escape: still the same key.
    const nested = `{"requestID":"${requestID}","subtype":"can_use_tool","response":{"behavior":"allow","updatedInput":{"path":"a","\\u0070ath":"/etc/passwd"}}}`;
    expect((await call(server, 'POST', `/session/${id}/control-response`, nested)).json.error.message).toMatch(/"path" twice/);
    expect(server.broker.pending(id)).toHaveLength(1);
    // Equal keys in different objects, and a key equal to a value, are fine.
    const ok = `{"requestID":"${requestID}","subtype":"can_use_tool","response":{"behavior":"allow","updatedInput":{"path":"path","text":"hi","o":{"path":1},"a":[{"x":1},{"x":2}]}}}`;
    expect((await call(server, 'POST', `/session/${id}/control-response`, ok)).json).toEqual({ resolved: true });
  });

  it('refuses bodies that are not UTF-8, and charsets other than UTF-8, instead of reading them as something else', async () => {
    server = createServer(realHost());
    const { json: s } = await call(server, 'POST', '/session', {});
    const encode = (t: string) => new TextEncoder().encode(t);
    const notUtf8 = new Uint8Array([...encode('{"prompt":"a'), 0xff, 0xc3, ...encode('"}')]);
    const res = await server.app.request(`/session/${s.id}/prompt`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: notUtf8 });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_json', message: expect.stringMatching(/not valid UTF-8/) } });
    // A lone surrogate's bytes (CESU-8), an overlong "/" and a cut-off multi-byte character.
    for (const bytes of [[0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xe2, 0x82]]) {
      const body = new Uint8Array([...encode('{"prompt":"'), ...bytes, ...encode('"}')]);
      expect((await server.app.request(`/session/${s.id}/prompt`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status, String(bytes)).toBe(400);
    }
    const utf16 = await server.app.request('/session', { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-16le' }, body: '{}' });
    expect(utf16.status).toBe(415);
    expect(await utf16.json()).toMatchObject({ error: { message: expect.stringMatching(/charset "utf-16le" is not accepted/) } });
    for (const type of ['application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; charset=utf8']) {
      expect((await server.app.request('/session', { method: 'POST', headers: { 'content-type': type }, body: '{"title":"é ✓"}' })).status, type).toBe(201);
    }
    expect((await server.sessions.get(s.id)).prompts).toBe(0);
  });
});

describe('2b. the duplicate-key scan agrees with a recursive reference', () => {
  it('on 2,000 random texts with escapes, nesting, strings that look like keys and keys spelled twice', () => {
    let seed = 7;
    // mulberry32
    const rnd = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const names = ['a', 'b', '\\u0061', 'x\\"y', '{', ',', ''];
    const decode = (k: string) => JSON.parse(`"${k}"`) as string;
    // Builds a text and says whether some object in it names a key twice.
    const build = (depth: number): [string, boolean] => {
      const r = rnd(depth > 3 ? 3 : 6);
      if (r === 0) return [`"${names[rnd(names.length)]}"`, false];
      if (r === 1) return [String(rnd(100)), false];
      if (r === 2) return ['null', false];
      if (r === 3) {
        const parts = Array.from({ length: rnd(4) }, () => build(depth + 1));
        return [`[ ${parts.map((p) => p[0]).join(' , ')} ]`, parts.some((p) => p[1])];
      }
      const seen = new Set<string>();
      let dup = false;
      const members = Array.from({ length: rnd(4) }, () => {
        const key = names[rnd(names.length)] as string;
        if (seen.has(decode(key))) dup = true;
        seen.add(decode(key));
        const [value, inner] = build(depth + 1);
        dup ||= inner;
        return `"${key}" : ${value}`;
      });
      return [`{ ${members.join(', ')} }`, dup];
    };
    let dups = 0;
    for (let i = 0; i < 2000; i++) {
      const [text, dup] = build(0);
      const parsed = parseJson(text, 'text', { uniqueKeys: true });
      expect(parsed.ok, text).toBe(!dup);
      if (dup) dups++;
      expect(parseJson(text, 'text').ok, text).toBe(true);
    }
    expect(dups).toBeGreaterThan(200);
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

describe('4. slow senders (slowloris): a body must arrive whole in time', () => {
  /** A body that sends its first byte, then nothing: what a slowloris client looks like from inside. */
  const trickle = () => new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{')) });

  it('answers 408 with Connection: close once bodyTimeoutMs passes, on every POST route', async () => {
    server = createServer(realHost(), { bodyTimeoutMs: 150 });
    const { json: s } = await call(server, 'POST', '/session', {});
    for (const path of ['/session', `/session/${s.id}/prompt`, `/session/${s.id}/control-response`]) {
      const started = Date.now();
      const res = await server.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: trickle(), duplex: 'half' } as RequestInit);
      expect(res.status, path).toBe(408);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.headers.get('connection')).toBe('close');
      expect(await res.json()).toMatchObject({ error: { code: 'request_timeout', message: expect.stringMatching(/did not arrive within 150 ms/) } });
    }
    expect((await server.sessions.get(s.id)).prompts).toBe(0);
  });

  it('closes the connection under any answer given before the body was read (401, 403, 413, 415), so the rest is never waited for', async () => {
    server = createServer(realHost(), { token: 'a-token-of-enough-length', bodyLimit: 10 });
    const auth = { authorization: 'Bearer a-token-of-enough-length', 'content-type': 'application/json' };
    for (const [headers, status] of [
      [{ 'content-type': 'application/json' }, 401],
      [{ ...auth, host: 'attacker.example' }, 403],
      [{ ...auth, 'content-type': 'text/plain' }, 415],
      [{ ...auth, 'content-length': '100000' }, 413],
    ] as const) {
      const res = await server.app.request('/session', { method: 'POST', headers, body: trickle(), duplex: 'half' } as RequestInit);
      expect(res.status, JSON.stringify(headers)).toBe(status);
      expect(res.headers.get('connection'), JSON.stringify(headers)).toBe('close');
    }
    // A body read whole keeps the connection.
    const ok = await server.app.request('/session', { method: 'POST', headers: auth, body: '{}' });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('connection')).toBeNull();
  });
});

describe('4b. the MCP endpoint reads bodies the same way', () => {
  it('answers a trickled body 408 and a refused one with Connection: close', async () => {
    const { mcpHttpApp } = await import('../../host/mcp/http.js');
    const { app } = mcpHttpApp({ tools: () => [], callTool: async () => ({ content: '', isError: true }) } as never, { port: 0, bodyTimeoutMs: 150 });
    const trickle = () => new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{')) });
    const slow = await app.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: trickle(), duplex: 'half' } as RequestInit);
    expect(slow.status).toBe(408);
    expect(slow.headers.get('connection')).toBe('close');
    const foreign = await app.request('/mcp', { method: 'POST', headers: { host: 'evil.example' }, body: trickle(), duplex: 'half' } as RequestInit);
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('connection')).toBe('close');
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
  it('refuses corsOrigins ["*"] without a token, at start-up, saying what to do', () => {
    expect(() => createServer(realHost(), { corsOrigins: ['*'] })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/corsOrigins \["\*"\] without a token.*list the origins/) }),
    );
    expect(() => createServer(realHost(), { corsOrigins: ['https://ui.example', '*'] })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
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
