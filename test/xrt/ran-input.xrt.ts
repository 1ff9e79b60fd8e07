// The stream says what input ran, on Node, Deno and Bun against the build (test/agent/ran-input.ts; vitest
// twin: test/agent/ran-input.test.ts, which fails on the old code): permission.resolved carries `input`
// only when a hook or the approver rewrote the model's, on the session's stream and over HTTP.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createHost, scriptedModel, tool } from '../../dist/index.js';
import { createServer } from '../../dist/server.js';
import { ranInput, ranInputOverHttp, type RanInputApi } from '../agent/ran-input.ts';

const api = { createHost, scriptedModel, tool, z } as unknown as RanInputApi;

export const scenarios: Record<string, () => Promise<void>> = {
  'permission.resolved carries the input that runs after PreToolUse, PermissionRequest and approver rewrites; nothing without one; a copy': async () => {
    assert.deepEqual(await ranInput(api), []);
  },
  'over HTTP: /event and the reference format of /global/event carry it': async () => {
    assert.deepEqual(await ranInputOverHttp(api, createServer as unknown as Parameters<typeof ranInputOverHttp>[1]), []);
  },
};
