/**
 * The WASI file descriptors of one instance: stdin (always at end of file),
 * stdout and stderr (to the log), the granted read-only directories, and
 * files opened from them. Nothing here reaches the host's file system: the
 * directories are the trees read at load (snapshot.ts). Paths resolve inside
 * the directory they start from; `..` cannot climb above it.
 */
import { Errno, type Guest } from './guest.js';
import type { DirNode, FileNode } from './snapshot.js';

const FILETYPE_CHAR = 2;
const FILETYPE_DIR = 3;
const FILETYPE_FILE = 4;

// Rights (preview1 bit positions): what a read-only grant hands out.
const bit = (n: number) => 1n << BigInt(n);
const READ_FILE = [1, 2, 3, 4, 5, 7, 21, 27].map(bit).reduce((a, b) => a | b);
const READ_DIR = [13, 14, 15, 18, 21].map(bit).reduce((a, b) => a | b);
const WRITE_STREAM = [3, 6, 21, 27].map(bit).reduce((a, b) => a | b);

const OFLAG_CREAT = 1;
const OFLAG_DIRECTORY = 2;
const OFLAG_EXCL = 4;
const OFLAG_TRUNC = 8;

/** Open descriptors per instance, preopens and stdio included. */
export const MAX_OPEN_FDS = 1024;
const MAX_PATH = 4096;

export type Descriptor =
  | { kind: 'stdin' | 'stdout' | 'stderr' }
  | { kind: 'dir'; node: DirNode; preopen?: string }
  | { kind: 'file'; node: FileNode; pos: number };

type Errnum = (typeof Errno)[keyof typeof Errno];

export class Files {
  readonly fds: Array<Descriptor | undefined>;

  constructor(
    private readonly guest: Guest,
    preopens: ReadonlyArray<{ guestPath: string; root: DirNode }>,
  ) {
    this.fds = [{ kind: 'stdin' }, { kind: 'stdout' }, { kind: 'stderr' }];
    for (const p of preopens) this.fds.push({ kind: 'dir', node: p.root, preopen: p.guestPath });
  }

  get(fd: number): Descriptor | undefined {
    return this.fds[fd];
  }

  close(fd: number): Errnum {
    if (!this.fds[fd]) return Errno.BADF;
    this.fds[fd] = undefined;
    return Errno.SUCCESS;
  }

  fdstat(fd: number, ptr: number): Errnum {
    const d = this.fds[fd];
    if (!d) return Errno.BADF;
    const view = this.guest.view();
    this.guest.bytes(ptr, 24).fill(0);
    const [type, base, inheriting] =
      d.kind === 'dir'
        ? [FILETYPE_DIR, READ_DIR, READ_FILE | READ_DIR]
        : d.kind === 'file'
          ? [FILETYPE_FILE, READ_FILE, 0n]
          : [FILETYPE_CHAR, d.kind === 'stdin' ? READ_FILE & ~(bit(2) | bit(5)) : WRITE_STREAM, 0n];
    view.setUint8(ptr, type);
    view.setBigUint64(ptr + 8, base, true);
    view.setBigUint64(ptr + 16, inheriting, true);
    return Errno.SUCCESS;
  }

  filestat(d: Descriptor | FileNode | DirNode, ptr: number): Errnum {
    const view = this.guest.view();
    this.guest.bytes(ptr, 64).fill(0);
    const node = 'node' in d ? d.node : d;
    const type = d.kind === 'stdin' || d.kind === 'stdout' || d.kind === 'stderr' ? FILETYPE_CHAR : node.kind === 'dir' ? FILETYPE_DIR : FILETYPE_FILE;
    view.setUint8(ptr + 16, type);
    view.setBigUint64(ptr + 24, 1n, true);
    if ('kind' in node && node.kind === 'file') view.setBigUint64(ptr + 32, BigInt(node.data.length), true);
    return Errno.SUCCESS;
  }

  prestat(fd: number, ptr: number): Errnum {
    const d = this.fds[fd];
    if (!d || d.kind !== 'dir' || d.preopen === undefined) return Errno.BADF;
    this.guest.u32(ptr, 0);
    this.guest.u32(ptr + 4, new TextEncoder().encode(d.preopen).length);
    return Errno.SUCCESS;
  }

  prestatName(fd: number, ptr: number, len: number): Errnum {
    const d = this.fds[fd];
    if (!d || d.kind !== 'dir' || d.preopen === undefined) return Errno.BADF;
    const name = new TextEncoder().encode(d.preopen);
    if (len < name.length) return Errno.NAMETOOLONG;
    this.guest.bytes(ptr, name.length).set(name);
    return Errno.SUCCESS;
  }

