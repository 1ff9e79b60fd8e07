// Hostile review rv9 of review red10's changes: the parts cheaper to show in-process
// (the HTTP ones over three runtimes are in test/xrt/rv9.xrt.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { checkSignature } from '../../host/config/trust.js';
import { isIpAddress, v4Number } from '../../host/plugins/ip-address.js';
import { generateSigningKey, signPlugin } from '../../host/plugins/signature.js';
import { resolveSource } from '../../host/plugins/source.js';
import { BodyBudget, bodyOf, closeUnread, readBody } from '../../host/server/body-read.js';
import { errorResponse, ApiError } from '../../host/server/errors.js';
import { resolveServerOptions } from '../../host/server/options.js';
import { checkPluginUrl, isPrivateAddress } from '../../host/server/plugin-url.js';
import { jsonBody } from '../../host/server/validate.js';
import { z } from 'zod';

describe('IPv4 literals with a leading zero (getaddrinfo reads 012.0.0.1 as octal: 10.0.0.1)', () => {
  // Node, Deno and Bun all resolve `012.0.0.1` to 10.0.0.1 (dns.lookup, checked by hand on each);
  // the parser read it as 12.0.0.1, a public address.
  const octal = ['012.0.0.1', '010.0.0.1', '127.0.0.01', '00.0.0.0', '::ffff:012.0.0.1'];
  it.each(octal)('%s is no address: refused as a pin, an allow entry and a resolver answer', async (text) => {
    expect(isIpAddress(text)).toBe(false);
    expect(() => resolveServerOptions({ pluginUrlAllow: [text] })).toThrow(/IPv4 or IPv6/);
    await expect(resolveSource({ url: 'http://plugins.test/p.wasm', sha256: '0'.repeat(64), address: text })).rejects.toThrow(/IPv4 or IPv6/);
    // A resolver (pluginUrlResolve) answering it: counted as private, never handed to the download.
    await expect(checkPluginUrl('http://plugins.test/p.wasm', { resolve: async () => [text] })).rejects.toThrow(/not a public address/);
  });
  it('plain decimal octets, 0 included, still parse', () => {
    expect(v4Number('0.0.0.0')).toBe(0);
    expect(v4Number('10.0.0.1')).toBe(0x0a000001);
    expect(v4Number('255.255.255.255')).toBe(0xffffffff);
    expect(v4Number('256.0.0.1')).toBeUndefined();
  });

  // Checked clean: every spelling of an inward address is private, by literal and by resolver answer.
  const inward = [
    '127.0.0.1', '0.0.0.0', '::', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:7F00:1', '0:0:0:0:0:ffff:7f00:0001',
    '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '2002:7f00:1::', '2002:a00:1::1', '2001::1', '2001:0:4136:e378::1',
    'fe80::1', 'fe80::1%eth0', 'fc00::1', '::127.0.0.1', '169.254.169.254', '::ffff:169.254.169.254', '100.64.0.1',
  ];
  it.each(inward)('%s is private', async (address) => {
    expect(isPrivateAddress(address)).toBe(true);
    await expect(checkPluginUrl('http://plugins.test/p.wasm', { resolve: async () => ['93.184.215.14', address] })).rejects.toThrow(/not a public address/);
  });
  // The URL's own host: the WHATWG parser turns these into 127.0.0.1 / [::1] before the check.
  it.each(['http://0x7f.1/', 'http://017700000001/', 'http://2130706433/', 'http://127.1/', 'http://127.0.0.1./', 'http://[::ffff:127.0.0.1]/', 'http://[0::1]/', 'http://0/'])(
    'URL %s is refused',
    async (url) => {
      await expect(checkPluginUrl(url, { resolve: async () => ['93.184.215.14'] })).rejects.toThrow(/not a public address/);
    },
  );
});

