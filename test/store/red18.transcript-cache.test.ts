// Review red18: the file store kept every transcript it ever read in memory, for as long as the process ran:
// a client reading each session's messages in turn made the server hold the whole data directory. Loaded
// transcripts are now kept within `maxCachedTranscriptBytes` (least recently used dropped first, re-read from
// the file when needed); one in use is never dropped halfway.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../host/models/types.js';
import { FileSessionStore } from '../../host/store/file.js';
import { openStore } from '../../host/store/open.js';

const message = (n: number, size: number): Message => ({ role: 'user', content: `${n}:${'x'.repeat(size)}` });

/** A data directory of `sessions` sessions whose transcripts hold `perSession` messages of ~`size` characters. */
async function dataDir(sessions: number, perSession: number, size: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'red18-cache-'));
  const { store, close } = await openStore({ kind: 'file', dataDir: dir });
  for (let s = 0; s < sessions; s++) {
    await store.create({ id: `s${s}`, createdAt: s, prompts: 0, options: {} });
    await writeFile((store as FileSessionStore).transcriptPath(`s${s}`), Array.from({ length: perSession }, (_, i) => `${JSON.stringify(message(i, size))}\n`).join(''));
  }
  await close();
  return dir;
}

/** Sessions whose conversation the store holds in memory now. */
const held = (store: FileSessionStore) => (store as unknown as { conversations: Map<string, unknown> }).conversations.size;

describe('red18: the file store keeps loaded transcripts within a byte cap', () => {
  it('reading every session holds at most maxCachedTranscriptBytes of them, and every read is whole', async () => {
    // 40 sessions of ~100 KB; a 300 KB cap keeps two or three of them.
    const dir = await dataDir(40, 10, 10_000);
    const { store, close } = await openStore({ kind: 'file', dataDir: dir, maxCachedTranscriptBytes: 300_000 });
    const file = store as FileSessionStore;
    for (let round = 0; round < 2; round++) {
      for (let s = 0; s < 40; s++) {
        const messages = await store.messages(`s${s}`);
        expect(messages).toHaveLength(10);
        expect(messages[9]).toEqual(message(9, 10_000));
        expect(file.cachedBytes).toBeLessThanOrEqual(300_000);
        expect(held(file)).toBeLessThanOrEqual(3);
      }
    }
    expect(await store.messageCount('s0')).toBe(10);
    await close();
  });

  it('an append to a dropped transcript re-reads it first: nothing is lost, in memory or on disk', async () => {
    const dir = await dataDir(3, 10, 10_000);
    const { store, close } = await openStore({ kind: 'file', dataDir: dir, maxCachedTranscriptBytes: 150_000 });
    expect(await store.messageCount('s0')).toBe(10);
    // s1 and s2 push s0 out.
    await store.messages('s1');
    await store.messages('s2');
    expect(held(store as FileSessionStore)).toBe(1);
    expect(await store.appendMessages('s0', [message(10, 5)])).toBe(true);
    expect((await store.messages('s0')).map((m) => (m.content as string).split(':')[0])).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    await close();
    const again = await openStore({ kind: 'file', dataDir: dir });
    expect(await again.store.messageCount('s0')).toBe(11);
    await again.close();
  });

  it('concurrent reads of many sessions under a tiny cap all read whole (one in use is never dropped halfway)', async () => {
    const dir = await dataDir(20, 5, 2_000);
    const { store, close } = await openStore({ kind: 'file', dataDir: dir, maxCachedTranscriptBytes: 1 });
    const counts = await Promise.all(Array.from({ length: 60 }, (_, i) => store.messages(`s${i % 20}`).then((m) => m.length)));
    expect(counts).toEqual(Array(60).fill(5));
    expect(held(store as FileSessionStore)).toBeLessThanOrEqual(1);
    await close();
  });

  it('the cap is checked as an option: a negative or fractional one is INVALID_OPTIONS naming it', async () => {
    for (const bad of [-1, 1.5, '10']) {
      await expect(openStore({ kind: 'file', dataDir: '/nonexistent', maxCachedTranscriptBytes: bad as number })).rejects.toMatchObject({
        code: 'INVALID_OPTIONS',
        message: expect.stringMatching(/maxCachedTranscriptBytes/),
      });
    }
  });
});
