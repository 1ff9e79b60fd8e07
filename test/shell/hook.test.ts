import { mkdtemp, readFile, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import type { HookInput } from '../../host/hooks/types.js';
import { createShellHook, shellHooks, type ShellOutcome } from '../../host/shell/index.js';
import { shellResult } from '../../host/shell/output.js';

const input: HookInput = {
  hook_event_name: 'PreToolUse',
  session_id: 's1',
  cwd: '/tmp',
  turn: 1,
  iteration: 1,
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf /' },
  tool_use_id: 'toolu_1',
};
const ctx = () => ({ signal: new AbortController().signal });
const run = (command: string, extra: { timeoutMs?: number; event?: 'PreToolUse' | 'Stop' } = {}) =>
  createShellHook({ event: extra.event ?? 'PreToolUse', command, ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}) }).run(
    extra.event === 'Stop'
      ? { ...input, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' } as HookInput
      : input,
    ctx(),
  );

describe('shell hooks', () => {
  it('exit 2 after a call (PostToolUse, PostToolUseFailure) sends stderr to the model, as Claude Code does (conf4)', () => {
    for (const event of ['PostToolUse', 'PostToolUseFailure'] as const) {
      expect(shellResult({ kind: 'exited', code: 2, durationMs: 1, stdout: '', stderr: 'lint failed: a.ts:1\n', dropped: { stdout: 0, stderr: 0 } }, event, 'lint')).toEqual({ ok: true, output: { reason: 'lint failed: a.ts:1', additionalContext: 'lint failed: a.ts:1' } });
    }
    expect(shellResult({ kind: 'exited', code: 2, durationMs: 1, stdout: '', stderr: 'no', dropped: { stdout: 0, stderr: 0 } }, 'PreToolUse', 'g')).toEqual({ ok: true, output: { decision: 'deny', reason: 'no' } });
  });

  it('exit 0 with no output continues, and the hook input arrives as JSON on stdin', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-shell-'));
    const file = join(dir, 'in.json');
    expect(await run(`cat > ${file}`)).toEqual({ ok: true, output: {} });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(input);
  });

  it('exit 0 with {"decision":"allow"} allows', async () => {
    expect(await run(`echo '{"decision":"allow","reason":"trusted"}'`)).toEqual({
      ok: true,
      output: { decision: 'allow', reason: 'trusted' },
    });
  });

  it('exit 0 with {"updatedInput":…} rewrites', async () => {
    expect(await run(`echo '{"updatedInput":{"command":"ls"}}'`)).toEqual({ ok: true, output: { updatedInput: { command: 'ls' } } });
  });

  it('accepts the Claude Code output fields', async () => {
    const out = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`;
    expect(await run(`echo '${out}'`)).toEqual({ ok: true, output: { decision: 'deny', reason: 'no' } });
    // The same reader as JS hooks (hooks/output.ts): strict, and the event must be this one.
    expect(await run(`echo '{"hookSpecificOutput":{"permissionDecision":"deny"}}'`)).toMatchObject({ ok: false, failure: { code: 'BAD_OUTPUT', message: /hookEventName/ } });
    expect(await run(`echo '{"decision":"allow","permission":"yes"}'`)).toMatchObject({ ok: false, failure: { code: 'BAD_OUTPUT', message: /exited 0 with an invalid hook output: .*permission/s } });
    expect(await run(`echo '{"continue":false,"stopReason":"enough"}'`)).toEqual({ ok: true, output: { decision: 'stop', reason: 'enough' } });
    expect(await run(`echo '{"decision":"block","reason":"no"}'`)).toEqual({ ok: true, output: { decision: 'deny', reason: 'no' } });
    expect(await run(`echo '{"decision":"approve"}'`)).toEqual({ ok: true, output: { decision: 'allow' } });
    expect(await run(`echo '{"decision":"block","reason":"not yet"}'`, { event: 'Stop' })).toEqual({ ok: true, output: { decision: 'block', reason: 'not yet' } });
  });

  it('exit 2 denies with stderr as the reason (block on Stop)', async () => {
    expect(await run(`echo 'rm -rf is not allowed' >&2; exit 2`)).toEqual({
      ok: true,
      output: { decision: 'deny', reason: 'rm -rf is not allowed' },
    });
    expect(await run(`echo 'run the tests first' >&2; exit 2`, { event: 'Stop' })).toEqual({
      ok: true,
      output: { decision: 'block', reason: 'run the tests first' },
    });
  });

  it('exit 49 stops the turn', async () => {
    expect(await run(`echo 'budget spent' >&2; exit 49`)).toEqual({ ok: true, output: { decision: 'stop', reason: 'budget spent' } });
  });

  it('another exit code is a TRAP failure, never a decision', async () => {
    const result = await run(`echo boom >&2; exit 1`);
    expect(result).toEqual({ ok: false, failure: { code: 'TRAP', message: expect.stringMatching(/exited 1: boom/) } });
  });

  it('a crash (signal) is a TRAP failure', async () => {
    const result = await run(`kill -SEGV $$`);
    expect(result).toMatchObject({ ok: false, failure: { code: 'TRAP', message: expect.stringMatching(/SIGSEGV/) } });
  });

  it('stdout nested deeper than the host-wide JSON bound is BAD_OUTPUT, not a stack overflow later', () => {
    const stdout = `{"decision":"allow","updatedInput":{"x":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`;
    const result = shellResult({ kind: 'exited', code: 0, stdout, stderr: '' } as ShellOutcome, 'PreToolUse', 'deep');
    expect(result).toMatchObject({ ok: false, failure: { code: 'BAD_OUTPUT', message: expect.stringContaining('deeper than 64 levels') } });
  });

  it('invalid JSON or a bad field on stdout with exit 0 is BAD_OUTPUT', async () => {
    // Plain text (not opening as JSON) is Claude Code's plain output, no answer: test/shell/conf5.shell.test.ts.
    expect(await run(`echo '{allow'`)).toMatchObject({ ok: false, failure: { code: 'BAD_OUTPUT' } });
    expect(await run(`echo '{"decision":"maybe"}'`)).toMatchObject({ ok: false, failure: { code: 'BAD_OUTPUT' } });
    expect(await run(`echo '{"decision":"deny"'`)).toMatchObject({ ok: false, failure: { code: 'BAD_OUTPUT' } });
  });

  it('a command that cannot start is LOAD_FAILED', async () => {
    const hook = createShellHook({ event: 'PreToolUse', command: 'true', cwd: '/does/not/exist' });
    expect(await hook.run(input, ctx())).toMatchObject({ ok: false, failure: { code: 'LOAD_FAILED' } });
  });

  it('a timeout kills the whole process group and is a TIMEOUT failure', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-shell-'));
    const marker = join(dir, 'survived');
    const started = performance.now();
    // The grandchild would write the marker after 1 s if the group survived.
    const result = await run(`(sleep 1; touch ${marker}) & sleep 5`, { timeoutMs: 200 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result).toMatchObject({ ok: false, failure: { code: 'TIMEOUT' } });
    await new Promise((r) => setTimeout(r, 1300));
    await expect(readFile(marker)).rejects.toThrow();
  });

  it('an abort kills the process and is ABORTED', async () => {
    const controller = new AbortController();
    const hook = createShellHook({ event: 'PreToolUse', command: 'sleep 5' });
    const pending = hook.run(input, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ ok: false, failure: { code: 'ABORTED' } });
  });

  it('builds a handler with an anchored matcher, the default policy and a working dir', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-shell-'));
    await writeFile(join(dir, 'guard.sh'), '#!/bin/sh\necho "from $(basename "$PWD")" >&2\nexit 2\n');
    await chmod(join(dir, 'guard.sh'), 0o755);
    const [hook] = shellHooks([{ event: 'PreToolUse', matcher: 'Bash|Write', command: './guard.sh' }], { baseDir: dir }).hooks();
    expect(hook).toMatchObject({ kind: 'shell', event: 'PreToolUse', failurePolicy: 'fail-closed', timeoutMs: 60_000 });
    expect(hook!.matcher!.test('Bash')).toBe(true);
    expect(hook!.matcher!.test('BashX')).toBe(false);
    expect(await hook!.run(input, ctx())).toEqual({ ok: true, output: { decision: 'deny', reason: `from ${dir.split('/').pop()}` } });
    const observer = createShellHook({ event: 'PostToolUse', command: 'true' });
    expect(observer.failurePolicy).toBe('fail-open');
    expect(observer.matcher).toBeUndefined();
  });

  it('rejects an invalid spec with a typed error', () => {
    expect(() => createShellHook({ event: 'PreToolUse', command: '' })).toThrow(WasmhooksError);
    expect(() => createShellHook({ event: 'PreToolUse', command: 'x', matcher: '(' })).toThrow(/regular expression/);
  });
});
