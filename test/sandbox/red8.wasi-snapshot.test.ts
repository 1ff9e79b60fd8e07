// Red review (red8), class "checked as one file, read as another": a WASI preopen is listed, then
// each entry read by path. The old snapshot trusted the listing's type and read with readFile,
// which follows a symlink swapped in meanwhile (a file outside the grant joins the snapshot) and
// reads a FIFO or device until memory runs out. Each test fails on the code before the fix.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdtemp, mkdir, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshotDirectory } from '../../host/sandbox/wasi/snapshot.js';

const realReaddir = fsp.readdir;
afterEach(() => {
  fsp.readdir = realReaddir;
  syncBuiltinESMExports();
});

/**
 * Runs `swap` right after the first listing (the window between listing and reading). The first
 * listing is the root's (`dir`); it may be read through its open handle (/proc/self/fd/N), not by `dir`.
 */
function afterListing(_dir: string, swap: () => Promise<void>): void {
  let done = false;
  fsp.readdir = (async (...args: Parameters<typeof realReaddir>) => {
    const listed = await (realReaddir as (...a: unknown[]) => Promise<unknown>)(...args);
    if (!done) {
      done = true;
      await swap();
    }
    return listed;
  }) as typeof realReaddir;
  syncBuiltinESMExports();
}

async function fixture() {
  const base = await mkdtemp(join(tmpdir(), 'red8-wasi-'));
  const grant = join(base, 'grant');
  await mkdir(join(grant, 'sub'), { recursive: true });
  await writeFile(join(grant, 'a.txt'), 'granted');
  await writeFile(join(grant, 'sub', 'b.txt'), 'granted too');
  await writeFile(join(base, 'secret'), 'SECRET outside the grant');
  await mkdir(join(base, 'elsewhere'));
  await writeFile(join(base, 'elsewhere', 'b.txt'), 'SECRET in another directory');
  return { base, grant, cleanup: () => rm(base, { recursive: true, force: true }) };
}

const budget = () => ({ entries: 0, bytes: 0 });
const text = (n: unknown) => new TextDecoder().decode((n as { data: Uint8Array }).data);

describe('a WASI preopen snapshot reads what it listed, or nothing', () => {
  it('reads an ordinary tree', async () => {
    const { grant, cleanup } = await fixture();
    try {
      const root = await snapshotDirectory(grant, budget(), 'p');
      expect(text(root.entries.get('a.txt'))).toBe('granted');
      expect(text((root.entries.get('sub') as { entries: Map<string, unknown> }).entries.get('b.txt'))).toBe('granted too');
    } finally {
      await cleanup();
    }
  });

  it('a file swapped for a symlink to a file outside the grant, after the listing: refused, never read', async () => {
    const { base, grant, cleanup } = await fixture();
    try {
      afterListing(grant, async () => {
        await unlink(join(grant, 'a.txt'));
        await symlink(join(base, 'secret'), join(grant, 'a.txt'));
      });
      await expect(snapshotDirectory(grant, budget(), 'p')).rejects.toThrow(/a\.txt changed while it was read/);
    } finally {
      await cleanup();
    }
  });

  it('a directory swapped for a symlink to another directory, after the listing: refused', async () => {
    const { base, grant, cleanup } = await fixture();
    try {
      afterListing(grant, async () => {
        await rm(join(grant, 'sub'), { recursive: true });
        await symlink(join(base, 'elsewhere'), join(grant, 'sub'));
      });
      await expect(snapshotDirectory(grant, budget(), 'p')).rejects.toThrow(/sub changed while it was read/);
    } finally {
      await cleanup();
    }
  });

  it('a file swapped for a symlink to /dev/zero after the listing is refused, not read until memory runs out', async () => {
    const { grant, cleanup } = await fixture();
    try {
      afterListing(grant, async () => {
        await unlink(join(grant, 'a.txt'));
        await symlink('/dev/zero', join(grant, 'a.txt'));
      });
      await expect(snapshotDirectory(grant, budget(), 'p')).rejects.toThrow(/changed while it was read/);
    } finally {
      await cleanup();
    }
  }, 20_000);

  // fin1: opening a FIFO for reading waits for a writer, so the check after the open never ran and
  // the load hung (a libuv thread held) until someone wrote to it. Opened non-blocking, it is refused.
  it.skipIf(process.platform === 'win32')('a file swapped for a FIFO after the listing is refused, not waited on at its open', async () => {
    const { grant, cleanup } = await fixture();
    const fifo = join(grant, 'a.txt');
    try {
      afterListing(grant, async () => {
        await unlink(fifo);
        execFileSync('mkfifo', [fifo]);
      });
      const loaded = snapshotDirectory(grant, budget(), 'p');
      const hung = new Promise((resolve) => setTimeout(() => resolve('still waiting at the open'), 3_000));
      await expect(Promise.race([loaded.then(() => 'loaded', (e: Error) => e.message), hung])).resolves.toMatch(/changed while it was read/);
    } finally {
      // A reader still blocked at its open (the code before the fix) is released by a writer.
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // no reader waiting
      }
      await cleanup();
    }
  }, 20_000);

  it('a file past the byte budget is refused by its size, before it is read', async () => {
    const { grant, cleanup } = await fixture();
    try {
      await expect(snapshotDirectory(grant, { entries: 0, bytes: 64 * 1024 * 1024 - 3 }, 'p')).rejects.toThrow(/more than 67108864 bytes/);
    } finally {
      await cleanup();
    }
  });
});
