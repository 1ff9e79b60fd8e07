// The instrumenter's side of issue 12, on bare instances: every route to an
// import goes through its gated, charged wrapper; handlers call the gate;
// table operations and memory.grow are charged by their operand; tables
// are capped in the binary.
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { HOST_CALL_FUEL, GATED_CALL_FUEL, HOST_BYTES_PER_FUEL_LOG2 } from '../../host/sandbox/instrument/hostcalls.js';
import { TABLE_ELEMENT_FUEL_LOG2, TABLE_GROW_FUEL_LOG2 } from '../../host/sandbox/instrument/opcodes.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { assemble, fixture } from './instrument-helpers.js';

/** Instantiates instrumented `wat` with a recording gate and an always-refilling refuel. */
async function gated(wat: string, imports: Record<string, Record<string, unknown>>, options = {}) {
  const { bytes } = instrument(await assemble(wat), { maxMemoryPages: 4, ...options });
  const gates: [kind: number, arg: bigint][] = [];
  const state = { handedOut: 0n, blockLength: 0 };
  const ours = {
    refuel: () => ((state.handedOut += 100_000_000n), 100_000_000n),
    gate: (kind: number, arg: bigint) => (gates.push([kind, arg]), kind === 2 ? state.blockLength >>> HOST_BYTES_PER_FUEL_LOG2 : 0),
  };
  const { instance } = await WebAssembly.instantiate(bytes, { ...imports, 'wasmhooks:sandbox': ours } as WebAssembly.Imports);
  const fuel = instance.exports.__wasmhooks_fuel as WebAssembly.Global;
  const used = () => Number(state.handedOut - (fuel.value as bigint));
  return { instance, gates, state, used, exports: instance.exports as Record<string, (...a: unknown[]) => unknown> };
}

const host = (calls: string[]) => ({
  env: { host: (x: number) => (calls.push(`host(${x})`), x + 1) },
  'extism:host/env': {
    input_length: () => (calls.push('input_length'), 7n),
    alloc: (n: bigint) => (calls.push(`alloc(${n})`), 1n << 48n),
    log_info: (p: bigint) => void calls.push(`log(${p})`),
  },
});

describe('host calls go through the gate', () => {
  it('a direct call, call_indirect, a re-exported import and ref.func all reach the import only through its wrapper', async () => {
    const calls: string[] = [];
    const g = await gated(
      `(module
        (import "env" "host" (func $host (param i32) (result i32)))
        (type $t (func (param i32) (result i32)))
        (table 2 funcref) (elem (i32.const 0) $host)
        (elem declare func $host)
        (export "again" (func $host))
        (func (export "direct") (result i32) (call $host (i32.const 1)))
        (func (export "indirect") (result i32) (call_indirect (type $t) (i32.const 2) (i32.const 0)))
        (func (export "viaRef") (result i32) (table.set (i32.const 1) (ref.func $host)) (call_indirect (type $t) (i32.const 3) (i32.const 1)))
        (func (export "tail") (result i32) (return_call $host (i32.const 4))))`,
      host(calls),
    );
    for (const [name, arg] of [['direct', 1], ['indirect', 2], ['viaRef', 3], ['tail', 4]] as const) {
      const before = g.gates.length;
      const fuel = g.used();
      expect(g.exports[name]!()).toBe(arg + 1);
      expect(g.gates.length - before).toBe(1);
      expect(g.used() - fuel).toBeGreaterThanOrEqual(GATED_CALL_FUEL);
    }
    expect(g.exports.again!(9)).toBe(10);
    expect(g.gates).toHaveLength(5);
    expect(calls).toEqual(['host(1)', 'host(2)', 'host(3)', 'host(4)', 'host(9)']);
  });

  it('an imported start function is gated during instantiation', async () => {
    const calls: string[] = [];
    const g = await gated('(module (import "env" "go" (func $go)) (start $go))', { env: { go: () => void calls.push('go') } });
    expect(calls).toEqual(['go']);
    expect(g.gates).toEqual([[1, 0n]]);
  });

  it('Extism constant-time accessors are charged inline, not gated; alloc pays its length; a logged block pays its own', async () => {
    const calls: string[] = [];
    const g = await gated(
      `(module
        (import "extism:host/env" "input_length" (func $len (result i64)))
        (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
        (import "extism:host/env" "log_info" (func $log (param i64)))
        (func (export "len") (result i64) (call $len))
        (func (export "alloc") (param i64) (result i64) (call $alloc (local.get 0)))
        (func (export "log") (param i64) (call $log (local.get 0))))`,
      host(calls),
    );
    let fuel = g.used();
    expect(g.exports.len!()).toBe(7n);
    expect(g.gates).toHaveLength(0);
    const accessor = g.used() - fuel;
    expect(accessor).toBeGreaterThanOrEqual(HOST_CALL_FUEL);
    expect(accessor).toBeLessThan(HOST_CALL_FUEL + 20);

    fuel = g.used();
    g.exports.alloc!(160_000n);
    expect(g.used() - fuel).toBeGreaterThanOrEqual(GATED_CALL_FUEL + 160_000 / 2 ** HOST_BYTES_PER_FUEL_LOG2);
    fuel = g.used();
    g.exports.alloc!(1n << 60n); // past the memory cap: counted up to it (the host refuses it at once)
    const capped = g.used() - fuel;
    expect(capped).toBeLessThan(GATED_CALL_FUEL + (4 * 65_536) / 2 ** HOST_BYTES_PER_FUEL_LOG2 + 50);

    g.state.blockLength = 1 << 20;
    fuel = g.used();
    g.exports.log!(5n);
    expect(g.gates.at(-1)).toEqual([2, 5n]);
    expect(g.used() - fuel).toBeGreaterThanOrEqual(GATED_CALL_FUEL + (1 << 16));
    expect(calls).toEqual(['input_length', 'alloc(160000)', `alloc(${1n << 60n})`, 'log(5)']);
  });
});

