// The SSE streams (GET /event, /global/event) answered through `server.fetch` (what `listen()` serves, where a
// route may be answered ahead of the app) against the same request through the app's whole chain (`app.request`):
// the same status, error code and guard headers for every hostile request — a foreign Host (DNS rebinding), a
// foreign Origin, an element of another site's page (Sec-Fetch-Site), a missing or wrong token, bad query values —
// and the same security headers (no framing, no sniffing, same-origin resource policy) on every answer, the
// stream's 200 included. Tests that go through `app.request` alone never see a route answered ahead of the app.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import type { ServerOptions } from '../../host/server/options.js';
import { realHost } from './real-host.js';

let server: WasmhooksServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOKEN = 'a-token-of-enough-length';
const HOST = '127.0.0.1:4096';
const GUARD_HEADERS = [
  'x-frame-options',
  'x-content-type-options',
  'cross-origin-resource-policy',
  'referrer-policy',
  'content-security-policy',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'vary',
  'content-type',
  'cache-control',
];

type Answer = { status: number; code?: string; headers: Record<string, string | null> };

async function answer(res: Response): Promise<Answer> {
  const headers = Object.fromEntries(GUARD_HEADERS.map((h) => [h, res.headers.get(h)]));
  let code: string | undefined;
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) {
    code = ((await res.json()) as { error?: { code?: string } }).error?.code;
  } else await res.body?.cancel().catch(() => {});
  return { status: res.status, ...(code !== undefined ? { code } : {}), headers };
}

/** Hostile and ordinary requests for one stream path. */
function requests(path: string, auth: Record<string, string>): [string, string, Record<string, string>][] {
  const embedded = (dest: string, site = 'cross-site') => ({ 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': dest });
  return [
    ['ordinary', path, { host: HOST, ...auth }],
    ['EventSource of the same origin', path, { host: HOST, ...auth, origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }],
    ['<script> of another site', path, { host: HOST, ...auth, ...embedded('script') }],
    ['<img> of a sibling site', path, { host: HOST, ...auth, ...embedded('image', 'same-site') }],
    ['fetch no-cors of another site', path, { host: HOST, ...auth, ...embedded('empty') }],
    ['EventSource of another origin', path, { host: HOST, ...auth, origin: 'http://attacker.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' }],
    ['rebinding Host', path, { host: 'attacker.example', ...auth }],
    ['malformed Host', path, { host: 'a b', ...auth }],
    ['no token', path, { host: HOST }],
    ['wrong token', path, { host: HOST, authorization: `Bearer ${TOKEN}x` }],
    ['bad session', `${path}?session=..%2F..`, { host: HOST, ...auth }],
    ['bad Last-Event-ID', path, { host: HOST, ...auth, 'last-event-id': 'x'.repeat(300) }],
    ['bad format', `${path}?format=xml`, { host: HOST, ...auth }],
  ];
}

async function compare(options: ServerOptions, auth: Record<string, string>): Promise<void> {
  server = createServer(realHost(), options);
  for (const path of ['/event', '/global/event']) {
    for (const [what, target, headers] of requests(path, auth)) {
      const viaFetch = await answer(await server.fetch(new Request(`http://${HOST}${target}`, { headers })));
      const viaApp = await answer(await server.app.request(`http://${HOST}${target}`, { headers }));
      expect(viaFetch, `${path}: ${what}`).toEqual(viaApp);
      expect(viaFetch.headers['x-frame-options'], `${path}: ${what}`).toBe('DENY');
      expect(viaFetch.headers['x-content-type-options'], `${path}: ${what}`).toBe('nosniff');
      expect(viaFetch.headers['cross-origin-resource-policy'], `${path}: ${what}`).toBe('same-origin');
    }
  }
  await server.close();
  server = undefined;
}

describe('the SSE streams through server.fetch keep every guard of the app', () => {
  it('loopback without a token', () => compare({}, {}));

  it('with a token', () => compare({ token: TOKEN }, { authorization: `Bearer ${TOKEN}` }));

  it('with a token and CORS origins', () => compare({ token: TOKEN, corsOrigins: ['http://app.example'] }, { authorization: `Bearer ${TOKEN}` }));

  it('refuses an element of another site, as the app does', async () => {
    server = createServer(realHost());
    const res = await server.fetch(new Request(`http://${HOST}/event`, { headers: { host: HOST, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' } }));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/embedded by another site/);
  });
});
