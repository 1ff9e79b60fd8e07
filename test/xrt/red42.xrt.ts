// Red review (red42: code the meter cannot see) on Node, Deno and Bun, through dist/.
// The module's own code run while an instance is built (its start function; `_initialize`, `hs_init`
// or `_start`, which Extism runs at instantiation; with WASI, `_initialize`) ran before the host held the
// instance's fuel global: `refuel` could not read the overdraft, and every charge larger than a slice
// went unpaid (under a budget of 1e8, twenty and more 33.5M table fills where a call pays for two; at
// every rebuild after a failure too). Now the start function is exported by the instrumenter and run,
// like the renamed entry points, once the meter has the global. And a module that grows past 8 times its
// size once metered (bulk memory ops expand 30-40 times: a 400 KB one held the thread ~0.45 s while it was
// instrumented inline, a 64 MiB one would have asked for 2.3 GB) is INVALID_WASM.
// Vitest twin that fails on the old code: test/sandbox/red42.instantiation-fuel.test.ts.
import assert from 'node:assert/strict';
import { createRawSandbox, createSandbox } from '../../dist/index.js';

const { instantiationProblems } = (await import(new URL('../fixtures/red42-instantiation.ts', import.meta.url).href)) as typeof import('../fixtures/red42-instantiation.js');
const { growthProblems } = (await import(new URL('../fixtures/red42-growth.ts', import.meta.url).href)) as typeof import('../fixtures/red42-growth.js');

const api = { createSandbox, createRawSandbox } as unknown as Parameters<typeof instantiationProblems>[0];

export const scenarios = {
  'red42: start function, Extism entry points, WASI _initialize, a rebuild and the raw sandbox pay for their charges (in-thread)': async () => {
    assert.deepEqual(await instantiationProblems(api), []);
  },
  'red42: the same in a worker': async () => {
    assert.deepEqual(await instantiationProblems(api, 'worker'), []);
  },
  'red42: a module that would grow past 8 times its size once metered is refused (inline and off-thread)': async () => {
    assert.deepEqual(await growthProblems({ createSandbox }), []);
  },
};