describe('what the gate is left out of', () => {
  const wat = `(module
    (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
    (import "extism:host/env" "output_set" (func $out (param i64 i64)))
    (import "env" "host" (func $host (param i32) (result i32)))
    (func (export "alloc") (param i64) (result i64) (call $alloc (local.get 0)))
    (func (export "out") (param i64 i64) (call $out (local.get 0) (local.get 1)))
    (func (export "host") (param i32) (result i32) (call $host (local.get 0))))`;
  const imports = (calls: string[]) => ({
    ...host(calls),
    'extism:host/env': { ...host(calls)['extism:host/env'], output_set: (a: bigint, n: bigint) => void calls.push(`out(${a},${n})`) },
  });

  it('output_set (constant host work) is charged its length but never gated', async () => {
    const calls: string[] = [];
    const g = await gated(wat, imports(calls));
    const fuel = g.used();
    g.exports.out!(1n << 48n, 160_000n);
    expect(g.gates).toHaveLength(0);
    expect(g.used() - fuel).toBeGreaterThanOrEqual(GATED_CALL_FUEL + 10_000);
    expect(calls).toEqual([`out(${1n << 48n},160000)`]);
  });

  it('an import the embedder checks itself (selfChecked) is charged as before but not gated; any other still is', async () => {
    const calls: string[] = [];
    const plain = await gated(wat, imports(calls));
    plain.exports.alloc!(160_000n);
    expect(plain.gates).toEqual([[1, 0n]]);
    const checked = await gated(wat, imports(calls), { selfChecked: { 'extism:host/env': ['alloc'], env: ['other'] } });
    const fuel = checked.used();
    checked.exports.alloc!(160_000n);
    expect(checked.gates).toHaveLength(0);
    expect(checked.used() - fuel).toBeGreaterThanOrEqual(GATED_CALL_FUEL + 10_000);
    checked.exports.host!(1);
    expect(checked.gates).toEqual([[1, 0n]]);
    expect(calls).toEqual(['alloc(160000)', 'alloc(160000)', 'host(1)']);
  });
});

