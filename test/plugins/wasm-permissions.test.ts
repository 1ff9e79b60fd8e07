// WASM PermissionRequest hooks answer updatedPermissions as JS and shell hooks do (test/plugins/wasm-permissions-cases.ts;
// Node, Deno and Bun against the build: test/xrt/wasm-permissions.xrt.ts). Fails on the code before the field
// (the updates were not read: the second Write was asked again).
import { z } from 'zod';
import { expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel, tool } from '../../host/index.js';
import { wasmUpdatedPermissions } from './wasm-permissions-cases.js';

it('a WASM PermissionRequest allow with updatedPermissions allows the tool for the session; bad ones are BAD_OUTPUT, closed', async () => {
  expect(await wasmUpdatedPermissions({ createHost, loadPlugin, scriptedModel, tool, z })).toEqual([]);
}, 60_000);
