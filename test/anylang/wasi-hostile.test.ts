// The WASI layer against a plugin that lies: pointers out of bounds, huge
// iovec counts, path escapes, descriptor floods, huge sleeps. Driven
// directly (no wasm needed): each function is what an import would call.
import { describe, expect, it, vi } from 'vitest';
import { Meter, StopSignal } from '../../host/sandbox/meter.js';
import { MAX_OPEN_FDS } from '../../host/sandbox/wasi/files.js';
import { Errno, MAX_IOVECS } from '../../host/sandbox/wasi/guest.js';
import { MAX_SUBSCRIPTIONS, SLEEP_SLICE_MS, SUBSCRIPTION_FUEL } from '../../host/sandbox/wasi/poll.js';
import type { WasiConfig } from '../../host/sandbox/wasi/options.js';
import { MAX_WRITE_BYTES, Wasi } from '../../host/sandbox/wasi/preview1.js';
import type { DirNode } from '../../host/sandbox/wasi/snapshot.js';

type Fn = (...args: Array<number | bigint>) => number;

function setup(config: Partial<WasiConfig> = {}, budget = { timeoutMs: 1_000, fuel: 1e12 }, signal?: { readonly aborted: boolean }) {
  const memory = new WebAssembly.Memory({ initial: 1 });
  const meter = new Meter({ deadline: performance.now() + budget.timeoutMs, timeoutMs: budget.timeoutMs, fuel: budget.fuel, signal }, 10_000, null);
  const logs: string[] = [];
  const wasi = new Wasi({ args: [], env: [], preopens: [], ...config }, { meter: () => meter, log: (_l, line) => logs.push(line) });
  wasi.attach(memory);
  const fns = wasi.imports() as unknown as Record<string, Fn>;
  const view = new DataView(memory.buffer);
  const bytes = new Uint8Array(memory.buffer);
  return { fns, view, bytes, logs, meter, wasi };
}

const tree: DirNode = {
  kind: 'dir',
  entries: new Map<string, DirNode['entries'] extends Map<string, infer V> ? V : never>([
    ['a.txt', { kind: 'file', data: new TextEncoder().encode('hello') }],
    ['sub', { kind: 'dir', entries: new Map([['b.txt', { kind: 'file', data: new Uint8Array(3) }]]) }],
  ]),
};

function path(bytes: Uint8Array, at: number, text: string): [number, number] {
  const encoded = new TextEncoder().encode(text);
  bytes.set(encoded, at);
  return [at, encoded.length];
}

