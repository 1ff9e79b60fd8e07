// A permission answer that did not decide the call grants nothing, on Node, Deno and Bun against the build
// (test/agent/stale-grant.ts; vitest twin: test/agent/stale-grant.test.ts, which fails on the old code).
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createHost, loadPlugin, scriptedModel, tool } from '../../dist/index.js';
import { abortedGrant, staleGrantsJs, staleGrantsWasm, type StaleGrantApi } from '../agent/stale-grant.ts';

const api = { createHost, loadPlugin, scriptedModel, tool, z } as unknown as StaleGrantApi;

export const scenarios: Record<string, () => Promise<void>> = {
  'JS hooks and the app: a stale, overruled or re-check-refused allow leaves no session rule; a deciding one does': async () => {
    assert.deepEqual(await staleGrantsJs(api), []);
  },
  'WASM (updated_permissions_json): a stale allow leaves no session rule; a deciding one does': async () => {
    assert.deepEqual(await staleGrantsWasm(api), []);
  },
  'an abort during the re-check of an allow_always: the next prompt is asked again': async () => {
    assert.deepEqual(await abortedGrant(api), []);
  },
};
