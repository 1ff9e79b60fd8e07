import { describe, expect, it } from 'vitest';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { assemble, meter } from './instrument-helpers.js';

/** header + type () -> () + one function with `body` (after a zero locals count); no imports, no globals. */
function module(body: number[]): Uint8Array {
  const code = [0x00, ...body];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x04, 0x01, 0x60, 0x00, 0x00,
    0x03, 0x02, 0x01, 0x00,
    0x0a, code.length + 2, 0x01, code.length, ...code,
  ]);
}

// global.get 0; i64.const c (5 bytes); i64.sub; global.set 0; global.get 0; i64.const 0; i64.lt_s; if; call 0; global.set 0; end
const CHECK_LENGTH = 23;

/** The instrumented body of the single function, split into the entry check and the rest. */
function rewrittenBody(wasm: Uint8Array, allowExceptions = false): { check: number[]; rest: number[] } {
  const out = instrument(wasm, { maxMemoryPages: 1, allowExceptions }).bytes;
  let p = 8;
  const leb = (): number => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = out[p++]!;
      v |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  };
  for (;;) {
    const id = out[p++]!;
    const size = leb();
    if (id === 10) {
      leb(); // count
      const end = leb() + p; // the first body
      let body = [...out.subarray(p + 1 + 2 * out[p]!, end)]; // after the locals (one-byte counts only)
      if (allowExceptions) body = body.slice(2); // the block that wraps a body with handlers
      return { check: body.slice(0, CHECK_LENGTH), rest: body.slice(CHECK_LENGTH) };
    }
    p += size;
  }
}

/** Every function body of a module's code section (locals included). */
function bodies(out: Uint8Array): number[][] {
  let p = 8;
  const leb = (): number => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = out[p++]!;
      v |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  };
  while (p < out.length) {
    const id = out[p++]!;
    const size = leb();
    if (id === 10) {
      const all: number[][] = [];
      for (let n = leb(); n > 0; n--) {
        const len = leb();
        all.push([...out.subarray(p, p + len)]);
        p += len;
      }
      return all;
    }
    p += size;
  }
  return [];
}

