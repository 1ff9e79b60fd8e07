// The terminal's permission question shows the whole input that runs (h6), on Node, Deno and Bun
// (test/cli/approval-question.ts; vitest twin: test/cli/h6.approval-question.test.ts, which fails on the old
// code). The question is inside dist/cli.js, asked only on a TTY, so this loads host/cli/ask.ts itself, as
// rv7.xrt.ts loads the snapshot module.
import assert from 'node:assert/strict';
import { approvalQuestionProblems } from '../cli/approval-question.ts';

const { permissionQuestion } = (await import(new URL('../../host/cli/ask.ts', import.meta.url).href)) as typeof import('../../host/cli/ask.js');

export const scenarios: Record<string, () => Promise<void>> = {
  'a long, a multi-line and a padded input are shown whole; a short one keeps its one-line form': async () => {
    assert.deepEqual(approvalQuestionProblems(permissionQuestion), []);
  },
};
