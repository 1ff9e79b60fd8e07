// The Extism ABI's export shape on Node, Deno and Bun, through dist/: an export with parameters
// (v128, i64, two i32s) called as a plugin function is a TRAP that names it (the engines' own
// TypeErrors differ per runtime, and once read as "an invalid host call"). Vitest twin:
// test/sandbox/export-params.test.ts.
import assert from 'node:assert/strict';
import { createSandbox } from '../../dist/index.js';
import { hostile } from './wat.ts';

const { exportParamProblems } = (await import(new URL('../fixtures/export-params.ts', import.meta.url).href)) as typeof import('../fixtures/export-params.js');

export const scenarios = {
  'an export with parameters is a TRAP that says why, in-thread and in a worker': async () => {
    assert.deepEqual(await exportParamProblems(createSandbox as never, await hostile('export-params')), []);
  },
};
