// Hostile review rv9 of review red10's changes, on each runtime: holes its fixes opened or missed.
import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as wasmhooks from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { get, rawRequest } from './raw-http.ts';
import { errorOf, makeHost, post, withServer } from './red6-helpers.ts';

const runtime = runtimeName();
const hex = async (bytes: Uint8Array) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes)))].map((b) => b.toString(16).padStart(2, '0')).join('');

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

  [`${runtime}: checked clean: Sec-Fetch-Site casing and spacing, absolute-form targets with userinfo, ports, dots and no Host`]: () =>
    withServer({}, async (port) => {
      const status = async (raw: string) => (await rawRequest(port, raw)).status;
      // Only the exact lower-case values pass; padding is the runtime's to strip (it does, on all three).
      for (const site of ['Same-Origin', 'NONE', 'same-origin,', 'same_origin', '']) {
        assert.equal(await status(get('/session', ['Host: 127.0.0.1', `Sec-Fetch-Site: ${site}`])), 403, `Sec-Fetch-Site: ${site}`);
      }
      assert.equal(await status(get('/session', ['Host: 127.0.0.1', 'Sec-Fetch-Site:   same-origin  '])), 200);
      const target = (t: string, host?: string) => `GET ${t} HTTP/1.1\r\n${host === undefined ? '' : `Host: ${host}\r\n`}Connection: close\r\n\r\n`;
      const refused = [
        target(`http://127.0.0.1:${port}@evil.test/health`, `127.0.0.1:${port}`), // userinfo
        target(`http://evil.test@127.0.0.1:${port}/health`, `127.0.0.1:${port}`),
        target(`http://127.0.0.1:${port + 1}/health`, `127.0.0.1:${port}`), // another port
        target(`http://localhost./health`, `localhost`), // a trailing dot is another name to a proxy
        target(`http://evil.test/health`, `evil.test`), // agrees with Host: then the loopback Host check refuses it
        target(`http://ev%69l.test/health`, `ev%69l.test`),
        `GET http://0.0.0.0:${port}/health HTTP/1.0\r\n\r\n`, // no Host, another name than this server's
        `GET http://localhost.:${port}/health HTTP/1.0\r\n\r\n`,
      ];
      for (const raw of refused) {
        const got = await status(raw);
        // Bun drops an absolute target's authority itself and routes by the path (and Host): 403 or 200 by Host.
        if (runtime === 'bun') assert.ok(got === 403 || got === 400 || (got === 200 && !/^GET \S+ HTTP\/1\.1\r\nHost: (evil|ev%)/.test(raw)), `${got} ${raw}`);
        else assert.ok(got === 400 || got === 403, `${got} ${JSON.stringify(raw)}`);
      }
      for (const raw of [target(`http://127.0.0.1:${port}/health`, `127.0.0.1:${port}`), target(`http://LOCALHOST:${port}/health`, `localhost:${port}`), `GET http://127.1:${port}/health HTTP/1.0\r\n\r\n`]) {
        assert.equal(await status(raw), 200, raw);
      }
    }),
  [`${runtime}: POST /plugins runs two loads at once, queues sixteen, refuses the rest with 503 (each may hold 128 MiB for a minute)`]: async () => {
    let running = 0;
    let most = 0;
    const inner = makeHost();
    const host = {
      session: (options: Parameters<typeof inner.session>[0]) => inner.session(options),
      loadPlugin: async (source: Parameters<typeof wasmhooks.loadPlugin>[0]) => {
        most = Math.max(most, ++running);
        try {
          // A load reading a 60 MiB file, or a slow download: held for a while.
          await new Promise((r) => setTimeout(r, 150));
          return await wasmhooks.loadPlugin(source);
        } finally {
          running--;
        }
      },
    } as unknown as Parameters<typeof createServer>[0];
    const server = createServer(host, { port: 0, allowPluginLoading: true });
    const { port } = await server.listen();
    try {
      const calc = new URL('../../plugins/calc/build/calc.wasm', import.meta.url).pathname;
      const answers = await Promise.all(Array.from({ length: 24 }, () => rawRequest(port, post('/plugins', JSON.stringify({ path: calc })), 20_000)));
      const statuses = answers.map((a) => a.status);
      // Before: all 24 at once (and as many as maxConnections, 10 000 by default: 128 MiB each for a large file).
      assert.ok(most <= 2, `${most} loads ran at once`);
      const odd = answers.filter((a) => a.status !== 201 && a.status !== 503).map((a) => `${a.status} ${a.body.slice(0, 300)}`);
      assert.equal(statuses.filter((s) => s === 201).length, 18, `${statuses.join(' ')}\n${odd.join('\n')}`);
      assert.equal(statuses.filter((s) => s === 503).length, 6, statuses.join(' '));
      // And the turns are given back: a later load runs.
      assert.equal((await rawRequest(port, post('/plugins', JSON.stringify({ path: calc })), 8000)).status, 201);
    } finally {
      await server.close();
    }
  },
};
