// Hostile review rv9 of review red10's changes, on each runtime: holes its fixes opened or missed.
import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as wasmhooks from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { rawRequest } from './raw-http.ts';
import { errorOf, makeHost, post } from './red6-helpers.ts';

const runtime = runtimeName();
const hex = async (bytes: Uint8Array) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');

/** A host that loads over HTTP as `wasmhooks serve` does (no signature policy). */
function loadingHost() {
  const inner = makeHost();
  return {
    session: (options: Parameters<typeof inner.session>[0]) => inner.session(options),
    loadPlugin: (source: Parameters<typeof wasmhooks.loadPlugin>[0]) => wasmhooks.loadPlugin(source),
  } as unknown as Parameters<typeof createServer>[0];
}

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: POST /plugins with a path and a wrong pin does not tell the sha256 of a file that is no plugin`]: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rv9-pin-'));
    const secret = join(dir, 'pin.txt');
    writeFileSync(secret, '4711\n');
    const digest = await hex(readFileSync(secret));
    const server = createServer(loadingHost(), { port: 0, allowPluginLoading: true });
    const { port } = await server.listen();
    try {
      const answer = await rawRequest(port, post('/plugins', JSON.stringify({ path: secret, sha256: '0'.repeat(64) })), 8000);
      assert.equal(answer.status, 400, answer.head);
      const { message } = errorOf(answer.body);
      // Before: "…does not match its pin: expected sha256 000…, got <sha256 of pin.txt>": red10 hid the first bytes
      // and the size, but the pin check (before the wasm check) read out the digest, i.e. any short secret's content.
      assert.ok(!message.includes(digest), message);
      assert.match(message, /does not match its pin.*not a WebAssembly module/);
      // A real plugin's stale pin still says what it is (what the person updating the pin needs).
      const calc = new URL('../../plugins/calc/build/calc.wasm', import.meta.url).pathname;
      const stale = await rawRequest(port, post('/plugins', JSON.stringify({ path: calc, sha256: '0'.repeat(64) })), 8000);
      assert.ok(errorOf(stale.body).message.includes(await hex(readFileSync(calc))), stale.body);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },

  [`${runtime}: an IPv4 address with a leading zero (012.0.0.1, which this runtime's resolver reads as 10.0.0.1) is no pinned address`]: async () => {
    // Why it matters here: the runtime's own lookup (getaddrinfo) takes the octets as octal.
    assert.equal((await lookup('012.0.0.1')).address, '10.0.0.1');
    const started = Date.now();
    const pinned = await wasmhooks
      .loadPlugin({ url: 'http://plugins.test/p.wasm', sha256: '0'.repeat(64), address: '012.0.0.1', timeoutMs: 3000 })
      .then(() => undefined, (e: unknown) => e as { code?: string; message?: string });
    // Before: accepted as 12.0.0.1 (public), and the download connected to 10.0.0.1 (LOAD_FAILED after its timeout here).
    assert.equal(pinned?.code, 'INVALID_OPTIONS', pinned?.message);
    assert.ok(Date.now() - started < 2000);
    // A resolver (pluginUrlResolve) that answers it: private, never the address the download connects to.
    const server = createServer(loadingHost(), { port: 0, allowPluginLoading: true, pluginUrlResolve: async () => ['012.0.0.1'] });
    const { port } = await server.listen();
    try {
      const answer = await rawRequest(port, post('/plugins', JSON.stringify({ url: 'http://plugins.test/p.wasm', sha256: '0'.repeat(64) })), 8000);
      assert.equal(answer.status, 403, answer.body);
      assert.match(errorOf(answer.body).message, /not a public address/);
    } finally {
      await server.close();
    }
    assert.throws(() => createServer(loadingHost(), { pluginUrlAllow: ['010.0.0.5'] }), /IPv4 or IPv6/);
  },

  [`${runtime}: POST /plugins bounds what a slow load keeps of its body (path and url lengths)`]: async () => {
    const server = createServer(loadingHost(), { port: 0, allowPluginLoading: true });
    const { port } = await server.listen();
    try {
      // Kept parsed for the whole load (up to a minute of download): a path or URL of up to bodyLimit bytes was taken.
      for (const body of [{ path: `/tmp/${'a'.repeat(5000)}` }, { url: `https://plugins.example/${'a'.repeat(9000)}`, sha256: '0'.repeat(64) }]) {
        const answer = await rawRequest(port, post('/plugins', JSON.stringify(body)), 8000);
        assert.equal(answer.status, 400, answer.head);
        assert.equal(errorOf(answer.body).code, 'validation', answer.body);
      }
    } finally {
      await server.close();
    }
  },
};
