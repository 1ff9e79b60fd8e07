// Hostile review red3 of the HTTP control plane, sessions and the data
// directory: one describe per class of hole, each test written against the
// code before its fix (it failed there). Cross-runtime: test/xrt/server-red3.xrt.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { realHost } from './real-host.js';
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
    server = createServer(realHost(), { corsOrigins: ['*'] });
    expect((await server.app.request('/session', { headers: embedded('script') })).status).toBe(200);
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