describe('WASI against hostile arguments', () => {
  it('answers EFAULT for pointers outside memory, never a host exception', () => {
    const { fns } = setup();
    expect(fns.fd_write!(1, 65_530, 2, 0)).toBe(Errno.FAULT);
    expect(fns.random_get!(65_000, 10_000)).toBe(Errno.FAULT);
    expect(fns.clock_time_get!(0, 0n, 65_535)).toBe(Errno.FAULT);
    expect(fns.args_sizes_get!(-1 >>> 0, 0)).toBe(Errno.FAULT);
  });

  it('refuses more iovecs than IOV_MAX, and writes at most 64 KiB per call (a short write)', () => {
    const { fns, view, logs } = setup();
    expect(fns.fd_write!(1, 0, MAX_IOVECS + 1, 0)).toBe(Errno.INVAL);
    // 1024 iovecs, each the same 60 KiB region: a 60 MiB write from 60 KiB of memory.
    for (let i = 0; i < MAX_IOVECS; i++) {
      view.setUint32(i * 8, 4096, true);
      view.setUint32(i * 8 + 4, 60_000, true);
    }
    expect(fns.fd_write!(2, 0, MAX_IOVECS, 60_000 + 4096)).toBe(Errno.SUCCESS);
    expect(view.getUint32(60_000 + 4096, true)).toBe(MAX_WRITE_BYTES);
    expect(logs.join('').length).toBeLessThanOrEqual(MAX_WRITE_BYTES);
  });

  it('keeps paths inside the granted directory and refuses writes', () => {
    const { fns, bytes, view } = setup({ preopens: [{ guestPath: '/data', root: tree }] });
    const open = (p: string, oflags = 0, rights = 0n) => fns.path_open!(3, 0, ...path(bytes, 1000, p), oflags, rights, 0n, 0, 2000);
    expect(open('a.txt')).toBe(Errno.SUCCESS);
    expect(open('sub/../a.txt')).toBe(Errno.SUCCESS);
    expect(open('../a.txt')).toBe(Errno.NOTCAPABLE);
    expect(open('sub/../../etc/passwd')).toBe(Errno.NOTCAPABLE);
    expect(open('/etc/passwd')).toBe(Errno.NOTCAPABLE);
    expect(open('a.txt/x')).toBe(Errno.NOTDIR);
    expect(open('new.txt', 1)).toBe(Errno.ROFS); // O_CREAT
    expect(open('a.txt', 8)).toBe(Errno.ROFS); // O_TRUNC
    expect(open('a.txt', 0, 1n << 6n)).toBe(Errno.SUCCESS); // the FD_WRITE right asked for is not given: writes are EBADF
    expect(fns.path_open!(0, 0, ...path(bytes, 1000, 'a.txt'), 0, 0n, 0n, 0, 2000)).toBe(Errno.NOTDIR); // stdin is no directory
    expect(fns.path_unlink_file!(3, ...path(bytes, 1000, 'a.txt'))).toBe(Errno.NOTCAPABLE);
    expect(fns.path_create_directory!(3, ...path(bytes, 1000, 'd'))).toBe(Errno.NOTCAPABLE);
    // Reading what was opened: the granted bytes and nothing else.
    expect(open('a.txt')).toBe(Errno.SUCCESS);
    const fd = view.getUint32(2000, true);
    view.setUint32(3000, 4000, true);
    view.setUint32(3004, 100, true);
    expect(fns.fd_read!(fd, 3000, 1, 3100)).toBe(Errno.SUCCESS);
    expect(view.getUint32(3100, true)).toBe(5);
    expect(fns.fd_write!(fd, 3000, 1, 3100)).toBe(Errno.BADF);
  });

  it('caps open descriptors (EMFILE) and reports no preopen beyond those granted', () => {
    const { fns, bytes } = setup({ preopens: [{ guestPath: '/data', root: tree }] });
    let last = 0;
    for (let i = 0; i < MAX_OPEN_FDS + 10 && last === 0; i++) last = fns.path_open!(3, 0, ...path(bytes, 1000, 'a.txt'), 0, 0n, 0n, 0, 2000);
    expect(last).toBe(Errno.MFILE);
    expect(fns.fd_prestat_get!(3, 100)).toBe(Errno.SUCCESS);
    expect(fns.fd_prestat_get!(4, 100)).toBe(Errno.BADF);
    const bare = setup();
    expect(bare.fns.fd_prestat_get!(3, 100)).toBe(Errno.BADF);
  });

  it('stops a sleep past the deadline at once, and charges fuel for every call', () => {
    const { fns, view } = setup({}, { timeoutMs: 100, fuel: 1e12 });
    view.setUint8(8, 0); // clock subscription
    view.setUint32(16, 1, true);
    view.setBigUint64(24, 3_600_000_000_000n, true);
    const started = performance.now();
    expect(() => fns.poll_oneoff!(0, 100, 1, 200)).toThrow(StopSignal);
    expect(performance.now() - started).toBeLessThan(50);
    expect(fns.poll_oneoff!(0, 100, 100_000, 200)).toBe(Errno.INVAL);
    // With a fuel global, as in a running instance: charges go to the meter (the global is the plugin's), and are not overdrawn.
    const metered = setup({}, { timeoutMs: 10_000, fuel: 2_000 });
    const global = new WebAssembly.Global({ value: 'i64', mutable: true }, 0n);
    metered.meter.global = global;
    global.value = metered.meter.prefill(0n);
    expect(() => metered.fns.random_get!(0, 60_000)).toThrow(/fuel budget of 2000/);
    expect(metered.meter.used(global.value as bigint)).toBeLessThanOrEqual(2_000 + 4_000);
    // The call itself is charged once, by the import wrapper in front of every host function (host-call.ts), not
    // here: a WASI function called directly charges only the bytes it moves (wasi.test.ts checks the wrapper's charge).
    const poor = setup({}, { timeoutMs: 10_000, fuel: 1_000 });
    const pglobal = new WebAssembly.Global({ value: 'i64', mutable: true }, 0n);
    poor.meter.global = pglobal;
    pglobal.value = poor.meter.prefill(0n);
    for (let i = 0; i < 100; i++) poor.fns.sched_yield!();
    expect(poor.meter.used(pglobal.value as bigint)).toBe(0);
  });

  it('refuses poll_oneoff beyond 64 subscriptions (2^31 arrives negative), and charges each subscription', () => {
    const { fns } = setup();
    // As wasm passes an i32 of 2^31 and of 2^32 - 1 to JS; and a few million.
    for (const count of [-(2 ** 31), -1, 3_000_000, MAX_SUBSCRIPTIONS + 1]) expect(fns.poll_oneoff!(0, 4096, count, 8192), String(count)).toBe(Errno.INVAL);
    /** Fuel poll_oneoff takes for `count` read subscriptions on stdin (each ready at once). */
    const fuelOf = (count: number) => {
      const run = setup({}, { timeoutMs: 10_000, fuel: 1e9 });
      const global = new WebAssembly.Global({ value: 'i64', mutable: true }, 0n);
      run.meter.global = global;
      global.value = run.meter.prefill(0n);
      for (let i = 0; i < count; i++) {
        run.view.setUint8(i * 48 + 8, 1);
        run.view.setUint32(i * 48 + 16, 0, true);
      }
      expect(run.fns.poll_oneoff!(0, 4096, count, 8192)).toBe(Errno.SUCCESS);
      expect(run.view.getUint32(8192, true)).toBe(count);
      return run.meter.used(global.value as bigint);
    };
    expect(fuelOf(1)).toBe(SUBSCRIPTION_FUEL);
    expect(fuelOf(MAX_SUBSCRIPTIONS)).toBe(MAX_SUBSCRIPTIONS * SUBSCRIPTION_FUEL);
    // A budget that cannot cover them stops the call before the work.
    const poor = setup({}, { timeoutMs: 10_000, fuel: SUBSCRIPTION_FUEL * 10 });
    const pglobal = new WebAssembly.Global({ value: 'i64', mutable: true }, 0n);
    poor.meter.global = pglobal;
    pglobal.value = poor.meter.prefill(0n);
    expect(() => poor.fns.poll_oneoff!(0, 4096, MAX_SUBSCRIPTIONS, 8192)).toThrow(/fuel budget/);
  });

  it('sleeps in slices, not a spin: a few clock reads, the abort flag seen within a slice, no deadline is no limit', () => {
    /** A relative sleep of `ms` on the monotonic clock at address 0. */
    const sleepFor = (view: DataView, ms: number) => {
      view.setUint8(8, 0);
      view.setUint32(16, 1, true);
      view.setBigUint64(24, BigInt(ms) * 1_000_000n, true);
    };
    const { fns, view } = setup();
    sleepFor(view, 50);
    // Counted by hand: a spy would record every call of a spin (millions).
    let reads = 0;
    const now = performance.now.bind(performance);
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (reads++, now()));
    const started = Date.now();
    try {
      expect(fns.poll_oneoff!(0, 100, 1, 200)).toBe(Errno.SUCCESS);
    } finally {
      clock.mockRestore();
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(49);
    // About three reads per slice; a spin reads it hundreds of thousands of times in 50 ms.
    expect(reads).toBeLessThan(200);
    expect(view.getUint32(200, true)).toBe(1);
    // An abort (the worker's flag, flipped by another thread) ends a long sleep within a slice.
    const abortAt = performance.now() + 30;
    const aborted = setup({}, { timeoutMs: 10_000, fuel: 1e12 }, { get aborted() { return performance.now() >= abortAt; } });
    sleepFor(aborted.view, 5_000);
    expect(() => aborted.fns.poll_oneoff!(0, 100, 1, 200)).toThrow(/aborted/);
    expect(performance.now() - abortAt).toBeLessThan(SLEEP_SLICE_MS + 200); // the slice, and room for a loaded machine
    // No deadline (timeoutMs: Infinity) sleeps as asked; it was a RangeError (BigInt(Infinity)).
    const endless = setup({}, { timeoutMs: Number.POSITIVE_INFINITY, fuel: 1e12 });
    sleepFor(endless.view, 5);
    expect(endless.fns.poll_oneoff!(0, 100, 1, 200)).toBe(Errno.SUCCESS);
  });
});