  /** Copies from a file at its position (or `at`); returns the bytes copied. */
  read(d: Descriptor, targets: Array<[number, number]>, at?: number): number {
    if (d.kind !== 'file') return 0;
    let pos = at ?? d.pos;
    let total = 0;
    for (const [buf, len] of targets) {
      const chunk = d.node.data.subarray(pos, pos + len);
      this.guest.bytes(buf, chunk.length).set(chunk);
      pos += chunk.length;
      total += chunk.length;
      if (chunk.length < len) break;
    }
    if (at === undefined) d.pos = pos;
    return total;
  }

  seek(d: Descriptor, offset: bigint, whence: number): number | Errnum {
    if (d.kind !== 'file') return d.kind === 'dir' ? Errno.BADF : Errno.SPIPE;
    const base = whence === 0 ? 0 : whence === 1 ? d.pos : whence === 2 ? d.node.data.length : -1;
    if (base < 0) return Errno.INVAL;
    const next = BigInt(base) + offset;
    if (next < 0n || next > BigInt(Number.MAX_SAFE_INTEGER)) return Errno.INVAL;
    d.pos = Number(next);
    return -1;
  }

  /** Resolves `path` inside the directory `fd`; `..` stays within it. */
  lookup(fd: number, path: string): FileNode | DirNode | Errnum {
    const d = this.fds[fd];
    if (!d) return Errno.BADF;
    if (d.kind !== 'dir') return Errno.NOTDIR;
    if (path.length > MAX_PATH) return Errno.NAMETOOLONG;
    if (path.startsWith('/')) return Errno.NOTCAPABLE;
    const stack: DirNode[] = [d.node];
    let node: FileNode | DirNode = d.node;
    for (const part of path.split('/')) {
      if (part === '' || part === '.') continue;
      if (node.kind !== 'dir') return Errno.NOTDIR;
      if (part === '..') {
        if (stack.length === 1) return Errno.NOTCAPABLE;
        stack.pop();
        node = stack[stack.length - 1]!;
        continue;
      }
      const next: FileNode | DirNode | undefined = node.entries.get(part);
      if (!next) return Errno.NOENT;
      node = next;
      if (next.kind === 'dir') stack.push(next);
    }
    return node;
  }

  open(fd: number, path: string, oflags: number, out: number): Errnum {
    const found = this.lookup(fd, path);
    if (typeof found === 'number') {
      // Creating is writing: a read-only grant says so rather than "not found".
      return found === Errno.NOENT && oflags & OFLAG_CREAT ? Errno.ROFS : found;
    }
    if (oflags & (OFLAG_CREAT | OFLAG_EXCL | OFLAG_TRUNC)) return oflags & OFLAG_EXCL ? Errno.EXIST : Errno.ROFS;
    // Write rights asked for are not granted, as wasi-libc masks them by the
    // directory's inheriting rights (Go asks for every right on every open):
    // the descriptor is read-only, and a write to it is EBADF.
    if (oflags & OFLAG_DIRECTORY && found.kind !== 'dir') return Errno.NOTDIR;
    let slot = this.fds.indexOf(undefined, 3);
    if (slot < 0) {
      if (this.fds.length >= MAX_OPEN_FDS) return Errno.MFILE;
      slot = this.fds.length;
    }
    this.fds[slot] = found.kind === 'dir' ? { kind: 'dir', node: found } : { kind: 'file', node: found, pos: 0 };
    this.guest.u32(out, slot);
    return Errno.SUCCESS;
  }

  /**
   * `fd_readdir`: entries from index `cookie` on, as many as fit; a last
   * entry cut short fills the buffer, which tells the caller to come back.
   * Returns the bytes used and the number of entries visited (for fuel).
   */
  readdir(d: Descriptor, buf: number, len: number, cookie: bigint): { used: number; visited: number } {
    if (d.kind !== 'dir') return { used: 0, visited: 0 };
    const names = [...d.node.entries.keys()];
    const target = this.guest.bytes(buf, len);
    let used = 0;
    // The cookie is a u64 that a wasm i64 hands over signed: 2^63 and up arrive negative. Those, and any
    // cookie at or past the count, are the end (a negative index read names[-1] and threw: red12).
    let index = cookie < 0n || cookie >= BigInt(names.length) ? names.length : Number(cookie);
    let visited = 0;
    for (; index < names.length && used < len; index++, visited++) {
      const name = new TextEncoder().encode(names[index]!);
      const node = d.node.entries.get(names[index]!)!;
      const entry = new Uint8Array(24 + name.length);
      const view = new DataView(entry.buffer);
      view.setBigUint64(0, BigInt(index + 1), true);
      view.setBigUint64(8, BigInt(index + 1), true);
      view.setUint32(16, name.length, true);
      view.setUint8(20, node.kind === 'dir' ? FILETYPE_DIR : FILETYPE_FILE);
      entry.set(name, 24);
      const fits = Math.min(entry.length, len - used);
      target.set(entry.subarray(0, fits), used);
      used += fits;
    }
    return { used, visited };
  }
}
