// The data directory's lock: of processes taking over a crashed process's lock at the same moment,
// exactly one holds it (each step is atomic: no contender removes a lock another has just taken).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from '../../host/store/dir-lock.js';

const CONTENDER = resolve(import.meta.dirname, '../fixtures/store/lock-contender.ts');
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid as number;

/** A directory whose lock was left by a process that is gone. */
function crashed(dead: number, content?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-lock-'));
  writeFileSync(join(dir, '.lock'), content ?? `${JSON.stringify({ pid: dead, host: hostname(), nonce: 'crashed' })}\n`);
  return dir;
}

describe.skipIf(process.platform === 'win32')('lockDataDir', () => {
  it('of stores taking over a stale lock at once, exactly one wins, every time', async () => {
    const dead = deadPid();
    for (let trial = 0; trial < 40; trial++) {
      // A whole stale lock, and one cut short by a crash between create and write.
      const dir = crashed(dead, trial % 2 === 0 ? undefined : '{"pid":');
      const results = await Promise.allSettled(Array.from({ length: 4 }, () => lockDataDir(dir)));
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won, `trial ${trial}`).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'STORE_UNAVAILABLE' });
      const holder = JSON.parse(readFileSync(join(dir, '.lock'), 'utf8')) as { pid: number };
      expect(holder.pid).toBe(process.pid);
      await won[0]!.value();
      // Nothing is left behind: no lock, no claim, no temporary file.
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it('of processes taking over a stale lock at once, exactly one wins', async () => {
    const dead = deadPid();
    for (let trial = 0; trial < 3; trial++) {
      const dir = crashed(dead);
      const children = Array.from({ length: 4 }, () =>
        spawn(process.execPath, ['--import', 'tsx', CONTENDER, dir], { stdio: ['pipe', 'pipe', 'inherit'] }),
      );
      const lines = children.map((child) => {
        const said: string[] = [];
        let buffer = '';
        const waiters: Array<() => void> = [];
        child.stdout!.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          const parts = buffer.split('\n');
          buffer = parts.pop()!;
          said.push(...parts);
          for (const w of waiters.splice(0)) w();
        });
        return async (count: number) => {
          while (said.length < count) await new Promise<void>((r) => waiters.push(r));
          return said[count - 1]!;
        };
      });
      try {
        for (const next of lines) expect(await next(1)).toBe('ready');
        // All at once: one write each, in the same tick.
        for (const child of children) child.stdin!.write('go\n');
        const answers = await Promise.all(lines.map((next) => next(2)));
        expect(answers.filter((a) => a === 'won'), answers.join(', ')).toHaveLength(1);
        expect(answers.filter((a) => a === 'refused STORE_UNAVAILABLE')).toHaveLength(3);
      } finally {
        for (const child of children) child.stdin!.end();
        await Promise.all(children.map((child) => new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)))));
      }
    }
  }, 60_000);

  it('refuses while the holder lives, and takes a claim left by a process that crashed while taking over', async () => {
    const dead = deadPid();
    const dir = crashed(dead);
    const release = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining(`process ${process.pid}`) });
    await release();
    // A stale lock and a stale claim on it (its claimant crashed before removing the lock).
    writeFileSync(join(dir, '.lock'), `${JSON.stringify({ pid: dead, host: hostname(), nonce: 'crashed' })}\n`);
    const lock = join(dir, '.lock');
    const stat = statSync(lock);
    // The claim's name, as dir-lock.ts names a lock file: its inode, mtime and content.
    const generation = createHash('sha256').update(`${stat.ino}:${stat.mtimeMs}:${readFileSync(lock, 'utf8')}`).digest('hex').slice(0, 32);
    writeFileSync(`${lock}.${generation}.claim`, `${JSON.stringify({ pid: dead, host: hostname(), nonce: 'claimant' })}\n`);
    const again = await lockDataDir(dir);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid });
    await again();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe.skipIf(process.platform === 'win32')('lockDataDir leftovers (red6)', () => {
  it('removes the claims of processes that are gone, not those of live ones', async () => {
    const dead = deadPid();
    const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-lock-'));
    const hex = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 32);
    // A take-over that crashed after replacing the lock, before removing its claim (and a claim on that claim).
    const orphan = `.lock.${hex('a')}.claim`;
    const nested = `.lock.${hex('b')}.claim.${hex('c')}.claim`;
    const live = `.lock.${hex('d')}.claim`;
    const other = 'notes.lock.claim';
    writeFileSync(join(dir, orphan), `${JSON.stringify({ pid: dead, host: hostname(), nonce: 'x' })}\n`);
    writeFileSync(join(dir, nested), `${JSON.stringify({ pid: dead, host: hostname(), nonce: 'y' })}\n`);
    writeFileSync(join(dir, live), `${JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'z' })}\n`);
    writeFileSync(join(dir, other), 'not ours');
    const release = await lockDataDir(dir);
    expect(readdirSync(dir).sort()).toEqual(['.lock', live, other].sort());
    await release();
  });
});
