// The block rule against the exact-count reference mode: on control-flow
// shapes built to defeat metering by code size, and on the corpus of real
// modules (first-party, hostile, count_vowels, sql.js, vscode-oniguruma).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/index.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { FOLD } from '../../host/sandbox/instrument/regions.js';
import * as corpus from '../fixtures/fuel-corpus.js';
import { SHAPES, SHAPES_WAT, switchWat } from '../fixtures/fuel-shapes.js';
import { assemble } from './instrument-helpers.js';

type Fn = (n: number) => number;

/** Instantiates `wasm` in one mode; `run` returns the result and the fuel burnt by one call. */
async function metered(wasm: Uint8Array<ArrayBuffer>, metering?: 'fast' | 'exact') {
  let global: WebAssembly.Global | undefined;
  let handedOut = 0n;
  let overdraft = 0n;
  const refuel = (): bigint => {
    const left = global!.value as bigint;
    if (left < 0n) overdraft -= left;
    handedOut += 1_000_000n; // small slices: refuel runs often, as in the sandbox
    return 1_000_000n;
  };
  const bytes = metering ? instrument(wasm, { maxMemoryPages: 1, metering }).bytes : wasm;
  const { instance } = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel } });
  global = instance.exports.__wasmhooks_fuel as WebAssembly.Global | undefined;
  const total = () => Number(handedOut + overdraft - ((global?.value as bigint | undefined) ?? 0n));
  return (name: string, n: number) => {
    const before = total();
    const result = (instance.exports[name] as Fn)(n);
    return { result, fuel: total() - before };
  };
}

describe('the block rule on hostile control-flow shapes', () => {
  it('a 32-arm switch running one arm per iteration costs at most 1.5× the arm inlined', async () => {
    const wasm = await assemble(switchWat(32));
    const fast = await metered(wasm, 'fast');
    const exact = await metered(wasm, 'exact');
    const plain = await metered(wasm);
    const switched = fast('switched', 100_000);
    const inlined = fast('inlined', 100_000);
    expect(switched.result).toBe(plain('switched', 100_000).result);
    expect(switched.fuel / inlined.fuel).toBeLessThanOrEqual(1.5);
    expect(switched.fuel / exact('switched', 100_000).fuel).toBeLessThanOrEqual(1 + FOLD);
  });

  it.each(SHAPES)('%s: exact ≤ fast ≤ (1 + FOLD) × exact, same result as the original', async (shape) => {
    const wasm = await assemble(SHAPES_WAT);
    const [fast, exact, plain] = await Promise.all([metered(wasm, 'fast'), metered(wasm, 'exact'), metered(wasm)]);
    const f = fast(shape, 5_000);
    const e = exact(shape, 5_000);
    expect(f.result).toBe(plain(shape, 5_000).result);
    expect(e.result).toBe(f.result);
    expect(f.fuel).toBeGreaterThanOrEqual(e.fuel);
    expect(f.fuel).toBeLessThanOrEqual((1 + FOLD) * e.fuel);
    // Fuel follows the work: ten times the iterations, about ten times the fuel.
    const ten = fast(shape, 50_000).fuel / f.fuel;
    expect(ten).toBeGreaterThan(9);
    expect(ten).toBeLessThan(11);
  });

  it('exact mode counts each executed instruction once (weights: opcodes.ts)', async () => {
    // Per iteration: local.get, i32.const, i32.add, local.set, local.get, local.get, i32.lt_u, br_if = 8.
    const wasm = await assemble(`(module (func (export "count") (param $n i32) (result i32) (local $i i32)
      (loop $l
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
      (local.get $i)))`);
    const exact = await metered(wasm, 'exact');
    expect(exact('count', 1_000).fuel).toBe(8 * 1_000 + 1);
    const fast = await metered(wasm, 'fast');
    expect(fast('count', 1_000).fuel).toBe(8 * 1_000 + 1);
  });

  it('refuses an unknown metering mode', () => {
    expect(() => instrument(new Uint8Array(8), { maxMemoryPages: 1, metering: 'cheap' as 'fast' })).toThrow(/metering/);
  });
});

const api: corpus.FuelApi = { instrument, createSandbox: createSandbox as unknown as corpus.FuelApi['createSandbox'] };
const wat = async (name: string) => assemble(await readFile(new URL(`../fixtures/hostile/${name}.wat`, import.meta.url), 'utf8'));

/** Calls that end normally are within ±25% of exact (in fact within FOLD, over); a trap can hide the charges of its last block. */
function expectAccurate(samples: corpus.Sample[]): void {
  for (const s of samples) {
    expect(s.exact, `${s.module} ${s.what}`).toBeGreaterThan(0);
    if (s.what.includes('TRAP') || s.what.includes('STACK_OVERFLOW')) {
      expect(s.fast, `${s.module} ${s.what}`).toBeLessThanOrEqual((1 + FOLD) * s.exact);
      continue;
    }
    const r = corpus.ratio(s);
    expect(r, `${s.module} ${s.what}: fast ${s.fast}, exact ${s.exact}`).toBeGreaterThanOrEqual(1);
    expect(r, `${s.module} ${s.what}: fast ${s.fast}, exact ${s.exact}`).toBeLessThanOrEqual(1 + FOLD);
  }
}

