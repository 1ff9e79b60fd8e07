// red12, class "a cost not charged where it is incurred" (after red7's bulk ops and red11's throws):
// integer division and remainder, and float div and sqrt, weighed 1 like an add, but a chain of them
// takes 8-40 cycles an instruction: a loop of dependent divisions ran 0.6-1.2 ns per fuel against
// ordinary code's 0.05-0.12, so with no deadline first (timeoutMs: Infinity) a budget meant for
// ~0.1 s of CPU bought ~1 s. Each now weighs 24 (opcodes.ts), in both metering modes, SIMD's f32x4/f64x2
// div and sqrt too (1.0-2.1 ns per fuel at weight 1). Fails on the
// old code (a loop of divisions used the fuel of the same loop of adds).
import { describe, expect, it } from 'vitest';
import wabtInit from 'wabt';
import { createSandbox } from '../../host/sandbox/index.js';

const wabt = wabtInit();
async function wat(source: string): Promise<Uint8Array> {
  const mod = (await wabt).parseWat('divides.wat', source, { simd: true });
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

/** 1,000 iterations of ten `op`s on one local of type `ty` (binary, or unary with `unary`); SIMD ops on v128 locals. */
const loop = (ty: string, op: string, unary = false) => {
  const simd = ty.includes('x');
  const one = unary ? `(local.set $x (${ty}.${op} (local.get $x)))` : `(local.set $x (${ty}.${op} (local.get $x) (local.get $y)))`;
  const [local, x, y] = simd ? ['v128', `(v128.const ${ty} ${Array(ty === 'f32x4' ? 4 : 2).fill('1000').join(' ')})`, `(v128.const ${ty} ${Array(ty === 'f32x4' ? 4 : 2).fill('3').join(' ')})`] : [ty, `(${ty}.const 1000)`, `(${ty}.const 3)`];
  return `(module (memory (export "memory") 1)
    (func (export "run") (result i32) (local $x ${local}) (local $y ${local}) (local $i i32)
      (local.set $x ${x}) (local.set $y ${y})
      (loop $l ${one.repeat(10)}
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $l (i32.lt_u (local.get $i) (i32.const 1000))))
      (i32.const 0)))`;
};

const DIVIDES: Array<[ty: string, op: string, like: string, unary?: boolean]> = [
  ['i32', 'div_s', 'add'], ['i32', 'div_u', 'add'], ['i32', 'rem_s', 'add'], ['i32', 'rem_u', 'add'],
  ['i64', 'div_s', 'add'], ['i64', 'div_u', 'add'], ['i64', 'rem_s', 'add'], ['i64', 'rem_u', 'add'],
  ['f32', 'div', 'add'], ['f64', 'div', 'add'], ['f32', 'sqrt', 'neg', true], ['f64', 'sqrt', 'neg', true],
  // SIMD: 1.0-2.1 ns per fuel at weight 1.
  ['f32x4', 'div', 'add'], ['f64x2', 'div', 'add'], ['f32x4', 'sqrt', 'neg', true], ['f64x2', 'sqrt', 'neg', true],
];

describe('red12: divisions are charged for their latency', () => {
  it.each(['fast', 'exact'] as const)('%s: each division, remainder and sqrt costs at least 20 fuel more than an add or neg', async (metering) => {
    for (const [ty, op, like, unary] of DIVIDES) {
      const fuelOf = async (o: string) => {
        const sandbox = await createSandbox(await wat(loop(ty, o, unary)), { metering, limits: { timeoutMs: 10_000 } });
        try {
          const outcome = await sandbox.call('run', new Uint8Array());
          expect(outcome.ok, `${ty}.${o}`).toBe(true);
          return outcome.fuelUsed;
        } finally {
          await sandbox.close();
        }
      };
      const extra = (await fuelOf(op)) - (await fuelOf(like));
      expect(extra, `${ty}.${op}`).toBeGreaterThanOrEqual(10 * 1_000 * 20);
    }
  });
});

/** The fuel of a `run` that does `body` ten times in each of 1,000 rounds, after the module fields `fields`. */
async function loopFuel(fields: string, body: string, features: Record<string, boolean>, metering: 'fast' | 'exact'): Promise<number> {
  const source = `(module (memory (export "memory") 1) ${fields}
    (func (export "run") (result i32) (local $i i32)
      (loop $l ${body.repeat(10)}
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $l (i32.lt_u (local.get $i) (i32.const 1000))))
      (i32.const 0)))`;
  const mod = (await wabt).parseWat('loop.wat', source, features);
  const bytes = new Uint8Array(mod.toBinary({}).buffer);
  mod.destroy();
  const sandbox = await createSandbox(bytes, { metering, limits: { timeoutMs: 10_000 } });
  try {
    const outcome = await sandbox.call('run', new Uint8Array());
    expect(outcome.ok).toBe(true);
    return outcome.fuelUsed;
  } finally {
    await sandbox.close();
  }
}

// The same class in the threads proposal: locked atomic stores and read-modify-writes (~20 cycles each)
// weighed 1 (0.8-1.9 ns per fuel), and atomic.fence 1 (5-36 ns each: 50-360x ordinary code). Now 48
// each, and a fence pays ENGINE_CALL_FUEL at a check of its own, like memory.atomic.notify.
describe('red12: atomics are charged for their locked instructions', () => {
  it.each(['fast', 'exact'] as const)('%s: an atomic store, rmw or cmpxchg costs at least 40 more than a plain one; a fence at least 1,000', async (metering) => {
    const plain = {
      store: '(i32.store (i32.const 64) (local.get $i))',
      rmw: '(drop (i32.add (i32.const 64) (local.get $i)))',
      cmpxchg: '(drop (select (i64.const 64) (i64.const 0) (i32.const 1)))',
      fence: '(nop)',
    };
    const atomic = {
      store: '(i32.atomic.store (i32.const 64) (local.get $i))',
      rmw: '(drop (i32.atomic.rmw.add (i32.const 64) (local.get $i)))',
      cmpxchg: '(drop (i64.atomic.rmw.cmpxchg (i32.const 64) (i64.const 0) (i64.const 1)))',
      fence: '(atomic.fence)',
    };
    for (const key of ['store', 'rmw', 'cmpxchg', 'fence'] as const) {
      const extra = (await loopFuel('', atomic[key], { threads: true }, metering)) - (await loopFuel('', plain[key], { threads: true }, metering));
      expect(extra, key).toBeGreaterThanOrEqual(10 * 1_000 * (key === 'fence' ? 1_000 : 40));
    }
  });
});

// table.get weighed 1 but reads through the engine's table object (2-7 ns: 0.2-1.7 ns per fuel in a loop).
describe('red12: table.get is charged for the engine read', () => {
  it.each(['fast', 'exact'] as const)('%s: a table.get costs at least 40 more than the index it reads', async (metering) => {
    const tables = `(func $f) (table $t 8 funcref) (table $e 8 externref) (elem (table $t) (i32.const 0) func $f $f $f $f $f $f $f $f)`;
    const fuelOf = (one: string) => loopFuel(tables, one, { reference_types: true }, metering);
    const plain = await fuelOf('(drop (i32.and (local.get $i) (i32.const 7)))');
    for (const t of ['$t', '$e']) {
      const extra = (await fuelOf(`(drop (table.get ${t} (i32.and (local.get $i) (i32.const 7))))`)) - plain;
      expect(extra, t).toBeGreaterThanOrEqual(10 * 1_000 * 40);
    }
  });
});
