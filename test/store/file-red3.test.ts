// Hostile review red3 of the data directory: who can read it, and what a
// damaged session record does at start-up.
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../host/store/file.js';

const dataDir = () => join(mkdtempSync(join(tmpdir(), 'wasmhooks-red3-')), 'data');
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);
let stores: FileSessionStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});
async function open(dir: string) {
  const store = await FileSessionStore.open(dir);
  stores.push(store);
  return store;
}

describe.skipIf(process.platform === 'win32')('the data directory is private to its user', () => {
  it('makes sessions/ 0700 and every record and transcript 0600, whatever the umask', async () => {
    const dir = dataDir();
    const umask = process.umask(0o000);
    try {
      const store = await open(dir);
      await store.create({ id: 's1', createdAt: 1, prompts: 0, options: {} });
      await store.appendMessages('s1', [{ role: 'user', content: 'my API key is sk-…' }]);
      await store.sync('s1');
      await store.create({ id: 's2', createdAt: 2, prompts: 0, options: {} });
      await store.replaceMessages('s2', [{ role: 'user', content: 'compacted' }]);
      await store.update('s2', { prompts: 1 });
    } finally {
      process.umask(umask);
    }
    expect(modeOf(join(dir, 'sessions'))).toBe('700');
    for (const name of ['s1.json', 's1.jsonl', 's2.json', 's2.jsonl']) expect(modeOf(join(dir, 'sessions', name)), name).toBe('600');
  });

  it('tightens a sessions/ directory an older version left readable by others', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'sessions'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dir, 'sessions', 'old.jsonl'), '{"role":"user","content":"old"}\n', { mode: 0o644 });
    await open(dir);
    expect(modeOf(join(dir, 'sessions'))).toBe('700');
  });
});

describe('a damaged session record', () => {
  it('is never truncated away: the store refuses to open, naming the file, and the bytes stay for the operator', async () => {
    const dir = dataDir();
    const store = await open(dir);
    await store.create({ id: 'kept', createdAt: 1, prompts: 3, options: { maxTurns: 5 } });
    await store.close();
    stores = [];
    // Records are replaced atomically, so a torn one means outside damage (a disk, a hand edit).
    const path = join(dir, 'sessions', 'kept.json');
    const torn = readFileSync(path, 'utf8').slice(0, 20);
    writeFileSync(path, torn);
    await expect(FileSessionStore.open(dir)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/kept\.json is not a session record.*move it aside/) });
    expect(readFileSync(path, 'utf8')).toBe(torn);
  });
});
