// A replay file's expectations (host/cli/expect.ts): updatedInput is compared as JSON, with the
// one deep-equality rule of the host (host/same-json.ts), so key order never decides a verdict.
import { describe, expect, it } from 'vitest';
import { unmet, type Verdict } from '../../host/cli/expect.js';

const decided = (updatedInput: unknown): Verdict => ({ kind: 'decided', decision: 'allow', updatedInput, durationMs: 1 });

describe('replay expectations: updatedInput', () => {
  it('the same input with its keys in another order meets the expectation', () => {
    const got = decided({ timeout: 5, command: 'ls', env: { B: '2', A: '1' } });
    expect(unmet({ decision: 'allow', updatedInput: { command: 'ls', env: { A: '1', B: '2' }, timeout: 5 } }, got)).toEqual([]);
  });

  it('a different value, a missing key, an extra key or no rewrite at all does not', () => {
    const want = { command: 'ls', timeout: 5 };
    expect(unmet({ updatedInput: want }, decided({ command: 'ls', timeout: 6 }))).toHaveLength(1);
    expect(unmet({ updatedInput: want }, decided({ command: 'ls' }))).toHaveLength(1);
    expect(unmet({ updatedInput: want }, decided({ command: 'ls', timeout: 5, cwd: '/' }))).toHaveLength(1);
    expect(unmet({ updatedInput: want }, decided(undefined))[0]).toMatch(/got none/);
    expect(unmet({ updatedInput: { list: [1, 2] } }, decided({ list: [2, 1] }))).toHaveLength(1);
  });
});