describe('a pin mismatch on a path does not tell the digest of a file that is no plugin', () => {
  it('a text file: no sha256 of it in the message; a wasm file keeps it (what a stale pin needs)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rv9-'));
    try {
      const secret = join(dir, 'secret.txt');
      writeFileSync(secret, '4711\n');
      const digest = Buffer.from(await crypto.subtle.digest('SHA-256', readFileSync(secret))).toString('hex');
      const error = await resolveSource({ path: secret, sha256: '0'.repeat(64) }).catch((e: Error) => e);
      expect((error as { code?: string }).code).toBe('INTEGRITY');
      // Before: "got <sha256 of the file>": a short secret's content to anyone who hashes guesses.
      expect((error as Error).message).not.toContain(digest);
      expect((error as Error).message).toMatch(/not a WebAssembly module/);
      const calc = new URL('../../plugins/calc/build/calc.wasm', import.meta.url).pathname;
      const wasmDigest = Buffer.from(await crypto.subtle.digest('SHA-256', readFileSync(calc))).toString('hex');
      await expect(resolveSource({ path: calc, sha256: '0'.repeat(64) })).rejects.toThrow(`got ${wasmDigest}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a signature check on a path (wasmhooks serve: POST /plugins under requireSignature) does not tell a non-wasm file\'s digest', () => {
  it('a text file with a .sig beside it is refused as no wasm, before the check whose failure quotes its sha256', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rv9-sig-'));
    try {
      const secret = join(dir, 'token');
      writeFileSync(secret, 'hunter2\n');
      const digest = Buffer.from(await crypto.subtle.digest('SHA-256', readFileSync(secret))).toString('hex');
      const signer = await generateSigningKey('someone');
      // Any .sig beside it (here one over other bytes): the check then fails with "sha256 <digest of the file>".
      writeFileSync(`${secret}.sig`, JSON.stringify(await signPlugin(new Uint8Array([0, 97, 115, 109]), signer.privateKeyFile)));
      const trust = { trustedKeys: { someone: { publicKey: signer.publicKey } }, requireSignature: true, dir };
      const error = await checkSignature({ path: secret }, undefined, trust, 'POST /plugins').catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).not.toContain(digest);
      expect((error as { code?: string }).code).toBe('INVALID_WASM');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bodyBytesInFlight counts a body for as long as its bytes are held', () => {
  /** The server's body chain on a bare app; `route` runs after it, per path. */
  function app(budgetBytes: number, gate: Promise<void>) {
    const hono = new Hono();
    hono.onError((error) => errorResponse(error instanceof ApiError ? error : new ApiError('internal', String(error))));
    hono.use('*', closeUnread);
    hono.use('*', readBody(1 << 20, 5000, new BodyBudget(budgetBytes)));
    // Parses first (every real route does), then is slow.
    hono.post('/parse-then-wait', async (c) => {
      const body = await jsonBody(c, z.object({ pad: z.string() }).strict());
      await gate;
      return c.json({ pad: body.pad.length, again: bodyOf(c).length });
    });
    // Slow before it takes its body: the bytes are with the request all along.
    hono.post('/wait-then-parse', async (c) => {
      await gate;
      return c.json({ length: bodyOf(c).length });
    });
    return hono;
  }
  const body = `{"pad": "x"}${' '.repeat(4000)}`;
  const request = (path: string) =>
    new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body });

  it('a route slow after parsing frees the share at once, and the request keeps no bytes', async () => {
    let open!: () => void;
    const hono = app(body.length, new Promise((r) => (open = r)));
    const first = hono.fetch(request('/parse-then-wait'));
    await new Promise((r) => setTimeout(r, 50));
    const second = hono.fetch(request('/parse-then-wait'));
    await new Promise((r) => setTimeout(r, 50));
    open();
    for (const answer of [await first, await second]) {
      expect(answer.status).toBe(200);
      // Taken once: the 4 KiB of whitespace are not held by the request while the route waits.
      expect(await answer.json()).toEqual({ pad: 1, again: 0 });
    }
  });

  it('a route slow before taking its body keeps its share: the next body past the budget is 503', async () => {
    let open!: () => void;
    const hono = app(body.length, new Promise((r) => (open = r)));
    setTimeout(() => open(), 1000); // so that a failure here fails fast, not on the test's timeout
    const first = hono.fetch(request('/wait-then-parse'));
    await new Promise((r) => setTimeout(r, 50));
    // Before: 200 (red10 gave the share back once read, while the request still held the bytes).
    const second = await hono.fetch(request('/wait-then-parse'));
    expect(second.status).toBe(503);
    open();
    expect(await (await first).json()).toEqual({ length: body.length });
    // And given back when the route answered.
    const third = hono.fetch(request('/wait-then-parse'));
    expect((await third).status).toBe(200);
  });
});

describe('the MCP endpoint keeps a tools/call body counted while the call runs (it holds the parsed arguments)', () => {
  it('a second call past bodyBytesInFlight is 503 while the first slow tool runs; served once it answered', async () => {
    const { createHost } = await import('../../host/host.js');
    const { mcpHttpApp } = await import('../../host/mcp/http.js');
    const { relayModel } = await import('../../host/mcp/server.js');
    const { tool } = await import('../../host/tools/define.js');
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    setTimeout(() => open(), 1500); // a failure fails fast
    const slow = tool('slow', 'waits', z.object({ pad: z.string() }), async ({ pad }) => {
      await gate;
      return `got ${pad.length}`;
    });
    const host = createHost({ model: relayModel(), tools: [slow], permissionMode: 'bypassPermissions' });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: { pad: 'x'.repeat(3000) } } });
    const { app } = mcpHttpApp(host, { port: 0, bodyBytesInFlight: body.length, bodyLimit: body.length });
    const call = () =>
      app.request('/mcp', {
        method: 'POST',
        headers: { host: '127.0.0.1', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(body.length), 'mcp-protocol-version': '2025-06-18' },
        body,
      });
    const first = call();
    await new Promise((r) => setTimeout(r, 100));
    // Before: 200 after the gate: the share was given back once parsed, while the call held 3 KB of arguments.
    const second = await call();
    expect(second.status).toBe(503);
    open();
    const answered = await first;
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('got 3000');
    expect((await call()).status).toBe(200);
  });
});

describe('a plugin path naming one of the process\'s own anonymous pipes (/proc/self/fd/N) is refused, not read', () => {
  it('the process\'s stdin, a pipe: its data stays for whoever it was for', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rv9-fd-'));
    try {
      const source = new URL('../../host/plugins/source.ts', import.meta.url).pathname;
      const script = join(dir, 'read.mts');
      writeFileSync(
        script,
        `import { readFileCapped } from ${JSON.stringify(source)};\n` +
          `const got = await readFileCapped('/proc/self/fd/0', 1024).then((b) => 'read ' + new TextDecoder().decode(b), (e) => 'refused ' + e.message);\n` +
          `process.stdout.write(got);\n`,
      );
      // The shell's `|` is a real pipe (a child's stdio from Node is a socket pair, refused by the first check).
      const run = spawnSync('sh', ['-c', 'printf stdin-secret | "$0" --import tsx "$1"', process.execPath, script], { encoding: 'utf8', timeout: 60_000 });
      // Before: "read stdin-secret" (a FIFO by fstat: the stat check let it through, and the read took the data).
      expect(run.stdout).toBe('refused not a regular file or a named FIFO');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
  it('a named FIFO is still read (through /proc/self/fd of a descriptor opened on it too)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rv9-fifo-'));
    try {
      const { execFileSync, spawn } = await import('node:child_process');
      const { readFileCapped } = await import('../../host/plugins/source.js');
      execFileSync('mkfifo', [join(dir, 'p.wasm')]);
      const writer = spawn('sh', ['-c', 'exec 3>p.wasm; sleep 0.2; printf named >&3'], { cwd: dir, stdio: 'ignore' });
      await new Promise((r) => setTimeout(r, 100));
      const bytes = await readFileCapped(join(dir, 'p.wasm'), 1024);
      writer.kill();
      expect(new TextDecoder().decode(bytes)).toBe('named');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
