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

/** Reads `dir` into a tree, charging `budget` (shared by a plugin's preopens). */
export async function snapshotDirectory(
  dir: string,
  budget: { entries: number; bytes: number },
  plugin: string,
): Promise<DirNode> {
  const fs = await import('node:fs/promises');
  const refuse = (why: string): never => {
    throw new WasmhooksError('INVALID_OPTIONS', `wasi preopen ${dir} of ${plugin}: ${why}`);
  };
  const walk = async (path: string, depth: number): Promise<DirNode> => {
    if (depth > MAX_DEPTH) refuse(`nested deeper than ${MAX_DEPTH} levels`);
    const node: DirNode = { kind: 'dir', entries: new Map() };
    let names: Array<{ name: string; isFile(): boolean; isDirectory(): boolean }>;
    try {
      names = await fs.readdir(path, { withFileTypes: true });
    } catch (error) {
      return refuse(`cannot read ${path}: ${messageOf(error)}`);
    }
    for (const entry of names.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (++budget.entries > MAX_PREOPEN_ENTRIES) refuse(`more than ${MAX_PREOPEN_ENTRIES} entries`);
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory()) node.entries.set(entry.name, await walk(child, depth + 1));
      else if (entry.isFile()) {
        const data = new Uint8Array(await fs.readFile(child));
        budget.bytes += data.length;
        if (budget.bytes > MAX_PREOPEN_BYTES) refuse(`more than ${MAX_PREOPEN_BYTES} bytes`);
        node.entries.set(entry.name, { kind: 'file', data });
      }
      // Symlinks, sockets, devices: not part of the grant.
    }
    return node;
  };
  return walk(dir.replace(/\/+$/, '') || '/', 0);
}
