// rv14: the data directory's lock file is read only as a regular file at that name. A `.wasmhooks/sessions/.lock`
// that came with a clone as a FIFO hung the store's start (open for reading waits for a writer), and one that is
// a link to /dev/zero was read until memory ran out. Now: STORE_UNAVAILABLE at once, naming the file.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from '../../host/store/dir-lock.js';

const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<'hung'>((r) => setTimeout(() => r('hung'), ms))]);

describe.skipIf(process.platform === 'win32')('the lock file is never a FIFO, a device or a link', () => {
  it('a FIFO .lock does not hang the start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rv14-lock-'));
    execFileSync('mkfifo', [join(dir, '.lock')]);
    const got = await within(lockDataDir(dir).then(() => 'locked', (e: Error) => e.message), 5_000);
    expect(got).toMatch(/\.lock is not a regular file .*remove it/);
  });

  it('a .lock linked to /dev/zero is not read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rv14-lock-'));
    symlinkSync('/dev/zero', join(dir, '.lock'));
    const got = await within(lockDataDir(dir).then(() => 'locked', (e: Error) => e.message), 5_000);
    expect(got).toMatch(/\.lock is not a regular file/);
    expect(lstatSync(join(dir, '.lock')).isSymbolicLink()).toBe(true);
  });
});
