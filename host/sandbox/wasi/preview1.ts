/**
 * WASI preview1, one implementation for Node, Deno and Bun, deny by default.
 * Every function is charged fuel and checks the deadline on entry; work that
 * grows with an argument (bytes written, read, randomised; directory
 * entries) is charged by it, and is capped per call. What a plugin was not
 * granted answers ENOTCAPABLE (or EROFS for writes to a granted directory).
 */
import type { Meter } from '../meter.js';
import { ProcExit, charge, bytesFuel, BYTES_PER_FUEL } from '../host-call.js';
import { HOST_CALL_FUEL } from '../instrument/hostcalls.js';
import { Files } from './files.js';
import { Errno, Fault, Guest } from './guest.js';
import type { WasiConfig } from './options.js';
import { pollOneoff } from './poll.js';
import { CLOCK_STEP_NS, coarseMonotonicNs, isClockId } from './clock.js';
import { LineSink, type StdioLevel } from './stdio.js';
import { concatBytes } from '../../bytes.js';

const MAX_PATH_BYTES = 4096;
/** Bytes one `fd_write` to stdout/stderr takes; more is a short write (the caller loops). */
export const MAX_WRITE_BYTES = 64 * 1024;
/** Fuel per iovec of fd_write/fd_read/fd_pread, on top of the call's and the bytes': that of a constant-time Extism accessor. */
export const IOVEC_FUEL = HOST_CALL_FUEL;

export interface WasiHost {
  meter(): Meter | null;
  /** A line the plugin wrote to stdout (`info`) or stderr (`warn`). */
  log(level: StdioLevel, line: string): void;
}

type Fn = (...args: never[]) => number | void;

export class Wasi {
  readonly guest = new Guest();
  #files: Files;
  readonly #out: Record<'stdout' | 'stderr', LineSink>;

  constructor(
    readonly config: WasiConfig,
    private readonly host: WasiHost,
  ) {
    this.#files = new Files(this.guest, config.preopens);
    this.#out = { stdout: new LineSink('info', host.log), stderr: new LineSink('warn', host.log) };
  }

  /** A fresh instance starts with fresh descriptors (the granted trees are shared, read-only). */
  attach(memory: WebAssembly.Memory | null): void {
    this.guest.attach(memory);
    this.#files = new Files(this.guest, this.config.preopens);
  }

  /** Passes on what is left of unfinished lines (at the end of a call). */
  flush(): void {
    this.#out.stdout.flush();
    this.#out.stderr.flush();
  }

  /** The `wasi_snapshot_preview1` functions (each charged and checked by its import wrapper, host-call.ts), faults as EFAULT. */
  imports(): Record<string, (...args: never[]) => unknown> {
    const gated: Record<string, (...args: never[]) => unknown> = {};
    for (const [name, fn] of Object.entries(this.#functions())) gated[name] = this.#gate(fn);
    for (const name of DENIED) gated[name] ??= this.#gate(() => Errno.NOTCAPABLE);
    return gated;
  }

  #gate(fn: Fn): (...args: never[]) => number | void {
    return (...args: never[]) => {
      try {
        return fn(...args);
      } catch (error) {
        if (error instanceof Fault || error instanceof RangeError) return Errno.FAULT;
        throw error;
      }
    };
  }

  /** Each iovec is host work whatever its length (read, bounds-checked, copied from): charged like a constant-time accessor call. */
  #chargeIovecs(count: number): void {
    if (count > 0) charge(this.host.meter(), count * IOVEC_FUEL);
  }

