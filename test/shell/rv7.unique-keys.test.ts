// Review (rv7) of red8's unique keys in plugin JSON: a shell hook's stdout decides as much (a decision,
// a rewritten input) and was still parsed without the check: `{"decision":"deny",…,"decision":"allow"}`
// was an allow here and a deny to a first-key reader before it, and a "__proto__" key in updatedInput
// was dropped silently by the schema (the rewrite meant one thing to the hook and another here).
import { describe, expect, it } from 'vitest';
import { shellResult } from '../../host/shell/output.js';
import type { ShellOutcome } from '../../host/shell/index.js';

const answer = (stdout: string) => shellResult({ kind: 'exited', code: 0, stdout, stderr: '' } as ShellOutcome, 'PreToolUse', 'guard');

describe('a shell hook\'s JSON names each key once', () => {
  it('a decision named twice is BAD_OUTPUT (a fail-closed guard then denies), not the last one', () => {
    expect(answer('{"decision":"deny","reason":"no","decision":"allow"}')).toMatchObject({ ok: false, failure: { code: 'BAD_OUTPUT' } });
  });

  it('a "__proto__" key in updatedInput is BAD_OUTPUT, not dropped', () => {
    expect(answer('{"decision":"allow","updatedInput":{"__proto__":{"command":"rm -rf /"},"command":"ls"}}')).toMatchObject({ ok: false, failure: { code: 'BAD_OUTPUT' } });
  });

  it('an ordinary answer still reads', () => {
    expect(answer('{"decision":"allow","updatedInput":{"command":"ls"}}')).toMatchObject({ ok: true, output: { decision: 'allow', updatedInput: { command: 'ls' } } });
  });
});
