import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { safeEqual } from '../../host/server/auth.js';
import { resolveServerOptions } from '../../host/server/options.js';
import { WasmhooksError } from '../../host/errors.js';
import { realHost } from './real-host.js';
import { call } from './helpers.js';

const TOKEN = 'correct-horse-battery-staple';
let server: WasmhooksServer;
afterEach(() => server?.close());

describe('options and the loopback rule', () => {
  it('refuses to serve beyond loopback without a token, with a clear error', () => {
    for (const hostname of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
      expect(() => createServer(realHost(), { hostname })).toThrow(/refusing to serve on .* without a token/);
    }
    for (const hostname of ['127.0.0.1', 'localhost', '::1', '127.1.2.3']) {
      expect(() => createServer(realHost(), { hostname }).close()).not.toThrow();
    }
    expect(() => createServer(realHost(), { hostname: '0.0.0.0', token: TOKEN }).close()).not.toThrow();
  });

  it('rejects bad options with the field path', () => {
    const bad = [{ port: -1 }, { port: 1.5 }, { token: 'short' }, { bodyLimit: 0 }, { nope: 1 }, { replayBufferSize: 0 }];
    for (const options of bad) {
      let error: unknown;
      try {
        resolveServerOptions(options as never);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(WasmhooksError);
      expect((error as WasmhooksError).code).toBe('INVALID_OPTIONS');
    }
    expect(resolveServerOptions({}).allowPluginLoading).toBe(false);
    expect(resolveServerOptions({}).corsOrigins).toEqual([]);
  });

  it('compares tokens in full', () => {
    expect(safeEqual(TOKEN, TOKEN)).toBe(true);
    expect(safeEqual(TOKEN.slice(0, -1), TOKEN)).toBe(false);
    expect(safeEqual(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(safeEqual('', TOKEN)).toBe(false);
    expect(safeEqual(TOKEN.replace('c', 'C'), TOKEN)).toBe(false);
  });
});

describe('auth', () => {
  it('answers 401 without the right bearer token on every API route', async () => {
    server = createServer(realHost(), { token: TOKEN });
    const routes: [string, string][] = [
      ['GET', '/session'],
      ['POST', '/session'],
      ['GET', '/session/x'],
      ['DELETE', '/session/x'],
      ['POST', '/session/x/prompt'],
      ['POST', '/session/x/abort'],
      ['POST', '/session/x/clear'],
      ['GET', '/session/x/control-requests'],
      ['POST', '/session/x/control-response'],
      ['POST', '/session/x/control-cancel'],
      ['GET', '/event'],
      ['GET', '/global/event'],
      ['GET', '/plugins'],
      ['POST', '/plugins'],
      ['GET', '/health'],
    ];
    for (const [method, path] of routes) {
      for (const authorization of [undefined, 'Bearer wrong-token-wrong-token', `Basic ${TOKEN}`, TOKEN, 'Bearer ']) {
        const res = await call(server, method, path, undefined, authorization ? { authorization } : {});
        expect(res.status, `${method} ${path} with ${authorization}`).toBe(401);
        expect(res.json.error.code).toBe('unauthorized');
      }
    }
    const ok = await call(server, 'GET', '/session', undefined, { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
  });
});

describe('CORS', () => {
  it('sends no CORS headers unless origins are configured', async () => {
    server = createServer(realHost());
    const res = await server.app.request('/session', { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    await server.close();
    server = createServer(realHost(), { corsOrigins: ['https://ui.example'] });
    const pre = await server.app.request('/session', {
      method: 'OPTIONS',
      headers: { origin: 'https://ui.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://ui.example');
    const other = await server.app.request('/session', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
  });
});

describe('malformed input', () => {
  it('answers every malformed request with a 4xx JSON error, never a 5xx', async () => {
    server = createServer(realHost(), { bodyLimit: 4096 });
    const { json: s } = await call(server, 'POST', '/session', {});
    const big = JSON.stringify({ prompt: 'x'.repeat(10_000) });
    const bodies: unknown[] = [
      '',
      '{',
      'null',
      '[]',
      '"str"',
      '42',
      'true',
      '{"prompt":}',
      '\u0000\u0001',
      big,
      { prompt: '' },
      { prompt: 42 },
      { prompt: null },
      { prompt: ['a'] },
      { prompt: 'ok', extra: 1 },
      { requestID: '', subtype: 'can_use_tool', response: {} },
      { requestID: 'x', subtype: 'nope', response: {} },
      { requestID: 'x'.repeat(500), subtype: 'can_use_tool' },
      { title: 5 },
      { permissionMode: 'yolo' },
      { maxTurns: -1 },
      { maxTurns: 'ten' },
      { path: 5 },
      { __proto__: { polluted: true } },
    ];
    const targets = [
      ['POST', '/session'],
      ['POST', `/session/${s.id}/prompt`],
      ['POST', `/session/${s.id}/control-response`],
      ['POST', `/session/${s.id}/control-cancel`],
    ];
    for (const [method, path] of targets) {
      for (const body of bodies) {
        const res = await call(server, method!, path!, body);
        if (res.status < 300) continue; // some bodies are valid for some routes (e.g. {} variants)
        expect(res.status, `${method} ${path} ${String(body).slice(0, 40)}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(res.json.error.code).toMatch(/^[a-z_]+$/);
        expect(typeof res.json.error.message).toBe('string');
      }
    }
    const tooBig = await call(server, 'POST', `/session/${s.id}/prompt`, big);
    expect(tooBig.status).toBe(413);
    const wrongType = await call(server, 'POST', `/session/${s.id}/prompt`, '{"prompt":"hi"}', { 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    const path = await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 42 });
    expect(path.json.error).toMatchObject({ code: 'validation', path: 'body.prompt' });
  });

  it('validates path params, query and Last-Event-ID', async () => {
    server = createServer(realHost());
    for (const path of ['/session/%00', '/session/a%20b', `/session/${'x'.repeat(300)}`, '/session/..%2F..']) {
      const res = await call(server, 'GET', path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
    expect((await call(server, 'GET', '/event?session=%00')).status).toBe(400);
    expect((await call(server, 'GET', '/event', undefined, { 'last-event-id': 'abc' })).status).toBe(400);
    expect((await call(server, 'GET', '/event', undefined, { 'last-event-id': '-1' })).status).toBe(400);
    expect((await call(server, 'GET', '/nowhere')).json.error.code).toBe('not_found');
    expect((await call(server, 'PUT', '/session')).status).toBe(404);
  });
});
