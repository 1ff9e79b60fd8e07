// The terminal's permission question shows the whole input that runs (h6). It used the call lines'
// one-line label, which cuts at 60 characters and folds whitespace: `echo <harmless words>; rm -rf ~` was
// asked as "Allow Bash(echo harmless …)?", and `echo hi\nrm -rf ~` (two commands to the shell) as
// "Allow Bash(echo hi rm -rf ~)?" (one echo). Fails on the old code: the `rm -rf ~` and the `\n` are not
// in the question. Cross-runtime twin: test/xrt/approval-question.xrt.ts.
import { describe, expect, it } from 'vitest';
import { permissionQuestion } from '../../host/cli/ask.js';
import { approvalQuestionProblems } from './approval-question.js';

describe('h6: the terminal permission question shows the input that runs', () => {
  it('a long, a multi-line and a padded input are shown whole; a short one keeps its one-line form', () => {
    expect(approvalQuestionProblems(permissionQuestion)).toEqual([]);
  });
});
