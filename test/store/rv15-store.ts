// rv15 (review of fix3's fencing): store holes shared by vitest (test/store/rv15.test.ts) and test/xrt/rv15.xrt.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStore } from '../../host/store/types.js';

type Open = (options: { kind: 'file'; dataDir: string } | { kind: 'redis'; url: string }) => Promise<{ store: SessionStore; close(): Promise<void> }>;

const message = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] }) as never;

/**
 * The data directory's replaceMessages checked the token, waited for the transcript's handle to close, then wrote
 * the file whatever the store said by then: a session deleted (and made again under its id) meanwhile got the old
 * prompt's conversation as its transcript, read back by the next process.
 */
export async function fileReplaceAfterDelete(openStore: Open): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wasmhooks-rv15-'));
  try {
    let opened = await openStore({ kind: 'file', dataDir });
    const record = { id: 's1', createdAt: Date.now(), prompts: 0, options: {} };
    assert.equal(await opened.store.create(record), true);
    const fence = await opened.store.acquire('s1', 'r', 60_000);
    assert.ok(typeof fence === 'number');
    assert.equal(await opened.store.appendMessages('s1', [message('old one')], fence), true);
    const replacing = opened.store.replaceMessages('s1', [message('OLD SECRET')], fence);
    await opened.store.delete('s1');
    assert.equal(await opened.store.create(record), true);
    assert.equal(await replacing, false, 'the token ended with the delete: the rewrite is refused');
    assert.deepEqual(await opened.store.messages('s1'), []);
    await opened.close();
    opened = await openStore({ kind: 'file', dataDir });
    try {
      assert.deepEqual(await opened.store.messages('s1'), [], 'the new session read back from the directory has no conversation');
    } finally {
      await opened.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface RawRedis {
  set(key: string, value: string): Promise<unknown>;
  hget(key: string, field: string): Promise<string | null>;
  exists(key: string): Promise<number>;
  quit(): Promise<unknown>;
}

/**
 * A fencing-token counter in Redis that is not a whole number (damaged, or set by hand): ACQUIRE took the lease and
 * marked the session running before INCR failed, so the session stayed marked by nobody's prompt; one at 2^53 or
 * past gave tokens JavaScript reads rounded (2^53 + 3 and 2^53 + 4 both read 2^53 + 4: a fenced-out prompt's
 * writes land). Now refused before anything is written, with a message naming the key.
 */
export async function redisDamagedCounter(openStore: Open, url: string, raw: RawRedis): Promise<void> {
  const opened = await openStore({ kind: 'redis', url });
  const { store } = opened;
  try {
    for (const [n, bad] of ['not-a-number', '-5', '9007199254740991', '9007199254740995', '1e3', '12.5'].entries()) {
      const id = `rv15-counter-${n}`;
      assert.equal(await store.create({ id, createdAt: Date.now(), prompts: 0, options: {} }), true);
      await raw.set('wasmhooks:fences', bad);
      await assert.rejects(store.acquire(id, 'r', 60_000), (e: Error & { code?: string }) => e.code === 'STORE_UNAVAILABLE' && /wasmhooks:fences/.test(e.message), bad);
      assert.equal(await raw.hget(`wasmhooks:s:${id}`, 'running'), null, `${bad}: not marked running`);
      assert.equal(await raw.exists(`wasmhooks:lease:${id}`), 0, `${bad}: no lease taken`);
      // Repaired: prompts start again, with a token above the counter.
      await raw.set('wasmhooks:fences', '41');
      assert.equal(await store.acquire(id, 'r', 60_000), 42);
      await store.release(id, 'r');
    }
  } finally {
    await opened.close();
  }
}
