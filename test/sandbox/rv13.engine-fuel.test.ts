// rv13, the class red12 fixed for divisions, atomics and table.get ("a cost not charged where it is
// incurred"), swept over every instruction family with bench/fuel-rate.mjs (ns per fuel of a loop of one
// instruction, Node 20, Deno 2.9, Bun 1.4). What still ran far past ordinary code's 0.03-0.1 ns per fuel:
// call_indirect to a function that does nothing (0.8-1.2 on Node, at weight 5), an empty memory.fill on
// Node 20 (95-110 ns each: 10-12 ns per fuel, 250x), an empty memory.copy (0.7), memory.grow 0 (2.3 on
// Node), memory.init (0.5-2.1) and data.drop (1.2-2.2 on Deno and Bun), i64.trunc_f64_u (0.6-0.74 on all
// three). Each test fails on the old weights (the extra fuel was 4-19 per instruction, or nothing).
import { describe, expect, it } from 'vitest';
import wabtInit from 'wabt';
import { createSandbox } from '../../host/sandbox/index.js';

const wabt = wabtInit();
const ITERATIONS = 1_000;

/** ITERATIONS iterations of ten `one`s, with `extra` module fields. */
async function loop(one: string, extra = ''): Promise<Uint8Array> {
  const source = `(module (memory (export "memory") 1 2) ${extra}
    (func (export "run") (result i32) (local $x i32) (local $f f64) (local $i i32)
      (local.set $f (f64.const 3.5))
      (loop $l ${one.repeat(10)}
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $l (i32.lt_u (local.get $i) (i32.const ${ITERATIONS}))))
      (local.get $x)))`;
  const mod = (await wabt).parseWat('rv13.wat', source, { bulk_memory: true, reference_types: true });
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

async function fuelOf(bytes: Uint8Array, metering: 'fast' | 'exact'): Promise<number> {
  const sandbox = await createSandbox(bytes, { metering, limits: { timeoutMs: 10_000, fuel: 1e11 } });
  try {
    const outcome = await sandbox.call('run', new Uint8Array());
    expect(outcome.ok, !outcome.ok ? outcome.failure.message : '').toBe(true);
    return outcome.fuelUsed;
  } finally {
    await sandbox.close();
  }
}

const FIELDS = `(func $v) (type $tv (func)) (table $tab 2 funcref) (elem (table $tab) (i32.const 0) func $v $v)
  (data $d "abcdefgh")`;

/** [name, instruction, the same shape without the engine's work, least extra fuel per instruction]. */
const CASES: Array<[string, string, string, number]> = [
  ['call_indirect', '(call_indirect $tab (type $tv) (i32.and (local.get $i) (i32.const 1)))', '(call $v) (drop (i32.and (local.get $i) (i32.const 1)))', 15],
  ['memory.fill of 0 bytes', '(memory.fill (i32.and (local.get $i) (i32.const 255)) (i32.const 0) (i32.const 0))', '(drop (i32.and (local.get $i) (i32.const 255))) (nop) (nop)', 400],
  ['memory.copy of 0 bytes', '(memory.copy (i32.and (local.get $i) (i32.const 255)) (i32.const 0) (i32.const 0))', '(drop (i32.and (local.get $i) (i32.const 255))) (nop) (nop)', 400],
  ['memory.init of 0 bytes', '(memory.init $d (i32.const 0) (i32.const 0) (i32.const 0))', '(nop)', 400],
  ['memory.init of 4 bytes', '(memory.init $d (i32.and (local.get $i) (i32.const 255)) (i32.const 0) (i32.const 4))', '(drop (i32.and (local.get $i) (i32.const 255)))', 100],
  ['data.drop', '(data.drop $d)', '(nop)', 100],
  ['memory.grow 0', '(local.set $x (i32.add (local.get $x) (memory.grow (i32.const 0))))', '(local.set $x (i32.add (local.get $x) (memory.size)))', 4_000],
  ['i64.trunc_f64_u', '(local.set $f (f64.convert_i64_u (i64.trunc_f64_u (local.get $f))))', '(local.set $f (f64.convert_i64_u (i64.trunc_sat_f64_u (local.get $f))))', 5],
];

describe('rv13: instructions that call into the engine are charged for it', () => {
  const both = CASES.flatMap(([name, op, plain, least]) => (['fast', 'exact'] as const).map((metering) => [name, metering, op, plain, least] as const));
  it.each(both)('%s (%s) costs its least extra fuel over the same shape without it', async (name, metering, op, plain, least) => {
    const extra = (await fuelOf(await loop(op, FIELDS), metering)) - (await fuelOf(await loop(plain, FIELDS), metering));
    expect(extra, name).toBeGreaterThanOrEqual(10 * ITERATIONS * least);
  });

  it('a non-empty copy is still charged by its length alone: small copies stay cheap', async () => {
    const one = await fuelOf(await loop('(memory.copy (i32.and (local.get $i) (i32.const 255)) (i32.const 512) (i32.const 1))'), 'fast');
    const eight = await fuelOf(await loop('(memory.copy (i32.and (local.get $i) (i32.const 255)) (i32.const 512) (i32.const 8))'), 'fast');
    expect(eight - one).toBe(10 * ITERATIONS * 7);
    const plain = await fuelOf(await loop('(drop (i32.and (local.get $i) (i32.const 255))) (nop) (nop)'), 'fast');
    expect(one - plain).toBeLessThanOrEqual(10 * ITERATIONS * 8);
  });
});

// The frame: an engine zeroes a function's locals at every call, and past ~1,000 its optimising tier gives
// up on the function: a loop calling a do-nothing function of 40,000 v128 locals ran 360-2,400 ns per fuel
// (Node, Deno, Bun), the call charged ~16 fuel whatever the locals. Past 256 units (v128: 2), 1 fuel each.
describe('rv13: a call pays for the locals its callee declares', () => {
  const caller = (locals: string) => `(module (memory (export "memory") 1)
    (func $t (param i32) (result i32) ${locals} (local.get 0))
    (func (export "run") (result i32) (local $x i32) (local $i i32)
      (loop $l (local.set $x (call $t (local.get $x)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $l (i32.lt_u (local.get $i) (i32.const ${ITERATIONS}))))
      (local.get $x)))`;
  const bytesOf = async (source: string) => {
    const mod = (await wabt).parseWat('locals.wat', source, { simd: true });
    try {
      return new Uint8Array(mod.toBinary({}).buffer);
    } finally {
      mod.destroy();
    }
  };
  it.each(['fast', 'exact'] as const)('%s: 2,000 i64 locals cost 1,744 a call, 1,000 v128 1,744, 200 i32 nothing', async (metering) => {
    const none = await fuelOf(await bytesOf(caller('')), metering);
    const i64 = await fuelOf(await bytesOf(caller(`(local ${Array(2_000).fill('i64').join(' ')})`)), metering);
    const v128 = await fuelOf(await bytesOf(caller(`(local ${Array(1_000).fill('v128').join(' ')})`)), metering);
    const few = await fuelOf(await bytesOf(caller(`(local ${Array(200).fill('i32').join(' ')})`)), metering);
    expect(i64 - none).toBe(ITERATIONS * 1_744);
    expect(v128 - none).toBe(ITERATIONS * 1_744);
    expect(few).toBe(none);
  });
});
