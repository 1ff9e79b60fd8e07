// red16, class "work done before any meter runs" (with red16.instance-counts and element-segments):
// extended-const lets a constant expression add and multiply, and engines evaluate every global
// initialiser and segment offset at each instantiation (load, and every rebuild after a failure).
// 8 globals of 1,000,000 `i32.add`s each (23 MB) took 0.25-0.5 s per instance on Deno and Bun.
// Now a module's constant expressions hold at most 10,000 arithmetic instructions together
// (instrument/counts.ts), counted in globals, tables, element and data segments. Node 20 has no
// extended-const (its validation refuses them), so this is the instrumenter's own check; the load
// on Deno and Bun is in test/xrt/red16.xrt.ts. Fails on the old code (the instrumenter took them).
import { describe, expect, it } from 'vitest';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { constBomb } from '../fixtures/hostile/red16.js';

const rewrite = (bytes: Uint8Array) => instrument(bytes, { maxMemoryPages: 256 });

describe('red16: constant expressions hold at most 10,000 arithmetic instructions together', () => {
  it('in globals: 10,000 are rewritten, 10,001 are INVALID_WASM naming the cap', () => {
    expect(rewrite(constBomb(10, 1_000)).bytes.length).toBeGreaterThan(0);
    expect(() => rewrite(constBomb(1, 10_001))).toThrow(/constant expressions hold more than 10000 arithmetic instructions/);
    expect(() => rewrite(constBomb(8, 100_000))).toThrow(/INVALID_WASM|invalid wasm/);
  });

  it('in a data segment offset, counted with the globals', () => {
    expect(rewrite(constBomb(1, 10_000, true)).bytes.length).toBeGreaterThan(0);
    expect(() => rewrite(constBomb(1, 10_001, true))).toThrow(/constant expressions hold more than 10000 arithmetic instructions/);
  });
});
