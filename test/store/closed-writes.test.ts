// A data directory's store writes nothing once closed and loses nothing asked before (closed-writes.ts; the
// same on Node, Deno and Bun against dist/ in test/xrt/store-close.xrt.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createHost, openStore, scriptedModel } from '../../host/index.js';
import { sessionCloseStored, storeClose } from './closed-writes.js';

const api = { createHost, scriptedModel, openStore };

async function inTempDir(fn: (dir: string) => Promise<string[]>): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-closed-writes-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true });
  }
}

it('store.close() waits for the writes asked before it; after it, writes are STORE_UNAVAILABLE and make no file', async () => {
  expect(await inTempDir((dir) => storeClose(api, dir))).toEqual([]);
});

it('session.close() resolves once its SessionEnd events are stored: a store closed next has them', async () => {
  expect(await inTempDir((dir) => sessionCloseStored(api, dir))).toEqual([]);
});
