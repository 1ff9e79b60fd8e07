import { describe, expect, it } from 'vitest';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { assemble } from './instrument-helpers.js';

// Instrumented functions keep the fuel counter in a local; these check that
// the global still sees every unit burnt, whichever way control leaves.
const WAT = `(module
  (tag $oops)
  (func $burn (export "burn") (param $n i32) (local $i i32)
    (loop $l
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n)))))
  (func (export "outer") (param $k i32) (param $n i32) (local $j i32)
    (loop $l
      (call $burn (local.get $n))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $j) (local.get $k)))))
  (func (export "indirect") (param $k i32) (param $n i32) (local $j i32)
    (loop $l
      (call_indirect (param i32) (local.get $n) (i32.const 0))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $j) (local.get $k)))))
  (table 1 funcref)
  (elem (i32.const 0) $burn)
  (func (export "br_out") (param $n i32) (local $i i32)
    (block $b
      (loop $l
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if 2 (i32.ge_u (local.get $i) (local.get $n)))
        (br $l))))
  (func (export "table_out") (param $n i32) (local $i i32)
    (loop $l
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_table $l 1 (i32.ge_u (local.get $i) (local.get $n)))))
  (func (export "ret") (param $n i32) (result i32) (local $i i32)
    (loop $l
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (local.get $i))))
      (br $l))
    (i32.const -1))
  (func (export "table_spin") (loop $l (br_table $l $l (i32.const 0))))
  (func (export "nested") (param $n i32) (param $m i32) (local $i i32) (local $j i32)
    (loop $outer
      (local.set $j (i32.const 0))
      (loop $inner
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br_if $inner (i32.lt_u (local.get $j) (local.get $m))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $outer (i32.lt_u (local.get $i) (local.get $n)))))
  (func $burn_then_throw (param $n i32)
    (call $burn (local.get $n))
    (throw $oops))
  (func (export "caught") (param $n i32) (result i32)
    (try (result i32)
      (do (call $burn_then_throw (local.get $n)) (i32.const 0))
      (catch $oops (i32.const 1)))))`;

/** Like the sandbox's Meter: fuel used = slices handed out + overdrafts seen at refuel − what is left. */
async function load(slice = 1_000_000_000n, limit = Infinity) {
  const state = { calls: 0, handedOut: 0n, overdraft: 0n };
  let global: WebAssembly.Global | undefined;
  const refuel = (): bigint => {
    state.calls++;
    if (state.calls > limit) throw new Error('out of fuel');
    const left = global!.value as bigint;
    if (left < 0n) state.overdraft -= left;
    state.handedOut += slice;
    return slice;
  };
  const bytes = instrument(await assemble(WAT), { maxMemoryPages: 1, allowExceptions: true }).bytes;
  const { instance } = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel, gate: () => 0 } });
  global = instance.exports.__wasmhooks_fuel as WebAssembly.Global;
  const fn = (name: string) => instance.exports[name] as (...a: number[]) => number;
  const total = () => state.handedOut + state.overdraft - (global!.value as bigint);
  /** Fuel one call burns, as the host sees it afterwards. */
  const used = (name: string, ...args: number[]): number => {
    const before = total();
    fn(name)(...args);
    return Number(total() - before);
  };
  return { used, fn, fuel: state };
}

describe('fuel counter in a local', () => {
  it('what a callee burns counts in its caller (the local is written back and reloaded across calls)', async () => {
    const { used } = await load();
    const perIteration = (used('burn', 2000) - used('burn', 1000)) / 1000;
    expect(perIteration).toBeGreaterThan(0);
    for (const caller of ['outer', 'indirect']) {
      // 10 calls of 1,000 more iterations each.
      const extra = used(caller, 10, 2000) - used(caller, 10, 1000);
      expect(extra).toBe(10 * 1000 * perIteration);
      expect(used(caller, 10, 1000)).toBeGreaterThan(10 * used('burn', 1000) - 1);
    }
  });

  it('with small slices, refuels happen inside the callee and the total still adds up', async () => {
    const big = await load();
    const small = await load(97n);
    expect(small.used('outer', 20, 500)).toBe(big.used('outer', 20, 500));
    expect(small.fuel.calls).toBeGreaterThan(100);
  });

  it('br and br_table out of the function body and return write the counter back', async () => {
    const { used, fn } = await load();
    expect(fn('ret')(50)).toBe(50);
    for (const name of ['br_out', 'table_out', 'ret']) {
      const a = used(name, 100), b = used(name, 1100);
      expect(b - a, name).toBeGreaterThanOrEqual(1000 * 4);
      expect(b - a, name).toBeLessThan(1000 * 20);
    }
  });

  it('loops are charged per iteration at their back-edges, nested or through br_table', async () => {
    const { used, fn } = await load();
    const inner = (used('nested', 1, 2000) - used('nested', 1, 1000)) / 1000;
    expect(inner).toBe(8);
    // 100 outer iterations × 1,000 more inner iterations each.
    expect(used('nested', 100, 1100) - used('nested', 100, 100)).toBe(100 * 1000 * inner);
    // An endless loop whose only back-edge is a br_table still reaches refuel.
    const spin = await load(1000n, 20);
    expect(() => spin.fn('table_spin')()).toThrow('out of fuel');
    expect(spin.fuel.calls).toBe(21);
  });

  it('a callee that burns fuel and throws is charged to a caller that catches', async () => {
    const { used, fn } = await load();
    expect(fn('caught')(10)).toBe(1);
    const perIteration = (used('burn', 2000) - used('burn', 1000)) / 1000;
    expect(used('caught', 2000) - used('caught', 1000)).toBe(1000 * perIteration);
  });
});
