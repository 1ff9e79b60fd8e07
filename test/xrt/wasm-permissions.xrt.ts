// WASM PermissionRequest hooks answer Claude Code's updatedPermissions (HookResponse.updated_permissions_json) on Node,
// Deno and Bun against the build (test/plugins/wasm-permissions-cases.ts; vitest twin: test/plugins/wasm-permissions.test.ts).
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createHost, loadPlugin, scriptedModel, tool } from '../../dist/index.js';
import { wasmUpdatedPermissions, type WasmPermissionsApi } from '../plugins/wasm-permissions-cases.ts';

const api = { createHost, loadPlugin, scriptedModel, tool, z } as unknown as WasmPermissionsApi;

export const scenarios: Record<string, () => Promise<void>> = {
  'a WASM PermissionRequest allow with updatedPermissions allows the tool for the session; bad ones are BAD_OUTPUT, closed': async () => {
    assert.deepEqual(await wasmUpdatedPermissions(api), []);
  },
};