  #charge(bytes: number): void {
    if (bytes >= BYTES_PER_FUEL) charge(this.host.meter(), bytesFuel(bytes));
  }

  #strings(list: string[], ptrs: number, buf: number): number {
    const encoder = new TextEncoder();
    for (const s of list) {
      const bytes = encoder.encode(s);
      this.guest.u32(ptrs, buf);
      this.guest.bytes(buf, bytes.length + 1).set([...bytes, 0]);
      ptrs += 4;
      buf += bytes.length + 1;
    }
    this.#charge(buf);
    return Errno.SUCCESS;
  }

  #sizes(list: string[], count: number, size: number): number {
    this.guest.u32(count, list.length);
    this.guest.u32(size, list.reduce((n, s) => n + new TextEncoder().encode(s).length + 1, 0));
    return Errno.SUCCESS;
  }

  #write(fd: number, iovs: number, count: number, written: number): number {
    const d = this.#files.get(fd);
    if (!d) return Errno.BADF;
    // Granted files are read-only; stdin is not for writing.
    if (d.kind !== 'stdout' && d.kind !== 'stderr') return Errno.BADF;
    const vecs = this.guest.iovecs(iovs, count);
    if (!vecs) return Errno.INVAL;
    this.#chargeIovecs(vecs.length);
    // One sink write per call: a write per iovec decoded and scanned the pending line each time, so
    // 1,024 empty or 1-byte iovecs cost ~300 µs of host time for 1,000 fuel (1,500× a plugin's own code).
    let total = 0;
    const parts: Uint8Array[] = [];
    for (const [buf, len] of vecs) {
      const take = Math.min(len, MAX_WRITE_BYTES - total);
      if (take > 0) parts.push(this.guest.bytes(buf, take));
      total += take;
      if (total >= MAX_WRITE_BYTES) break;
    }
    this.#charge(total);
    this.#out[d.kind].write(parts.length === 1 ? parts[0]! : concatBytes(parts, total));
    this.guest.u32(written, total);
    return Errno.SUCCESS;
  }

  #read(fd: number, iovs: number, count: number, nread: number, at?: bigint): number {
    const d = this.#files.get(fd);
    if (!d) return Errno.BADF;
    if (d.kind === 'dir') return Errno.ISDIR;
    if (d.kind === 'stdout' || d.kind === 'stderr') return Errno.BADF;
    const vecs = this.guest.iovecs(iovs, count);
    if (!vecs) return Errno.INVAL;
    this.#chargeIovecs(vecs.length);
    if (at !== undefined && (at < 0n || at > BigInt(Number.MAX_SAFE_INTEGER))) return Errno.INVAL;
    const total = this.#files.read(d, vecs, at === undefined ? undefined : Number(at));
    this.#charge(total);
    this.guest.u32(nread, total);
    return Errno.SUCCESS;
  }

  #functions(): Record<string, Fn> {
    const g = this.guest;
    const files = () => this.#files;
    return {
      args_sizes_get: (count: number, size: number) => this.#sizes(this.config.args, count, size),
      args_get: (ptrs: number, buf: number) => this.#strings(this.config.args, ptrs, buf),
      environ_sizes_get: (count: number, size: number) => this.#sizes(this.config.env, count, size),
      environ_get: (ptrs: number, buf: number) => this.#strings(this.config.env, ptrs, buf),
      clock_res_get: (id: number, out: number) => {
        if (!isClockId(id)) return Errno.INVAL;
        g.u64(out, id === 0 ? 1_000_000n : CLOCK_STEP_NS);
        return Errno.SUCCESS;
      },
      clock_time_get: (id: number, _precision: bigint, out: number) => {
        if (!isClockId(id)) return Errno.INVAL;
        g.u64(out, id === 0 ? BigInt(Date.now()) * 1_000_000n : coarseMonotonicNs());
        return Errno.SUCCESS;
      },
      random_get: (buf: number, len: number) => {
        const target = g.bytes(buf, len);
        this.#charge(len);
        for (let at = 0; at < len; at += 65_536) crypto.getRandomValues(target.subarray(at, Math.min(len, at + 65_536)));
        return Errno.SUCCESS;
      },
      fd_write: (fd: number, iovs: number, count: number, written: number) => this.#write(fd, iovs, count, written),
      fd_read: (fd: number, iovs: number, count: number, nread: number) => this.#read(fd, iovs, count, nread),
      fd_pread: (fd: number, iovs: number, count: number, offset: bigint, nread: number) =>
        this.#read(fd, iovs, count, nread, offset),
      fd_seek: (fd: number, offset: bigint, whence: number, out: number) => {
        const d = files().get(fd);
        if (!d) return Errno.BADF;
        const failed = files().seek(d, offset, whence);
        if (failed >= 0) return failed;
        g.u64(out, d.kind === 'file' ? d.pos : 0);
        return Errno.SUCCESS;
      },
      fd_tell: (fd: number, out: number) => {
        const d = files().get(fd);
        if (!d) return Errno.BADF;
        if (d.kind !== 'file') return Errno.SPIPE;
        g.u64(out, d.pos);
        return Errno.SUCCESS;
      },
      fd_close: (fd: number) => files().close(fd),
      fd_fdstat_get: (fd: number, out: number) => files().fdstat(fd, out),
      fd_fdstat_set_flags: (fd: number, flags: number) => (!files().get(fd) ? Errno.BADF : flags === 0 ? Errno.SUCCESS : Errno.NOTSUP),
      fd_filestat_get: (fd: number, out: number) => {
        const d = files().get(fd);
        return d ? files().filestat(d, out) : Errno.BADF;
      },
      fd_prestat_get: (fd: number, out: number) => files().prestat(fd, out),
      fd_prestat_dir_name: (fd: number, ptr: number, len: number) => files().prestatName(fd, ptr, len),
      fd_readdir: (fd: number, buf: number, len: number, cookie: bigint, used: number) => {
        const d = files().get(fd);
        if (!d) return Errno.BADF;
        if (d.kind !== 'dir') return Errno.NOTDIR;
        const result = files().readdir(d, buf, len, cookie);
        this.#charge(result.used + d.node.entries.size * 4);
        g.u32(used, result.used);
        return Errno.SUCCESS;
      },
      fd_advise: (fd: number) => (files().get(fd) ? Errno.SUCCESS : Errno.BADF),
      fd_sync: (fd: number) => (files().get(fd) ? Errno.SUCCESS : Errno.BADF),
      fd_datasync: (fd: number) => (files().get(fd) ? Errno.SUCCESS : Errno.BADF),
      path_open: (
        fd: number,
        _dirflags: number,
        path: number,
        pathLen: number,
        oflags: number,
        _rights: bigint,
        _inheriting: bigint,
        _fdflags: number,
        out: number,
      ) => {
        if (pathLen > MAX_PATH_BYTES) return Errno.NAMETOOLONG;
        this.#charge(pathLen);
        return files().open(fd, g.string(path, pathLen), oflags, out);
      },
      path_filestat_get: (fd: number, _flags: number, path: number, pathLen: number, out: number) => {
        if (pathLen > MAX_PATH_BYTES) return Errno.NAMETOOLONG;
        this.#charge(pathLen);
        const found = files().lookup(fd, g.string(path, pathLen));
        return typeof found === 'number' ? found : files().filestat(found, out);
      },
      path_readlink: () => Errno.INVAL,
      poll_oneoff: (inPtr: number, outPtr: number, count: number, nevents: number) =>
        pollOneoff(this.guest, this.#files, this.host.meter(), { inPtr, outPtr, count, nevents }),
      proc_exit: (code: number) => {
        throw new ProcExit(code >>> 0);
      },
      proc_raise: () => Errno.NOTSUP,
      sched_yield: () => Errno.SUCCESS,
    };
  }
}

/** The rest of preview1: writes, links, sockets. Answered ENOTCAPABLE. */
const DENIED = [
  'fd_allocate',
  'fd_fdstat_set_rights',
  'fd_filestat_set_size',
  'fd_filestat_set_times',
  'fd_pwrite',
  'fd_renumber',
  'path_create_directory',
  'path_filestat_set_times',
  'path_link',
  'path_remove_directory',
  'path_rename',
  'path_symlink',
  'path_unlink_file',
  'sock_accept',
  'sock_recv',
  'sock_send',
  'sock_shutdown',
];

let names: ReadonlySet<string> | undefined;

/** Every preview1 function name this layer provides. */
export function preview1Functions(): ReadonlySet<string> {
  names ??= new Set(Object.keys(new Wasi({ args: [], env: [], preopens: [] }, { meter: () => null, log: () => undefined }).imports()));
  return names;
}

export { CLOCK_STEP_NS } from './clock.js';
