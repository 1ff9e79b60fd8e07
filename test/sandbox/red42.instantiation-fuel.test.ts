// red42, class "code the meter cannot see": the module's own code run while an instance is built (its
// start function; the entry point Extism runs at instantiation, `_initialize`, `hs_init` or `_start`;
// with WASI, `_initialize`) ran before the host held the instance's fuel global, so `refuel` could not
// read the overdraft and every charge larger than a slice went unpaid. Under a budget of 1e8 (two
// 32,768-element table fills, 33.5M each) a start function made 20 and more, and one that never ended
// ran to the load's deadline (1.5 s) instead of stopping for its fuel in a few ms; the same at every
// rebuild after a failure, under the call's budget. Fails on the old code: every hungry entry point
// loaded, the rebuild answered 20, the raw start function was not stopped. The same checks run on Node,
// Deno and Bun in test/xrt/red42.xrt.ts (test/fixtures/red42-instantiation.ts).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { createRawSandbox } from '../../host/sandbox/raw.js';
import { START_FUNCTION_EXPORT, instrument } from '../../host/sandbox/instrument/index.js';
import { instantiationProblems } from '../fixtures/red42-instantiation.js';
import { growthProblems } from '../fixtures/red42-growth.js';
import { assemble, meter } from './instrument-helpers.js';

const api = { createSandbox, createRawSandbox } as unknown as Parameters<typeof instantiationProblems>[0];

describe('red42: code run while an instance is built is metered like a call', () => {
  it('in-thread: start function, Extism entry points, WASI _initialize, a rebuild, the raw sandbox', async () => {
    expect(await instantiationProblems(api)).toEqual([]);
  }, 60_000);

  it('worker: the same', async () => {
    expect(await instantiationProblems(api, 'worker')).toEqual([]);
  }, 60_000);

  it('deferStart: no start section; the start function is exported (a module without exports gets an export section), and runs only when called', async () => {
    const wasm = await assemble('(module (global $g (mut i32) (i32.const 0)) (func $s (global.set $g (i32.const 7))) (start $s) (func (export "get") (result i32) (global.get $g)))');
    const kept = WebAssembly.Module.exports(new WebAssembly.Module(instrument(wasm, { maxMemoryPages: 1 }).bytes)).map((e) => e.name);
    expect(kept).not.toContain(START_FUNCTION_EXPORT);
    const { bytes } = instrument(wasm, { maxMemoryPages: 1, deferStart: true });
    const fuel = meter(1_000_000n);
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), fuel.imports);
    const get = instance.exports.get as () => number;
    expect(get()).toBe(0);
    (instance.exports[START_FUNCTION_EXPORT] as () => void)();
    expect(get()).toBe(7);
    const bare = await assemble('(module (func $s nop) (start $s))');
    const names = WebAssembly.Module.exports(new WebAssembly.Module(instrument(bare, { maxMemoryPages: 1, deferStart: true }).bytes)).map((e) => e.name);
    expect(names.sort()).toEqual(['__wasmhooks_fuel', START_FUNCTION_EXPORT]);
    const squatter = await assemble(`(module (func (export "${START_FUNCTION_EXPORT}")))`);
    expect(() => instrument(squatter, { maxMemoryPages: 1 })).toThrow(/is reserved/);
  });

  // Class "what the meter adds": the instrumented module grows at most 8 times (and 1 MiB). Fails on the old
  // code: both modules loaded, 14.5 and 22 MB once metered, the first instrumented on this thread for ~0.45 s.
  it('a module that would grow past 8 times its size once metered is refused, inline and off-thread', async () => {
    expect(await growthProblems({ createSandbox })).toEqual([]);
  }, 60_000);
});
