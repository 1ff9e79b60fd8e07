// Hostile edges of the chunked bulk memory operations (host/sandbox/instrument/chunks.ts): the engines'
// locals limit, a memory.init that must stop for fuel before it traps (test/fixtures/chunks-edges.ts,
// shared with test/xrt/chunks.xrt.ts), and the name section of a function given scratch locals.
import { describe, expect, it } from 'vitest';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { chunkEdgeProblems } from '../fixtures/chunks-edges.js';
import { FEATURES, assemble as assembleWat, wabt } from './instrument-helpers.js';

const assemble = (wat: string, features: Record<string, boolean> = {}) => assembleWat(wat, 'chunks-edges.wat', features);

describe('bulk memory operations in chunks: edges', () => {
  it('functions near 50,000 locals stay valid and exact; a memory.init past its segment stops for fuel first', async () => {
    expect(await chunkEdgeProblems({ instrument, assemble })).toEqual([]);
  }, 60_000);

  it("keep the function's local names on the locals they named (scratch locals come after, unnamed)", async () => {
    const wasm = await assemble(
      `(module (memory 40)
        (func $f (export "f") (param $dst i32) (param $val i32) (param $len i32) (local $keep i64) (local $tmp i32)
          (local.set $tmp (local.get $len))
          (memory.fill (local.get $dst) (local.get $val) (local.get $tmp))
          (memory.copy (local.get $dst) (local.get $val) (local.get $tmp))))`,
      {},
    );
    for (const metering of ['fast', 'exact'] as const) {
      const { bytes } = instrument(wasm, { maxMemoryPages: 40, metering });
      const mod = (await wabt()).readWasm(bytes, { ...FEATURES, readDebugNames: true });
      try {
        mod.applyNames();
        const text = mod.toText({});
        // The body (fast mode: its threaded variant, with the counter as one more parameter) keeps its names.
        expect(text, metering).toContain('(param $dst i32) (param $val i32) (param $len i32)');
        expect(text, metering).toMatch(/\(local \$keep i64\) \(local \$tmp i32\)/);
        expect(text, metering).toContain('local.set $tmp');
        expect(text, metering).toContain('local.get $dst');
      } finally {
        mod.destroy();
      }
    }
  });
});
