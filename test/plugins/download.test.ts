// Red review (red4): a remote plugin's download is capped as it arrives. A body without a content-length
// (chunked) was read whole before the 64 MiB check, and one that never ends was read without end: here the
// server sends 65 MiB and then holds the connection open, and the old code waited for the end forever.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { resolveSource } from '../../host/plugins/source.js';
import { findSignature } from '../../host/config/trust.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** Serves `bytes` bytes of zeros, chunked, then stalls (never ends the response). */
async function stalling(bytes: number): Promise<string> {
  const chunk = new Uint8Array(1 << 20);
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/wasm' });
    let sent = 0;
    const more = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
    };
    more();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/p.wasm`;
}

const within = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))]);

describe('remote plugin downloads are capped while they arrive', () => {
  it('a chunked body past 64 MiB is refused at the cap (LOAD_FAILED), without waiting for its end', async () => {
    const url = await stalling(65 << 20);
    const error = await within(resolveSource({ url, sha256: '0'.repeat(64) }).then(() => undefined, (e: unknown) => e), 15_000);
    expect(error).toBeInstanceOf(WasmhooksError);
    expect([(error as WasmhooksError).code, (error as WasmhooksError).message]).toEqual(['LOAD_FAILED', expect.stringMatching(/above the 67108864-byte limit/)]);
  }, 30_000);

  it('a signature envelope past 64 KiB is refused as malformed, without waiting for its end', async () => {
    const url = await stalling(1 << 20);
    const error = await within(findSignature({ url: 'x', signature: url }, 'p.wasm').then(() => undefined, (e: unknown) => e), 15_000);
    expect(error).toMatchObject({ code: 'SIGNATURE', reason: 'malformed' });
  }, 30_000);
});

describe('remote downloads have one deadline over the connection, the headers and the body', () => {
  it('a body that stops before its end fails with LOAD_FAILED at the source\'s timeoutMs', async () => {
    const url = await stalling(1 << 20);
    const started = performance.now();
    const error = await within(resolveSource({ url, sha256: '0'.repeat(64), timeoutMs: 300 }).then(() => undefined, (e: unknown) => e), 10_000);
    expect([(error as WasmhooksError).code, (error as WasmhooksError).message]).toEqual(['LOAD_FAILED', expect.stringMatching(/^cannot download plugin .*: no complete answer within 300 ms$/)]);
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 20_000);

  it('a server that never sends its headers fails the same way', async () => {
    server = createServer(() => {});
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/p.wasm`;
    const error = await within(resolveSource({ url, sha256: '0'.repeat(64), timeoutMs: 300 }).then(() => undefined, (e: unknown) => e), 10_000);
    expect(error).toMatchObject({ code: 'LOAD_FAILED', message: expect.stringMatching(/no complete answer within 300 ms$/) });
  }, 20_000);

  it('timeoutMs is checked at the edge', async () => {
    const error = await resolveSource({ url: 'https://example.com/p.wasm', sha256: '0'.repeat(64), timeoutMs: -1 }).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/timeoutMs/) });
  });
});
