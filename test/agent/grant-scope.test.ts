// An answer grants only the tool it was asked about (test/agent/grant-scope.ts; Node, Deno and Bun against
// the build: test/xrt/grant-scope.xrt.ts). On the old code a Read hook's `updatedPermissions` naming Bash
// allowed Bash for the session: `b1:allow:session`, `rm -rf ~` ran, unasked and past the Bash guard.
import { z } from 'zod';
import { expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel, tool } from '../../host/index.js';
import { grantScopeJs, grantScopeWasm } from './grant-scope.js';

const api = { createHost, loadPlugin, scriptedModel, tool, z };

it('JS hooks: a Read hook that grants Bash does not allow Bash (nor skip the Bash guard)', async () => {
  expect(await grantScopeJs(api)).toEqual([]);
});

it('WASM (updated_permissions_json): a Read hook that grants Bash does not allow Bash', async () => {
  expect(await grantScopeWasm(api)).toEqual([]);
}, 60_000);
