// An export with parameters called as a plugin function fails as a TRAP that says so (not "an invalid
// host call"). Fails on the old code. Cross-runtime twin: test/xrt/abi-exports.xrt.ts.
import { expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { exportParamProblems } from '../fixtures/export-params.js';
import { hostile } from './sandbox-helpers.js';

it('an export with parameters is refused as a plugin function, in-thread and in a worker', async () => {
  expect(await exportParamProblems(createSandbox, await hostile('export-params'))).toEqual([]);
}, 60_000);
