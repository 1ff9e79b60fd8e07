// Attacks on the approval flow that hold (test/agent/approval-held.ts; cross-runtime: test/xrt/approval-held.xrt.ts).
// They pass on the old code too: kept so they stay held.
import { z } from 'zod';
import { expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel, tool } from '../../host/index.js';
import { approvalHeldProblems } from './approval-held.js';

it('held: a WASM Notification hook cannot decide, a __proto__ rewrite is refused, setMode is not applied', async () => {
  expect(await approvalHeldProblems({ createHost, loadPlugin, scriptedModel, tool, z })).toEqual([]);
}, 60_000);
