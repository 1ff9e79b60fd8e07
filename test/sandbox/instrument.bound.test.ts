// The per-path bound of UNCHECKED_MAX (walk.ts, `Walk.precise`): at an `end` the walker bounds the weight run since
// the last check by the most of what reaches it (the fall-through, each branch to the label, the `if` an `if`
// without `else` skips), not by the whole construct. A switch of many arms then needs no forced check per arm, and
// a long path through the constructs still meets one every UNCHECKED_MAX of weight.
import { describe, expect, it } from 'vitest';
import { UNCHECKED_MAX } from '../../host/sandbox/instrument/code.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { assemble } from './instrument-helpers.js';

const drops = (n: number) => '(drop (i32.const 1)) '.repeat(n); // weight 2n

/** A loop around a `br_table` over `arms` cases of `weight` drops each; every case leaves to the loop's back-edge. */
function switchLoop(arms: number, weight: number): string {
  let body = `(br_table ${Array.from({ length: arms }, (_, i) => i).join(' ')} (i32.rem_u (local.get $i) (i32.const ${arms})))`;
  for (let k = 0; k < arms; k++) body = `(block ${body}) (global.set $work (i32.add (global.get $work) (i32.const 1))) ${drops(weight)} (br $next)`;
  return `(module (global $work (export "work") (mut i32) (i32.const 0))
    (func (export "run") (param $n i32) (local $i i32)
      (loop $top (block $next ${body})
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $top (i32.lt_u (local.get $i) (local.get $n))))))`;
}

/** The weight `run(arg)` executes, from the exact-count mode. */
async function exactWeight(wasm: Uint8Array<ArrayBuffer>, arg?: number): Promise<number> {
  const exact = instrument(wasm, { maxMemoryPages: 1, metering: 'exact' }).bytes;
  const { instance } = await WebAssembly.instantiate(exact, { 'wasmhooks:sandbox': { refuel: () => 1_000_000_000n } });
  (instance.exports.run as (n?: number) => void)(arg);
  return 1_000_000_000 - Number((instance.exports.__wasmhooks_fuel as WebAssembly.Global).value);
}

/** Runs `run(arg)` with `budget` fuel and a refuel that stops the call; returns the work units counted before the stop. */
async function workBeforeStop(bytes: Uint8Array<ArrayBuffer>, budget: number, arg?: number): Promise<number> {
  const refuel = (): bigint => {
    throw new Error('budget spent');
  };
  const { instance } = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel } });
  (instance.exports.__wasmhooks_fuel as WebAssembly.Global).value = BigInt(budget);
  expect(() => (instance.exports.run as (n?: number) => void)(arg)).toThrow('budget spent');
  return (instance.exports.work as WebAssembly.Global).value as number;
}

describe('UNCHECKED_MAX bounded per path', () => {
  it('a 40-arm switch whose arms together pass UNCHECKED_MAX gets no forced check in its arms', async () => {
    const wasm = await assemble(switchLoop(40, 100));
    const { checksInserted } = instrument(wasm, { maxMemoryPages: 1 });
    // The entry and the loop's back-edge. Bounding each `end` by the whole construct made every arm after the
    // tenth (40 × 100 of weight, UNCHECKED_MAX = 1,000) look unchecked for longer and forced a check into it.
    expect(checksInserted).toBe(2);
    // Still stopped in time: each iteration runs one arm and passes the back-edge check.
    const iteration = (await exactWeight(wasm, 400)) / 400;
    const ran = await workBeforeStop(instrument(wasm, { maxMemoryPages: 1 }).bytes, 20_000, 1_000_000);
    expect(ran * iteration).toBeLessThanOrEqual(20_000 + UNCHECKED_MAX + 100 + iteration);
    expect(ran * iteration).toBeGreaterThan(20_000 - 2 * iteration);
  });

  it('an arm longer than UNCHECKED_MAX still gets its check', async () => {
    const { checksInserted } = instrument(await assemble(switchLoop(4, 600)), { maxMemoryPages: 1 });
    expect(checksInserted).toBe(2 + 4);
  });

  // Lines of constructs whose long path goes through what a per-path bound must not forget: the `else` arm (its
  // bound starts from the `if`, not from the then-arm's end), and a then-arm after dead code (`br`, `unreachable`).
  const unit = {
    else: `(if (i32.eqz (local.get $on)) (then ${drops(40)}) (else (global.set $work (i32.add (global.get $work) (i32.const 1))) ${drops(23)}))`,
    afterDeadCode: `(block (if (local.get $on) (then (global.set $work (i32.add (global.get $work) (i32.const 1))) ${drops(23)}) (else (br 1) ${drops(40)})))`,
    thenAfterUnreachable: `(if (i32.eqz (local.get $on)) (then unreachable ${drops(40)})) (global.set $work (i32.add (global.get $work) (i32.const 1))) ${drops(23)}`,
  };
  it.each(Object.keys(unit))('a line of 400 constructs (%s) meets a check every UNCHECKED_MAX of weight', async (shape) => {
    const wasm = await assemble(`(module (global $work (export "work") (mut i32) (i32.const 0))
      (func (export "run") (local $on i32) (local.set $on (i32.const 1)) ${unit[shape as keyof typeof unit].repeat(400)}))`);
    const weight = (await exactWeight(wasm)) / 400;
    const ran = await workBeforeStop(instrument(wasm, { maxMemoryPages: 1 }).bytes, 5_000);
    expect(ran * weight).toBeLessThanOrEqual(5_000 + UNCHECKED_MAX + 100 + weight);
    expect(ran).toBeGreaterThan(0);
  });
});
