// Hostile review red5 on Node, Deno and Bun, against the ESM build:
// - the direct call's memory accessors (host/sandbox/extism-kernel.ts) on random addresses, through the
//   sandbox, against raw Extism on the same runtime (each engine converts BigInt addresses its own way);
// - the SSE streams answered by `server.fetch` (where a route may run ahead of the app) against the app's chain
//   for the requests another site's page makes (Sec-Fetch-Site) and the security headers of every answer.
// Under vitest: test/sandbox/sandbox.kernel-fuzz.test.ts, test/server/sse-route-parity.test.ts.
import assert from 'node:assert/strict';
import createPlugin from '@extism/extism';
import * as wasmhooks from '../../dist/index.js';
import { createServer } from '../../dist/server.js';
import { hostile, runtime } from './wat.js';

const BLOCK = 1n << 48n;
const INDEXES = [0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 31n, 32n, 0x8000n, 0xffffn];
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const HOST = '127.0.0.1:4096';
const SECURITY = ['x-frame-options', 'x-content-type-options', 'cross-origin-resource-policy', 'referrer-policy', 'content-security-policy', 'cross-origin-opener-policy'];

async function refusalOrStream(res: Response): Promise<string> {
  const headers = SECURITY.map((h) => `${h}=${res.headers.get(h)}`).join(' ');
  let code = '';
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) code = ((await res.json()) as { error?: { code?: string } }).error?.code ?? '';
  else await res.body?.cancel().catch(() => {});
  return `${res.status} ${code} ${headers}`;
}

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: the sandbox's memory accessors answer random addresses as raw Extism does`]: async () => {
    const bytes = await hostile('kernel-probe');
    const raw = await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false });
    const sandbox = await wasmhooks.createSandbox(bytes, { name: 'kernel-probe', quarantine: { maxConsecutiveFailures: 1_000_000 } });
    let x = 11;
    const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
    let reads = 0;
    let traps = 0;
    try {
      for (let i = 0; i < 600; i++) {
        const input = new Uint8Array(24 + (next() % 3) * 5);
        const view = new DataView(input.buffer);
        input[0] = next() % 8;
        const index = INDEXES[next() % INDEXES.length]!;
        const offsets = [0n, 1n, 7n, 8n, 9n, 15n, 16n, 17n, 24n, 0xffffffffn, BLOCK - 8n, BLOCK - 1n, BigInt(next() % 40)];
        const offset = offsets[next() % offsets.length]!;
        view.setBigUint64(8, BigInt.asUintN(64, index * BLOCK + offset), true);
        view.setBigUint64(16, BigInt(next()) * 0x100000001n, true);
        let own: { ok: true; bytes: string } | { ok: false; error: string };
        try {
          own = { ok: true, bytes: hex((await raw.call('probe', input.slice()))?.bytes() ?? new Uint8Array(0)) };
        } catch (error) {
          own = { ok: false, error: error instanceof Error ? error.message : String(error) };
        }
        const outcome = await sandbox.call('probe', input);
        const at = `${runtime} op ${input[0]} at ${index}:${offset.toString(16)}`;
        if (own.ok) {
          reads++;
          assert.equal(outcome.ok ? hex(outcome.output) : outcome.failure.message, own.bytes, at);
        } else {
          traps++;
          assert.ok(!outcome.ok && outcome.failure.message.includes(own.error), `${at}: ${JSON.stringify(outcome)} vs ${own.error}`);
        }
      }
    } finally {
      await Promise.all([raw.close(), sandbox.close()]);
    }
    assert.ok(reads > 60 && traps > 60, `${runtime}: ${reads} reads, ${traps} traps`);
  },

  [`${runtime}: GET /event and /global/event through server.fetch refuse another site's elements and carry the security headers, as the app does`]: async () => {
    for (const options of [{}, { token: 'red5-token-0123456789' }]) {
      const auth: Record<string, string> = 'token' in options ? { authorization: `Bearer ${options.token}` } : {};
      const server = createServer(wasmhooks.createHost({ model: wasmhooks.scriptedModel({ turns: [{ text: 'hi' }] }) }), { port: 0, heartbeatMs: 60_000, ...options });
      try {
        for (const path of ['/event', '/global/event']) {
          for (const [what, headers, status] of [
            ['ordinary', { host: HOST, ...auth }, 200],
            ['<script> of another site', { host: HOST, ...auth, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' }, 403],
            ['<img> of a sibling site', { host: HOST, ...auth, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }, 403],
            ['rebinding Host', { host: 'attacker.example', ...auth }, 403],
            ['no token', { host: HOST }, 'token' in options ? 401 : 200],
          ] as const) {
            const request = () => new Request(`http://${HOST}${path}`, { headers });
            const viaFetch = await refusalOrStream(await server.fetch(request()));
            const viaApp = await refusalOrStream(await server.app.fetch(request()));
            assert.equal(viaFetch, viaApp, `${runtime} ${path}: ${what}`);
            assert.ok(viaFetch.startsWith(`${status} `), `${runtime} ${path}: ${what}: ${viaFetch}`);
            assert.match(viaFetch, /x-frame-options=DENY x-content-type-options=nosniff cross-origin-resource-policy=same-origin/, `${runtime} ${path}: ${what}`);
            assert.match(viaFetch, /cross-origin-opener-policy=same-origin/, `${runtime} ${path}: ${what}`);
          }
        }
      } finally {
        await server.close();
      }
    }
  },
};
