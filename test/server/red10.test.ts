// Hostile review red10 (HTTP): the parts cheaper to show in-process than over three runtimes
// (those are in test/xrt/server-red10.xrt.ts).
import { spawn } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchPinned } from '../../host/plugins/pinned-fetch.js';
import { isIpAddress } from '../../host/plugins/ip-address.js';
import { readFileCapped, resolveSource } from '../../host/plugins/source.js';
import { resolveServerOptions } from '../../host/server/options.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe('a pinned download (POST /plugins)', () => {
  it('removes its abort listener once settled: a signal shared by many downloads holds none of them', async () => {
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/wasm' }).end(new Uint8Array(64)));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const shared = new AbortController();
    for (let i = 0; i < 5; i++) {
      const response = await fetchPinned(`http://plugins.test:${port}/p.wasm`, '127.0.0.1', shared.signal);
      expect((await response.arrayBuffer()).byteLength).toBe(64);
    }
    // Before: one listener per download, each holding its request and answer until the signal went.
    await new Promise((r) => setTimeout(r, 50));
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });
});

describe('IP address literals: one parser for every option and source that takes one', () => {
  const bad = ['1.2.3', ':::::', '1::2::3', '1.2.3.256', '[::1]', 'fe80::1%eth0', '::ffff:1.2.3', 'abc'];
  const good = ['127.0.0.2', '::1', '2606:4700::1111', '::ffff:10.0.0.1', '0:0:0:0:0:0:0:1'];
  it.each(bad)('refuses %s as pluginUrlAllow and as a source address', async (text) => {
    expect(isIpAddress(text)).toBe(false);
    expect(() => resolveServerOptions({ pluginUrlAllow: [text] })).toThrow(/IPv4 or IPv6/);
    await expect(resolveSource({ url: 'http://plugins.test/p.wasm', sha256: '0'.repeat(64), address: text })).rejects.toThrow(/IPv4 or IPv6/);
  });
  it.each(good)('accepts %s', (text) => {
    expect(isIpAddress(text)).toBe(true);
    expect(resolveServerOptions({ pluginUrlAllow: [text] }).pluginUrlAllow).toEqual([text]);
  });
});

describe('a plugin file that is a FIFO', () => {
  it('without a writer reads as empty at once (the open no longer waits for one, holding a file-system thread)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'red10-'));
    try {
      execFileSync('mkfifo', [join(dir, 'p.wasm')]);
      const started = Date.now();
      await expect(readFileCapped(join(dir, 'p.wasm'), 1024)).resolves.toEqual(new Uint8Array(0));
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('whose writer is slow to write is still read whole (waited for in a timer, not in a blocked read)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'red10-'));
    try {
      writeFileSync(join(dir, 'bytes'), 'hello fifo');
      execFileSync('mkfifo', [join(dir, 'p.wasm')]);
      // The writer opens first (it waits in its open for a reader), then writes 300 ms after the reader came.
      const writer = spawn('sh', ['-c', 'exec 3>p.wasm; sleep 0.3; cat bytes >&3'], { cwd: dir, stdio: 'ignore' });
      await new Promise((r) => setTimeout(r, 200));
      const bytes = await readFileCapped(join(dir, 'p.wasm'), 1024);
      writer.kill();
      expect(new TextDecoder().decode(bytes)).toBe('hello fifo');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
