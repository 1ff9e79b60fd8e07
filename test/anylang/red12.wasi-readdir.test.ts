// Red review (red12): fd_readdir's cookie is a u64, which a wasm i64 hands to JS as a signed BigInt.
// A cookie past 2^63 (the sentinel some libcs keep for "end") read as a negative index: the host read
// names[-1] and threw a TypeError out of the WASI function, a TRAP for the plugin instead of an empty
// listing. Any cookie at or past the end is the end.
import { describe, expect, it } from 'vitest';
import { Meter } from '../../host/sandbox/meter.js';
import { Wasi } from '../../host/sandbox/wasi/preview1.js';
import type { DirNode } from '../../host/sandbox/wasi/snapshot.js';

function wasiWithDir() {
  const memory = new WebAssembly.Memory({ initial: 1 });
  const meter = new Meter({ deadline: performance.now() + 5_000, timeoutMs: 5_000, fuel: 1e12, signal: undefined }, 10_000, null);
  const root: DirNode = {
    kind: 'dir',
    entries: new Map([
      ['a.txt', { kind: 'file', data: new Uint8Array([1]) }],
      ['b.txt', { kind: 'file', data: new Uint8Array([2]) }],
    ]),
  };
  const wasi = new Wasi({ args: [], env: [], preopens: [{ guestPath: '/data', root }] }, { meter: () => meter, log: () => {} });
  wasi.attach(memory);
  const fns = wasi.imports() as unknown as Record<string, (...args: Array<number | bigint>) => number>;
  return { fns, view: new DataView(memory.buffer) };
}

describe('red12: WASI fd_readdir cookies', () => {
  it('a cookie at or past the end (2^63 and up, 2^64 − 1 included) lists nothing', () => {
    const { fns, view } = wasiWithDir();
    for (const cookie of [2n, 3n, 1n << 62n, -(1n << 63n), -1n]) {
      view.setUint32(512, 99, true);
      expect(fns['fd_readdir']!(3, 0, 256, cookie, 512)).toBe(0);
      expect(view.getUint32(512, true)).toBe(0);
    }
  });

  it('cookies 0 and 1 still list from the first and the second entry', () => {
    const { fns, view } = wasiWithDir();
    expect(fns['fd_readdir']!(3, 0, 256, 0n, 512)).toBe(0);
    expect(view.getUint32(512, true)).toBe(2 * (24 + 5));
    expect(fns['fd_readdir']!(3, 0, 256, 1n, 512)).toBe(0);
    expect(view.getUint32(512, true)).toBe(24 + 5);
  });
});
