// Closing a data directory's store on Node, Deno and Bun against the build (test/store/closed-writes.ts; vitest
// twin: test/store/closed-writes.test.ts): nothing written after, nothing asked before lost.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, openStore, scriptedModel } from '../../dist/index.js';
import { sessionCloseStored, storeClose, type ClosedWritesApi } from '../store/closed-writes.ts';

const api = { createHost, scriptedModel, openStore } as unknown as ClosedWritesApi;

async function inTempDir(fn: (dir: string) => Promise<string[]>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-closed-writes-'));
  try {
    assert.deepEqual(await fn(dir), []);
  } finally {
    // No `force`, no retry: a file made after close fails this rm (ENOTEMPTY), as it did in CI.
    await rm(dir, { recursive: true });
  }
}

export const scenarios: Record<string, () => Promise<void>> = {
  'store.close() waits for the writes asked before it; after it, writes are STORE_UNAVAILABLE and make no file': () => inTempDir((dir) => storeClose(api, dir)),
  'session.close() resolves once its SessionEnd events are stored: a store closed next has them': () => inTempDir((dir) => sessionCloseStored(api, dir)),
};