describe('opcode decoding beyond what this Node can run', () => {
  it('walks multi-memory memargs, try_table, atomics, relaxed SIMD and v128.const without losing its place', () => {
    const body = [
      0x41, 0x00, 0x28, 0x42, 0x01, 0x00, 0x1a, // i32.load (memory 1)
      0x1f, 0x40, 0x02, 0x00, 0x00, 0x00, 0x02, 0x01, 0x0b, // try_table (catch 0 0) (catch_all 1) end
      0xfe, 0x03, 0x00, // atomic.fence
      0x41, 0x00, 0xfe, 0x10, 0x02, 0x00, 0x1a, // i32.atomic.load
      0xfd, 0x80, 0x02, // i8x16.relaxed_swizzle
      0xfd, 0x0c, ...Array.from({ length: 16 }, (_, i) => (i === 3 ? 0x10 : 0x0b)), 0x1a, // v128.const whose bytes look like opcodes
      0x3f, 0x01, 0x1a, // memory.size 1
      0xfd, 0x56, 0x42, 0x01, 0x80, 0x01, 0x03, // v128.load32_lane (memory 1) offset=128 lane 3
      0x10, 0x00, // call 0: becomes call 1
      0xd2, 0x00, 0x1a, // ref.func 0: becomes ref.func 1
      0x0b,
    ];
    // A function with a handler keeps the counter in the global, with gates where a handler may resume.
    const { check, rest } = rewrittenBody(module(body), true);
    expect(check.slice(0, 3)).toEqual([0x23, 0x00, 0x42]); // global.get 0; i64.const …
    expect(check.slice(-7)).toEqual([0x04, 0x40, 0x10, 0x00, 0x24, 0x00, 0x0b]); // if; call $refuel; global.set; end
    const gate = [0x41, 0x00, 0x42, 0x00, 0x10, 0x01, 0x1a]; // i32.const 0 (handler); i64.const 0; call $gate; drop
    const expected = [...body];
    expected[expected.length - 5] = 0x02; // call 0 and ref.func 0: past refuel and the gate
    expected[expected.length - 3] = 0x02;
    // The block after the call (ref.func, drop: 2) has its own decrement, folded into the block before the call
    // (small enough: see FOLD in regions.ts), which leaves 11 nops in its place.
    expected.splice(expected.length - 4, 0, ...new Array(11).fill(0x01));
    // After try_table's end: the gate (a catch clause may land there), then, since its catch clauses may branch
    // out of the function, what follows is a block of its own (global.get; i64.const 17; i64.sub; global.set):
    // 15 to the call, and the 2 folded into it.
    expected.splice(16, 0, ...gate, 0x23, 0x00, 0x42, 0x91, 0x80, 0x80, 0x80, 0x00, 0x7d, 0x24, 0x00);
    // atomic.fence pays ENGINE_CALL_FUEL (1024) at a check of its own (red12): global.get; i64.const 1024; i64.sub;
    // global.set; then global.get; i64.const 0; i64.lt_s; if; call $refuel; global.set; end.
    const fenceCheck = [0x23, 0x00, 0x42, 0x80, 0x88, 0x80, 0x80, 0x00, 0x7d, 0x24, 0x00, 0x23, 0x00, 0x42, 0x00, 0x53, 0x04, 0x40, 0x10, 0x00, 0x24, 0x00, 0x0b];
    expected.splice(16 + gate.length + 11, 0, ...fenceCheck);
    expect(rest).toEqual([...expected, ...gate, 0x0b]);
  });

  it('charges the weighted size of the guarded code', () => {
    // const, const, add, drop, call (5), const, memory.grow (100), drop, memory.fill (5 + its length at run time) on 3 consts; the final end is free.
    const body = [0x41, 0x00, 0x41, 0x00, 0x6a, 0x1a, 0x10, 0x00, 0x41, 0x00, 0x40, 0x00, 0x1a, 0x41, 0x00, 0x41, 0x00, 0x41, 0x00, 0xfc, 0x0b, 0x00, 0x0b];
    // The function threads its counter (docs/sandbox-instrumentation.md, "Threaded fuel"): its own index holds a thin
    // wrapper, `global.get 0; call 2 (its variant); global.set 0`, and the metered body is the variant, the last body.
    const [wrapper, variant] = bodies(instrument(module(body), { maxMemoryPages: 1 }).bytes);
    expect(wrapper).toEqual([0x00, 0x23, 0x00, 0x10, 0x02, 0x24, 0x00, 0x0b]);
    const constant = (bytes: number[]) => bytes.reduce((acc, b, i) => acc + (b & 0x7f) * 2 ** (7 * i), 0);
    // One group of three i32 scratch locals for memory.fill (its length, value and offset: a long fill runs in chunks,
    // chunks.ts; the counter is parameter 0); the body in a block; the entry check charges from the parameter.
    expect(variant!.slice(0, 8)).toEqual([0x01, 0x03, 0x7f, 0x02, 0x40, 0x20, 0x00, 0x42]);
    // The code after the call runs whenever the code before it did (a callee that does not return ends the
    // whole call): the entry check charges both.
    expect(constant(variant!.slice(8, 13))).toBe(4 + 5 + 1 + 100 + 1 + 3 + 5);
    // The call hands the counter to the variant (local.get 0; call 2) and takes it back, with no charge.
    const call = variant!.findIndex((b, i) => b === 0x10 && variant![i + 1] === 0x02 && variant![i - 2] === 0x20);
    expect(variant!.slice(call - 2, call + 4)).toEqual([0x20, 0x00, 0x10, 0x02, 0x21, 0x00]); // ...; local.set 0
    // It returns the counter after the wrapped body: end (of the block); local.get 0; end.
    expect(variant!.slice(-4)).toEqual([0x0b, 0x20, 0x00, 0x0b]);
  });

  it('declares the scratch local for bulk lengths even when the locals header grows (127 → 128 groups)', async () => {
    const locals = Array.from({ length: 127 }, (_, i) => `(local ${i % 2 ? 'i64' : 'i32'})`).join(' ');
    const wasm = await assemble(`(module (memory 1)
      (func (export "f") (param $n i32) (result i32) ${locals}
        (local.set 1 (i32.const 5))
        (memory.fill (i32.const 0) (local.get 1) (local.get $n))
        (i32.add (i32.load8_u (i32.const 3)) (local.get 1))))`);
    const { bytes } = instrument(wasm, { maxMemoryPages: 1 });
    expect(WebAssembly.validate(bytes)).toBe(true);
    const { instance } = await WebAssembly.instantiate(bytes, meter(1_000_000n).imports);
    expect((instance.exports.f as (n: number) => number)(100)).toBe(10);
  });
});
