// Review red18: a request target's size was bounded by each runtime its own way (Node 16 KiB of head, Bun a bare
// 431, Deno up to 64 KiB served) and its query parameters not at all, while each parameter read parsed the whole
// query again. A target past 8,192 characters is now `414 uri_too_long`, a query of more than 64 parameters
// `400 validation`, on every route (the SSE fast route included) and every runtime.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { MAX_QUERY_PARAMS, MAX_TARGET_CHARS } from '../../host/server/guards.js';
import { MAX_BODY_KEYS } from '../../host/server/validate.js';
import { realHost } from './real-host.js';

let server: WasmhooksServer;
afterEach(() => server?.close());

const get = (path: string) => server.fetch(new Request(`http://127.0.0.1${path}`));

describe('red18: the request target is bounded', () => {
  it(`a target over ${MAX_TARGET_CHARS} characters is 414 uri_too_long, on the app's routes and the SSE route`, async () => {
    server = createServer(realHost());
    for (const path of ['/session', '/event', '/global/event', '/nowhere']) {
      const long = `${path}?x=${'a'.repeat(MAX_TARGET_CHARS)}`;
      const res = await get(long);
      expect(res.status, path).toBe(414);
      expect(await res.json()).toEqual({ error: { code: 'uri_too_long', message: expect.stringMatching(/request target is \d+ characters, over the 8192 served/) } });
    }
    const fits = `/session?x=${'a'.repeat(MAX_TARGET_CHARS - 20)}`;
    expect((await get(fits)).status).toBe(200);
  });

  it(`a query of more than ${MAX_QUERY_PARAMS} parameters is 400 validation naming the count`, async () => {
    server = createServer(realHost());
    for (const path of ['/session', '/global/event']) {
      const res = await get(`${path}?${Array.from({ length: MAX_QUERY_PARAMS + 1 }, (_, i) => `p${i}=1`).join('&')}`);
      expect(res.status, path).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 'validation', path: 'query', message: 'the query holds 65 parameters, over the 64 accepted' } });
    }
    expect((await get(`/session?${Array.from({ length: MAX_QUERY_PARAMS }, (_, i) => `p${i}=1`).join('&')}`)).status).toBe(200);
  });

  it(`a body of more than ${MAX_BODY_KEYS} object keys is 400 invalid_json before it is parsed, and a validation message stays short`, async () => {
    server = createServer(realHost());
    const post = (body: string) => server.fetch(new Request('http://127.0.0.1/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;
    const many = await post(keys(100_000));
    expect(many.status).toBe(400);
    expect(await many.json()).toEqual({ error: { code: 'invalid_json', message: 'the body holds more than 10000 object keys in all; no request needs as many' } });
    // Nested objects count too; colons inside strings do not.
    expect((await post(`{"systemPrompt":"${':'.repeat(50_000)}"}`)).status).toBe(201);
    // Under the cap: zod names every unknown key; the answer quotes at most 300 characters of them.
    const unknown = await post(keys(5_000));
    const text = await unknown.text();
    expect(unknown.status).toBe(400);
    expect(text.length).toBeLessThan(600);
    expect(JSON.parse(text)).toEqual({ error: { code: 'validation', path: 'body', message: expect.stringMatching(/^body: Unrecognized keys: .*… \(\d+ characters\)$/) } });
  });

  it('Node: a 12 KiB target (under Node’s own 16 KiB cut) is refused the same way over a socket', async () => {
    server = createServer(realHost(), { port: 0 });
    const { url } = await server.listen();
    const res = await fetch(`${url}/session?x=${'a'.repeat(12 << 10)}`);
    expect(res.status).toBe(414);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('uri_too_long');
  });
});
