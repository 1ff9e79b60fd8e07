/**
 * Read-only preopened directories are read once, when the plugin loads: the
 * plugin then sees a fixed tree in memory, which no later change on disk, no
 * symlink and no `..` can widen. The file system is reached through
 * `node:fs/promises` (Node, Deno and Bun all provide it), imported only when
 * a directory is granted, so the sandbox core stays web-standard.
 */
import { WasmhooksError, messageOf } from '../../errors.js';

export interface FileNode {
  kind: 'file';
  data: Uint8Array;
}
export interface DirNode {
  kind: 'dir';
  entries: Map<string, FileNode | DirNode>;
}

/** Caps on all the directories granted to one plugin together. */
const MAX_PREOPEN_BYTES = 64 << 20;
const MAX_PREOPEN_ENTRIES = 10_000;
const MAX_DEPTH = 32;

/**
 * Reads `dir` into a tree, charging `budget` (shared by a plugin's preopens).
 *
 * Every directory and file is opened with O_NOFOLLOW (and directories with O_DIRECTORY), and each
 * file is read through the handle that was checked to be a regular file, at most its size: an entry
 * that becomes a symlink, a FIFO or a device between the listing and the read (someone who can write
 * in the granted directory while the plugin loads) refuses the load instead of reading what it
 * points to, or reading forever. A directory whose identity changed while it was listed is refused
 * too. The root itself may be a symlink: the operator named it.
 */
export async function snapshotDirectory(
  dir: string,
  budget: { entries: number; bytes: number },
  plugin: string,
): Promise<DirNode> {
  const fs = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  const noFollow = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);
  const refuse = (why: string): never => {
    throw new WasmhooksError('INVALID_OPTIONS', `wasi preopen ${dir} of ${plugin}: ${why}`);
  };
  const changed = (path: string) => refuse(`${path} changed while it was read (it is now a symlink or not what it was listed as); not loaded`);
  /** Opens `opened` (the path, or the entry through its directory's handle); `path` names it in messages. */
  const open = async (opened: string, flags: number, path: string) => {
    try {
      return await fs.open(opened, flags);
    } catch (error) {
      const code = (error as { code?: string }).code;
      return code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT' ? changed(path) : refuse(`cannot read ${path}: ${messageOf(error)}`);
    }
  };
  // Linux (Node, Deno and Bun alike): an entry is opened through its directory's open handle
  // (/proc/self/fd/<fd>/<name>), never by its path from the root. O_NOFOLLOW guards only a path's
  // last part: a directory on the way swapped for a symlink after it was checked would otherwise
  // redirect every read below it (grant/sub/b.txt read from elsewhere/b.txt). Elsewhere: by path.
  const anchored = await fs.stat('/proc/self/fd').then(
    (s) => s.isDirectory(),
    () => false,
  );
  /** The directory open as `handle` (identity `opened`), reached through the handle when this runtime's fd names it. */
  const through = async (handle: { fd: number }, path: string, opened: { ino: number; dev: number }): Promise<string> => {
    if (!anchored || typeof handle.fd !== 'number') return path;
    const here = `/proc/self/fd/${handle.fd}`;
    const seen = await fs.stat(here).catch(() => undefined);
    // A runtime whose `fd` is not the process's descriptor reads by path, as elsewhere.
    return seen && seen.ino === opened.ino && seen.dev === opened.dev ? here : path;
  };
  const readFile = async (path: string, opened: string): Promise<Uint8Array> => {
    // Non-blocking: opening a FIFO to read waits for a writer, and the check below would never run
    // (the load hung, a libuv thread held). A regular file reads the same either way.
    const handle = await open(opened, noFollow | (constants.O_NONBLOCK ?? 0), path);
    try {
      const info = await handle.stat();
      if (!info.isFile()) return changed(path);
      const left = MAX_PREOPEN_BYTES - budget.bytes;
      if (info.size > left) refuse(`more than ${MAX_PREOPEN_BYTES} bytes`);
      // At most its size (one byte more shows it grew): a file cannot make the read run on.
      const data = new Uint8Array(info.size + 1);
      let got = 0;
      for (;;) {
        const { bytesRead } = await handle.read(data, got, data.length - got, got);
        if (bytesRead === 0) break;
        got += bytesRead;
        if (got > info.size) refuse(`${path} grew while it was read`);
      }
      budget.bytes += got;
      return data.slice(0, got);
    } finally {
      await handle.close().catch(() => undefined);
    }
  };
  const walk = async (path: string, opened: string, depth: number, root: boolean): Promise<DirNode> => {
    if (depth > MAX_DEPTH) refuse(`nested deeper than ${MAX_DEPTH} levels`);
    const node: DirNode = { kind: 'dir', entries: new Map() };
    const handle = await open(opened, (root ? constants.O_RDONLY : noFollow) | (constants.O_DIRECTORY ?? 0), path);
    // Open until its entries are read: they are reached through it.
    try {
      let names: Array<{ name: string; isFile(): boolean; isDirectory(): boolean }>;
      const before = await handle.stat();
      const here = await through(handle, path, before);
      try {
        names = await fs.readdir(here, { withFileTypes: true });
      } catch (error) {
        return refuse(`cannot read ${path}: ${messageOf(error)}`);
      }
      // The path still names the directory that was opened (not one swapped in while it was listed).
      const after = await fs.stat(here).catch(() => undefined);
      if (!after || after.ino !== before.ino || after.dev !== before.dev) changed(path);
      for (const entry of names.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (++budget.entries > MAX_PREOPEN_ENTRIES) refuse(`more than ${MAX_PREOPEN_ENTRIES} entries`);
        const child = `${path}/${entry.name}`;
        const childOpened = `${here}/${entry.name}`;
        if (entry.isDirectory()) node.entries.set(entry.name, await walk(child, childOpened, depth + 1, false));
        else if (entry.isFile()) node.entries.set(entry.name, { kind: 'file', data: await readFile(child, childOpened) });
        // Symlinks, sockets, devices: not part of the grant.
      }
    } finally {
      await handle.close().catch(() => undefined);
    }
    return node;
  };
  const top = dir.replace(/\/+$/, '') || '/';
  return walk(top, top, 0, true);
}
