import { describe, expect, it } from 'vitest';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { assemble } from './instrument-helpers.js';

// Threaded fuel (docs/sandbox-instrumentation.md): direct calls hand the counter to
// the callee's variant and take it back from its result; the global is written
// only where something else reads it. These check that nothing is lost on the way.
const WAT = `(module
  (tag $oops)
  (func $fib (export "fib") (param $n i32) (result i32)
    (if (result i32) (i32.lt_u (local.get $n) (i32.const 2))
      (then (local.get $n))
      (else (i32.add (call $fib (i32.sub (local.get $n) (i32.const 1)))
                     (call $fib (i32.sub (local.get $n) (i32.const 2)))))))
  (func $burn (param $n i32) (local $i i32)
    (loop $l
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n)))))
  (func $guarded (param $n i32) (result i32)
    (try (result i32)
      (do (call $burn (local.get $n)) (throw $oops))
      (catch $oops (i32.const 7))))
  (func (export "via_adapter") (param $n i32) (result i32)
    (i32.add (call $guarded (local.get $n)) (call $guarded (local.get $n))))
  (func (export "burn_twice") (param $n i32)
    (call $burn (local.get $n))
    (call $burn (local.get $n))))`;

async function load(wasm: Uint8Array, metering: 'fast' | 'exact', slice = 1_000_000_000n) {
  const state = { calls: 0, handedOut: 0n, overdraft: 0n };
  let global: WebAssembly.Global | undefined;
  const refuel = (): bigint => {
    state.calls++;
    const left = global!.value as bigint;
    if (left < 0n) state.overdraft -= left;
    state.handedOut += slice;
    return slice;
  };
  const bytes = instrument(wasm, { maxMemoryPages: 1, allowExceptions: true, metering }).bytes;
  expect(WebAssembly.validate(bytes)).toBe(true);
  const { instance } = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel, gate: () => 0 } });
  global = instance.exports.__wasmhooks_fuel as WebAssembly.Global;
  const fn = (name: string) => instance.exports[name] as (...a: (number | bigint)[]) => number;
  const total = () => state.handedOut + state.overdraft - (global!.value as bigint);
  const used = (name: string, ...args: (number | bigint)[]): number => {
    const before = total();
    fn(name)(...args);
    return Number(total() - before);
  };
  return { used, fn, state, bytes };
}

/** The function section's count (the module's own functions, then wrappers and variants). */
const functionCount = (bytes: Uint8Array): number => countSection(bytes, 3);

function countSection(bytes: Uint8Array, id: number): number {
  let p = 8;
  const leb = (): number => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[p++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return v;
    }
  };
  while (p < bytes.length) {
    const sid = bytes[p++]!;
    const size = leb();
    if (sid === id) return leb();
    p += size;
  }
  return 0;
}

describe('threaded fuel', () => {
  it('a call tree costs what the exact count says, within the block rule, and the global is exact after each call', async () => {
    const wasm = await assemble(WAT);
    const fast = await load(wasm, 'fast');
    const exact = await load(wasm, 'exact');
    expect(fast.fn('fib')(20)).toBe(6765);
    const f = fast.used('fib', 20), e = exact.used('fib', 20);
    expect(f).toBeGreaterThanOrEqual(e);
    expect(f).toBeLessThanOrEqual(1.25 * e);
    // Repeatable: nothing is left behind in a local between calls.
    expect(fast.used('fib', 20)).toBe(f);
    // With slices of 97, refuels happen deep inside variants (the counter is written back there and read again).
    const small = await load(wasm, 'fast', 97n);
    expect(small.used('fib', 20)).toBe(f);
    expect(small.state.calls).toBeGreaterThan(f / 200);
  });

  it('a function that cannot thread the counter (an exception handler) is reached through its adapter, and charged', async () => {
    const wasm = await assemble(WAT);
    const fast = await load(wasm, 'fast');
    expect(fast.fn('via_adapter')(10)).toBe(14);
    const perIteration = (fast.used('burn_twice', 2000) - fast.used('burn_twice', 1000)) / 2000;
    expect(perIteration).toBeGreaterThan(0);
    expect(fast.used('via_adapter', 2000) - fast.used('via_adapter', 1000)).toBe(2000 * perIteration);
  });

  it('a module with tail calls is not threaded, so a million-deep chain of them still runs in constant stack', async () => {
    const wasm = await assemble(`(module
      (type $pred (func (param i64) (result i32)))
      (table 1 funcref) (elem (i32.const 0) $is_even)
      (func $is_even (export "even") (param $n i64) (result i32)
        (if (result i32) (i64.eqz (local.get $n)) (then (i32.const 1))
          (else (return_call $is_odd (i64.sub (local.get $n) (i64.const 1))))))
      (func $is_odd (param $n i64) (result i32)
        (if (result i32) (i64.eqz (local.get $n)) (then (i32.const 0))
          (else (return_call_indirect (type $pred) (i64.sub (local.get $n) (i64.const 1)) (i32.const 0))))))`);
    const fast = await load(wasm, 'fast');
    expect(fast.fn('even')(1_000_001n)).toBe(0);
    expect(fast.used('even', 1000n)).toBeGreaterThan(1000);
  });

  it('a function with 999 parameters gets a variant (1,000 with the counter), one with 1,000 does not; both run', async () => {
    for (const n of [999, 1000]) {
      const params = Array.from({ length: n }, () => 'i32').join(' ');
      const wasm = await assemble(`(module
        (func $wide (param ${params}) (result i32) (local.get ${n - 1}))
        (func (export "run") (result i32) (call $wide ${Array.from({ length: n }, (_, i) => `(i32.const ${i})`).join(' ')})))`);
      const fast = await load(wasm, 'fast');
      expect(fast.fn('run')()).toBe(n - 1);
      // The module's 2 functions, a variant each unless its type cannot take one more parameter, and $refuel_slow.
      expect(functionCount(fast.bytes)).toBe(n === 999 ? 5 : 4);
    }
  });
});
