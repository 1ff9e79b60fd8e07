// A permission answer that did not decide the call grants nothing (test/agent/stale-grant.ts; Node, Deno and
// Bun against the build: test/xrt/stale-grant.xrt.ts). On the old code a PermissionRequest hook's
// `updatedPermissions` were applied as its chain answered, before the stale check, and the app's
// `allow_always` as it answered, before the PreToolUse re-check: a stale or refused allow left Write allowed
// for the session (the second call `w2:allow:session`, never asked).
import { z } from 'zod';
import { expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel, tool } from '../../host/index.js';
import { abortedGrant, staleGrantsJs, staleGrantsWasm } from './stale-grant.js';

const api = { createHost, loadPlugin, scriptedModel, tool, z };

it('JS hooks and the app: a stale, overruled or re-check-refused allow leaves no session rule; a deciding one does', async () => {
  expect(await staleGrantsJs(api)).toEqual([]);
});

it('WASM (updated_permissions_json): a stale allow leaves no session rule; a deciding one does', async () => {
  expect(await staleGrantsWasm(api)).toEqual([]);
}, 60_000);

it('an abort during the re-check of an allow_always: the call never ran, the next prompt is asked again', async () => {
  expect(await abortedGrant(api)).toEqual([]);
});
