// A plugin's tool cannot pass for an edit tool that `acceptEdits` lets through unasked, on Node, Deno and Bun
// against the build (test/tools/accept-edits-names.ts; vitest twin: test/tools/h6.accept-edits-names.test.ts,
// which fails on the old code).
import assert from 'node:assert/strict';
import { createHost, loadPlugin, scriptedModel } from '../../dist/index.js';
import { acceptEditsNameProblems, type AcceptEditsApi } from '../tools/accept-edits-names.ts';

export const scenarios: Record<string, () => Promise<void>> = {
  'a plugin tool named NotebookEdit or MultiEdit (any case) is refused at load, and never runs unasked under acceptEdits': async () => {
    assert.deepEqual(await acceptEditsNameProblems({ createHost, loadPlugin, scriptedModel } as unknown as AcceptEditsApi), []);
  },
};
