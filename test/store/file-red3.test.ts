// Hostile review red3 of the data directory: who can read it, what a
// damaged session record does at start-up, and two processes on one directory.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
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

describe('one process per data directory', () => {
  it('a second store on the same directory is refused while the first is open, and opens once it is closed', async () => {
    const dir = dataDir();
    const first = await open(dir);
    await first.create({ id: 's1', createdAt: 1, prompts: 0, options: {} });
    // Before: both opened; each kept its own records and leases, so both could run a prompt on s1 and the last
    // record written won (an update of one overwrote the other's).
    await expect(FileSessionStore.open(dir)).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringMatching(new RegExp(`in use by process ${process.pid}: one process serves a data directory.*--store redis://`)),
    });
    await first.close();
    stores = [];
    const second = await open(dir);
    expect((await second.get('s1'))?.id).toBe('s1');
  });

  it('removes the temporary files of replacements a crash cut short, and nothing else', async () => {
    const dir = dataDir();
    await open(dir);
    await stores[0]!.close();
    stores = [];
    const sessions = join(dir, 'sessions');
    const leftover = join(sessions, 's1.json.0f8c5a0e-6a1b-4f5e-9a43-1c2d3e4f5a6b.tmp');
    writeFileSync(leftover, '{"id":"s1","crea');
    writeFileSync(join(sessions, 'notes.tmp'), 'kept');
    await open(dir);
    expect(readdirSync(sessions).sort()).toEqual(['.lock', 'notes.tmp']);
  });

  it('takes over the lock of a process that is gone (a crash), and never removes a lock it does not hold', async () => {
    const dir = dataDir();
    await open(dir);
    await stores[0]!.close();
    stores = [];
    const lock = join(dir, 'sessions', '.lock');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    writeFileSync(lock, `${JSON.stringify({ pid: dead, host: hostname(), nonce: 'old' })}\n`);
    const store = await open(dir);
    const mine = readFileSync(lock, 'utf8');
    expect(JSON.parse(mine)).toMatchObject({ pid: process.pid });
    // A lock cut short by a crash between create and write is free too.
    await store.close();
    stores = [];
    writeFileSync(lock, '{"pid":');
    const again = await open(dir);
    // Someone replaced the lock (an operator clearing it by hand, another process taking over): closing leaves theirs.
    writeFileSync(lock, `${JSON.stringify({ pid: 1, host: hostname(), nonce: 'theirs' })}\n`);
    await again.close();
    stores = [];
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ nonce: 'theirs' });
  });
});
