// Review (rv7) of red8's WASI preopen snapshot: O_NOFOLLOW guards only a path's last part. A
// directory on the way (grant/sub) swapped for a symlink after it was listed and checked redirected
// the read of grant/sub/b.txt to elsewhere/b.txt: a file outside the grant joined the snapshot.
import fsp, { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshotDirectory } from '../../host/sandbox/wasi/snapshot.js';

const realOpen = fsp.open;
afterEach(() => {
  fsp.open = realOpen;
  syncBuiltinESMExports();
});

describe('a WASI preopen reads each entry through its own directory', () => {
  it('a directory swapped for a symlink after its check cannot redirect the reads below it', async () => {
    const base = await mkdtemp(join(tmpdir(), 'rv7-wasi-'));
    try {
      const grant = join(base, 'grant');
      await mkdir(join(grant, 'sub'), { recursive: true });
      await writeFile(join(grant, 'sub', 'b.txt'), 'granted');
      await mkdir(join(base, 'elsewhere'));
      await writeFile(join(base, 'elsewhere', 'b.txt'), 'SECRET outside the grant');
      let swapped = false;
      // Just before b.txt is opened (sub was listed and checked): sub becomes a symlink to elsewhere.
      fsp.open = (async (...args: Parameters<typeof realOpen>) => {
        if (!swapped && String(args[0]).endsWith('/b.txt')) {
          swapped = true;
          await rename(join(grant, 'sub'), join(base, 'moved'));
          await symlink(join(base, 'elsewhere'), join(grant, 'sub'));
        }
        return realOpen(...args);
      }) as typeof realOpen;
      syncBuiltinESMExports();
      const read = await snapshotDirectory(grant, { entries: 0, bytes: 0 }, 'p').then(
        (root) => new TextDecoder().decode(((root.entries.get('sub') as { entries: Map<string, { data: Uint8Array }> }).entries.get('b.txt')!).data),
        (e: unknown) => String(e),
      );
      expect(swapped).toBe(true);
      // The old snapshot read elsewhere/b.txt; now the directory it listed and holds open (moved, not gone).
      expect(read).not.toMatch(/SECRET/);
      expect(read).toBe('granted');
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
