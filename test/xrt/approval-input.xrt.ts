// An approval shows exactly the input that will run (red21's note), on Node, Deno and Bun against the build:
// the checks of test/agent/approval-input.ts (vitest twin: test/agent/approval-input.test.ts, which fails on
// the old code). PreToolUse and PermissionRequest rewrites by JS, shell and WASM hooks; the `permission.request`
// event, the app's canUseTool, the HTTP `can_use_tool` request and the PermissionRequest hooks against what ran.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createHost, loadPlugin, scriptedModel, shellHooks, tool } from '../../dist/index.js';
import { createServer } from '../../dist/server.js';
import { KINDS, approverEdits, overHttp, permissionRequestRewrite, permissionRequestRewriteAndAllow, preToolUseRewrite, type ApprovalApi } from '../agent/approval-input.ts';

const api = { createHost, loadPlugin, scriptedModel, shellHooks, tool, z } as unknown as ApprovalApi;

export const scenarios: Record<string, () => Promise<void>> = {
  'a PreToolUse rewrite (JS, shell, WASM): the event, the PermissionRequest hooks and canUseTool see the rewritten input, which runs': async () => {
    for (const kind of KINDS) assert.deepEqual(await preToolUseRewrite(api, kind), []);
  },
  'a PermissionRequest rewrite (JS, shell, WASM): permission.request shows what canUseTool is asked about, which runs': async () => {
    for (const kind of KINDS) assert.deepEqual(await permissionRequestRewrite(api, kind), []);
  },
  'a PermissionRequest rewrite that allows (JS, shell, WASM): no question announced about the old input': async () => {
    for (const kind of KINDS) assert.deepEqual(await permissionRequestRewriteAndAllow(api, kind), []);
  },
  'over HTTP: can_use_tool and the streamed permission.request show the WASM hook\'s rewrite, which runs': async () => {
    assert.deepEqual(await overHttp(api, createServer as unknown as Parameters<typeof overHttp>[1]), []);
  },
  'an app or a subscriber that edits the input it was handed changes nothing; an updatedInput answer is re-checked': async () => {
    assert.deepEqual(await approverEdits(api), []);
  },
};
