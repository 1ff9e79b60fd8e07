// An answer grants only the tool it was asked about, on Node, Deno and Bun against the build
// (test/agent/grant-scope.ts; vitest twin: test/agent/grant-scope.test.ts, which fails on the old code).
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createHost, loadPlugin, scriptedModel, tool } from '../../dist/index.js';
import { grantScopeJs, grantScopeWasm, type GrantScopeApi } from '../agent/grant-scope.ts';

const api = { createHost, loadPlugin, scriptedModel, tool, z } as unknown as GrantScopeApi;

export const scenarios: Record<string, () => Promise<void>> = {
  'JS hooks: a Read hook that grants Bash does not allow Bash (nor skip the Bash guard)': async () => {
    assert.deepEqual(await grantScopeJs(api), []);
  },
  'WASM (updated_permissions_json): a Read hook that grants Bash does not allow Bash': async () => {
    assert.deepEqual(await grantScopeWasm(api), []);
  },
};
