// Hostile review red3, request bodies: one reading of a body (duplicate keys,
// bytes that are not UTF-8, other charsets) and slow senders (slowloris), on
// the control plane and the MCP endpoint. Each test failed on the code before
// its fix. Cross-runtime: test/xrt/server-red3.xrt.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../host/json.js';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { realHost } from './real-host.js';
import { call, until } from './helpers.js';

let server: WasmhooksServer;
afterEach(() => server?.close());

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

  it('refuses a body declared compressed (Content-Encoding), which would be read as sent (review rhttp; 3 runtimes: content-coding.xrt.ts)', async () => {
    server = createServer(realHost());
    const post = (coding: string) => server.app.request('/session', { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': coding }, body: '{}' });
    const gzip = await post('gzip');
    expect(gzip.status).toBe(415);
    expect(await gzip.json()).toMatchObject({ error: { code: 'unsupported_media_type', message: expect.stringMatching(/Content-Encoding "gzip" is not accepted \(send the JSON uncompressed/) } });
    expect((await post('deflate, identity')).status).toBe(415);
    expect((await post('identity')).status).toBe(201);
    expect((await server.sessions.list({ offset: 0, limit: 10 })).total).toBe(1);
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

