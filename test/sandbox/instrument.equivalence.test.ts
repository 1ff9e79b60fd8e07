import { describe, expect, it } from 'vitest';
import { fixture, pair } from './instrument-helpers.js';

type Call = [name: string, ...args: unknown[]];

const controlImports = {
  env: {
    twice: (x: number) => x * 2,
    thrice: (x: number) => x * 3,
    base: new WebAssembly.Global({ value: 'i32', mutable: false }, 1000),
  },
};

const cases: Record<string, { imports?: WebAssembly.Imports; calls: Call[] }> = {
  control: {
    imports: controlImports,
    calls: [
      ['fib', 0], ['fib', 1], ['fib', 20],
      ['sum', 0], ['sum', 1000],
      ['nested', 30],
      ['switch', 0], ['switch', 1], ['switch', 2], ['switch', 3], ['switch', 77],
      ['dispatch', 0, 7, 5], ['dispatch', 1, 7, 5], ['dispatch', 2, 7, 5],
      ['negate', 9],
      ['via_ref', 10, 4], ['via_global', 10, 3], ['via_passive', 6, 2],
      ['null_slot'],
      ['imported', 5],
      ['multi', 21], ['multi_loop', 10],
      ['counter'],
    ],
  },
  features: {
    calls: [
      ['simd', 5], ['simd', -3], ['simd_float', 2],
      ['bulk'],
      ['sat', 1e12], ['sat', -1e12], ['sat', Number.NaN], ['sat', -7.9], ['sat_u64', -5], ['sat_u64', 3e10],
      ['sext', 0xff], ['sext', 0x7f], ['sext64', 0xffffffffn],
      ['pick', 0], ['pick', 1],
      ['even', 0n], ['even', 7n], ['even', 1_000_000n],
      ['size'], ['grow', 2], ['size'], ['grow', 100], ['size'],
    ],
  },
  exceptions: { calls: [['caught', 4], ['rethrown', 4], ['delegated', 50]] },
  fuel: { calls: [['count', 1], ['count', 5000], ['down', 100]] },
  hash: { calls: [['fill', 4096], ['hash', 4096, 3], ['hash', 1, 1]] },
};

function run(instance: WebAssembly.Instance, [name, ...args]: Call): unknown {
  const fn = instance.exports[name] as (...a: unknown[]) => unknown;
  try {
    return { ok: fn(...args) };
  } catch (e) {
    return { trap: (e as Error).message };
  }
}

describe('instrumented modules behave like the originals', () => {
  for (const [name, { imports, calls }] of Object.entries(cases)) {
    it(`${name}.wat`, async () => {
      const wasm = await fixture(name);
      const { original, instrumented, result } = await pair(wasm, imports);
      expect(WebAssembly.validate(result.bytes)).toBe(true);
      expect(result.functionsInstrumented).toBeGreaterThan(0);
      const before = calls.map((c) => run(original, c));
      const after = calls.map((c) => run(instrumented, c));
      expect(after).toEqual(before);
      // No call trapped in the originals except where a test means it to.
      expect(before.filter((r) => 'trap' in (r as object))).toEqual([]);
    });
  }

  it('start function ran exactly once, before the exports', async () => {
    const { instrumented } = await pair(await fixture('control'), controlImports);
    expect((instrumented.exports.counter as () => number)()).toBe(42);
  });

  it('keeps every original export and adds only the fuel global', async () => {
    const { original, instrumented } = await pair(await fixture('control'), controlImports);
    expect(Object.keys(instrumented.exports).sort()).toEqual([...Object.keys(original.exports), '__wasmhooks_fuel'].sort());
    const moduleImports = WebAssembly.Module.imports(new WebAssembly.Module((await pair(await fixture('control'), controlImports)).result.bytes));
    expect(moduleImports.map((i) => `${i.module}.${i.name}:${i.kind}`)).toEqual([
      'env.twice:function', 'env.base:global', 'env.thrice:function', 'wasmhooks:sandbox.refuel:function',
      'wasmhooks:sandbox.gate:function',
    ]);
  });
});
