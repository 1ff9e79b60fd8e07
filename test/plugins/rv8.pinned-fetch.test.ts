// Review (rv8) of red9's pinned download (plugins/pinned-fetch.ts, every download of POST /plugins): a
// server that answers `101 Switching Protocols` made the download hang for ever, past its deadline, on
// Node, Deno and Bun alike (node:http hands a 101 to 'upgrade', not to the response callback, and the
// request's signal no longer ends it). Here it fails the load at the deadline or sooner.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { findSignature } from '../../host/config/trust.js';
import { resolveSource } from '../../host/plugins/source.js';

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  sockets.forEach((s) => s.destroy());
  sockets.clear();
  await new Promise((resolve) => server?.close(resolve));
});

/** Answers every request with `answer` and keeps the connection open. */
async function answering(answer: string): Promise<number> {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', () => socket.write(answer));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const within = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))]);

const SWITCH = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n';

describe('a pinned download answered with 101 Switching Protocols', () => {
  it('fails the load (LOAD_FAILED), never hangs past its deadline', async () => {
    const port = await answering(SWITCH);
    const load = resolveSource({ url: `http://plugins.test:${port}/p.wasm`, sha256: '0'.repeat(64), address: '127.0.0.1', timeoutMs: 1_000 });
    const error = await within(load, 5_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as WasmhooksError).code).toBe('LOAD_FAILED');
    expect((error as Error).message).toMatch(/switched protocols/);
  });

  it('the signature download fails the same way', async () => {
    const port = await answering(`${SWITCH}and bytes of another protocol`);
    const find = findSignature({ url: `http://plugins.test:${port}/p.wasm` }, 'POST /plugins', 'error', '127.0.0.1');
    const error = await within(find, 5_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as Error).message).toMatch(/switched protocols/);
  });
});

describe('a pinned download whose body stops arriving', () => {
  it('fails the load at its deadline (LOAD_FAILED, the deadline named), not as too large and not later', async () => {
    const port = await answering('HTTP/1.1 200 OK\r\nContent-Type: application/wasm\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n\0asm\r\n');
    const started = performance.now();
    const load = resolveSource({ url: `http://plugins.test:${port}/p.wasm`, sha256: '0'.repeat(64), address: '127.0.0.1', timeoutMs: 500 });
    const error = await within(load, 5_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as WasmhooksError).code).toBe('LOAD_FAILED');
    expect((error as Error).message).toMatch(/no complete answer within 500 ms/);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