describe('fast fuel against exact on the corpus', { timeout: 120_000 }, () => {
  it('count_vowels (C)', async () => expectAccurate(await corpus.countVowels(api)));
  it('first-party plugins', async () => expectAccurate(await corpus.firstParty(api)));
  it('hostile plugins that end', async () => expectAccurate(await corpus.hostile(api, wat)));
  it('sql.js (SQLite, Emscripten glue)', async () => expectAccurate(await corpus.sqlJs(api)));
  it('vscode-oniguruma', async () => expectAccurate(await corpus.oniguruma(api)));
});

describe('what runs past the budget between checks', () => {
  it('a straight line of conditional blocks meets a check every UNCHECKED_MAX of weight', async () => {
    const { branchyLine } = await import('../fixtures/hostile/holes.js');
    const { UNCHECKED_MAX } = await import('../../host/sandbox/instrument/code.js');
    const wasm = await assemble(branchyLine(2_000));
    const budget = 20_000;
    for (const metering of ['fast', 'exact'] as const) {
      const bytes = instrument(wasm, { maxMemoryPages: 1, metering }).bytes;
      // One slice of the whole budget, then a stop at the first check that finds it spent.
      const refuel = (): bigint => {
        throw new Error('budget spent');
      };
      const { instance } = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel } });
      (instance.exports.__wasmhooks_fuel as WebAssembly.Global).value = BigInt(budget);
      expect(() => (instance.exports.run as () => number)(), metering).toThrow('budget spent');
      // Each arm weighs 52 (its condition and `if` included); it counted itself in `work`.
      const ran = (instance.exports.work as WebAssembly.Global).value as number;
      expect(ran * 52).toBeLessThanOrEqual(budget + UNCHECKED_MAX + 100 + 52);
      expect(ran * 52).toBeGreaterThan(budget - 52 * 2);
    }
  });

  // The bound at an `end` is the most of what reaches it (the fall-through, each branch to its label, an `if`
  // without `else`), per path: these lines take the short way out of every construct, so a bound that forgot a
  // branch or the missing else would let the work run on unchecked.
  const unit = {
    branch: `(block (global.set $work (i32.add (global.get $work) (i32.const 1))) ${'(drop (i32.const 1)) '.repeat(23)}
      (br_if 0 (local.get $on)) ${'(drop (i32.const 1)) '.repeat(40)})`,
    table: `(block (block (global.set $work (i32.add (global.get $work) (i32.const 1))) ${'(drop (i32.const 1)) '.repeat(23)}
      (br_table 1 0 (local.get $on))) ${'(drop (i32.const 1)) '.repeat(40)})`,
    noElse: `(if (i32.eqz (local.get $on)) (then ${'(drop (i32.const 1)) '.repeat(40)}))
      (global.set $work (i32.add (global.get $work) (i32.const 1))) ${'(drop (i32.const 1)) '.repeat(23)}`,
  };
  it.each(Object.keys(unit))('a line of constructs left early (%s) meets a check every UNCHECKED_MAX of weight', async (shape) => {
    const { UNCHECKED_MAX } = await import('../../host/sandbox/instrument/code.js');
    const wasm = await assemble(`(module (global $work (export "work") (mut i32) (i32.const 0))
      (func (export "run") (local $on i32) (local.set $on (i32.const 1)) ${unit[shape as keyof typeof unit].repeat(400)}))`);
    // The weight one unit runs, from the exact count.
    const exact = instrument(wasm, { maxMemoryPages: 1, metering: 'exact' }).bytes;
    const e = await WebAssembly.instantiate(exact, { 'wasmhooks:sandbox': { refuel: () => 1_000_000_000n } });
    (e.instance.exports.run as () => void)();
    const weight = (1_000_000_000 - Number((e.instance.exports.__wasmhooks_fuel as WebAssembly.Global).value)) / 400;
    const budget = 5_000;
    const bytes = instrument(wasm, { maxMemoryPages: 1 }).bytes;
    // Run to the end, the fast mode charges at least the exact count (and within the block rule's bound). Fuel used =
    // slices handed out + the overdraft each refuel covered − what is left (a block is charged before it runs).
    let global: WebAssembly.Global | undefined;
    let charged = 0;
    const refill = (): bigint => {
      charged += 1_000_000_000 - Math.min(0, Number(global!.value));
      return 1_000_000_000n;
    };
    const whole = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel: refill } });
    global = whole.instance.exports.__wasmhooks_fuel as WebAssembly.Global;
    (whole.instance.exports.run as () => void)();
    const fast = (charged - Number(global.value)) / 400;
    expect(fast).toBeGreaterThanOrEqual(weight);
    expect(fast).toBeLessThanOrEqual(1.25 * weight);
    const refuel = (): bigint => {
      throw new Error('budget spent');
    };
    const { instance } = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel } });
    (instance.exports.__wasmhooks_fuel as WebAssembly.Global).value = BigInt(budget);
    expect(() => (instance.exports.run as () => void)()).toThrow('budget spent');
    const ran = (instance.exports.work as WebAssembly.Global).value as number;
    // What ran before the stop: at most the budget and what may run between two checks (it may be less: a block is
    // charged when entered, so a stop can come before the work it paid for).
    expect(ran * weight).toBeLessThanOrEqual(budget + UNCHECKED_MAX + 100 + weight);
  });
});
