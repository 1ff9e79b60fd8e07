// Attacks on the approval flow that hold, on Node, Deno and Bun against the build (test/agent/approval-held.ts;
// vitest twin: test/agent/h6.approval-held.test.ts).
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createHost, loadPlugin, scriptedModel, tool } from '../../dist/index.js';
import { approvalHeldProblems, type HeldApi } from '../agent/approval-held.ts';

export const scenarios: Record<string, () => Promise<void>> = {
  'held: a WASM Notification hook cannot decide, a __proto__ rewrite is refused, setMode is not applied': async () => {
    assert.deepEqual(await approvalHeldProblems({ createHost, loadPlugin, scriptedModel, tool, z } as unknown as HeldApi), []);
  },
};