describe('exception handlers call the gate', () => {
  it('every catch and catch_all entry is gated, and a gate that throws ends the handler at once', async () => {
    const wat = await fixture('exceptions');
    const { bytes } = instrument(wat, { maxMemoryPages: 4, allowExceptions: true });
    let handlers = 0;
    let stopped = false;
    const stop = new Error('stopped');
    const ours = {
      refuel: () => 1_000_000n,
      gate: (kind: number) => {
        if (kind === 0) handlers++;
        if (stopped) throw stop;
        return 0;
      },
    };
    const { instance } = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': ours });
    const exported = Object.entries(instance.exports).filter(([, v]) => typeof v === 'function') as [string, (...a: number[]) => unknown][];
    for (const [, fn] of exported) {
      try {
        fn(1, 2, 3);
      } catch {
        // the fixture's own throws
      }
    }
    expect(handlers).toBeGreaterThan(0);
    stopped = true;
    for (const [, fn] of exported) {
      try {
        fn(1, 2, 3);
      } catch (error) {
        // Whatever a function does, once the gate throws, the stop (or the fixture's own exception) comes out.
        const exception = (WebAssembly as unknown as { Exception: new () => unknown }).Exception;
        expect(error === stop || error instanceof exception).toBe(true);
      }
    }
  });

  it('is refused without the opt-in, naming it', async () => {
    expect(() => instrument(new Uint8Array(0), { maxMemoryPages: 1 })).toThrow(WasmhooksError);
    const wat = await fixture('exceptions');
    expect(() => instrument(wat, { maxMemoryPages: 4 })).toThrow(/allowExceptions: true/);
  });
});

describe('operands and tables', () => {
  it('table.fill is charged 1024 per element and table.grow 64 by its operand up to the cap', async () => {
    const g = await gated(
      `(module (table $t 10 funcref)
        (func (export "fill") (param i32) (table.fill $t (i32.const 0) (ref.null func) (local.get 0)))
        (func (export "grow") (param i32) (result i32) (table.grow $t (ref.null func) (local.get 0))))`,
      {},
      { maxTableElements: 1_000 },
    );
    let fuel = g.used();
    g.exports.fill!(10);
    expect(g.used() - fuel).toBeGreaterThanOrEqual(10 * 2 ** TABLE_ELEMENT_FUEL_LOG2);
    fuel = g.used();
    expect(g.exports.grow!(10_000_000)).toBe(-1); // past the cap
    const failed = g.used() - fuel;
    expect(failed).toBeGreaterThanOrEqual(1_000 * 2 ** TABLE_GROW_FUEL_LOG2);
    expect(failed).toBeLessThan(1_000 * 2 ** TABLE_GROW_FUEL_LOG2 + 200);
    expect(g.exports.grow!(990)).toBe(10);
    expect(g.exports.grow!(1)).toBe(-1);
  });

  it('tables share one cap: maxima are written into the binary, imported tables included', async () => {
    const wat = `(module (import "env" "t" (table 5 funcref)) (table $a 10 externref) (table $b 0 1000000 funcref)
      (func (export "growA") (param i32) (result i32) (table.grow $a (ref.null extern) (local.get 0)))
      (func (export "growB") (param i32) (result i32) (table.grow $b (ref.null func) (local.get 0))))`;
    const { bytes } = instrument(await assemble(wat), { maxMemoryPages: 1, maxTableElements: 300 });
    const unbounded = new WebAssembly.Table({ element: 'anyfunc', initial: 5 });
    const ours = { 'wasmhooks:sandbox': { refuel: () => 1_000_000n, gate: () => 0 } };
    await expect(WebAssembly.instantiate(bytes, { env: { t: unbounded }, ...ours })).rejects.toThrow(WebAssembly.LinkError);
    const bounded = new WebAssembly.Table({ element: 'anyfunc', initial: 5, maximum: 100 });
    const { instance } = await WebAssembly.instantiate(bytes, { env: { t: bounded }, ...ours });
    const growA = instance.exports.growA as (n: number) => number;
    const growB = instance.exports.growB as (n: number) => number;
    // (300 - 15) / 3 = 95 of growth each: $a up to 105, $b up to 95; 5 + 105 + 95 ≤ 300.
    expect(growA(1_000_000)).toBe(-1);
    expect(growA(95)).toBe(10);
    expect(growA(1)).toBe(-1);
    expect(growB(95)).toBe(0);
    expect(growB(1)).toBe(-1);
    expect(() => instrument(new Uint8Array(0), { maxMemoryPages: 1, maxTableElements: -1 })).toThrow(/maxTableElements/);
  });
});
