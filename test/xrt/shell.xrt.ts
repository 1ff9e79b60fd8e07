// Shell hooks on Node, Deno and Bun: node:child_process, stdin JSON, exit codes, timeouts.
import assert from 'node:assert/strict';
import { createShellHook } from '../../dist/index.js';
import type { HookInput } from '../../dist/index.js';

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
const hook = (command: string, timeoutMs?: number) =>
  createShellHook({ event: 'PreToolUse', command, ...(timeoutMs ? { timeoutMs } : {}) });

export const scenarios: Record<string, () => Promise<void>> = {
  'a shell hook reads the input on stdin and allows, rewrites or denies': async () => {
    // The hook answers from what it read: proof the input arrived whole, as JSON.
    const echoed = await hook(`in=$(cat); case "$in" in *'"tool_input":{"command":"rm -rf /"}'*) echo '{"updatedInput":{"command":"Bash"}}';; esac`).run(input, ctx());
    assert.deepEqual(echoed, { ok: true, output: { updatedInput: { command: 'Bash' } } });
    assert.deepEqual(await hook(`echo '{"decision":"allow"}'`).run(input, ctx()), { ok: true, output: { decision: 'allow' } });
    assert.deepEqual(await hook(`cat >/dev/null; echo 'no rm' >&2; exit 2`).run(input, ctx()), {
      ok: true,
      output: { decision: 'deny', reason: 'no rm' },
    });
    assert.deepEqual(await hook('exit 49').run(input, ctx()), { ok: true, output: { decision: 'stop', reason: 'shell hook "exit 49" exited 49' } });
  },
  'a crash, a bad exit, bad output and a timeout are typed failures': async () => {
    const codes = await Promise.all([
      hook('kill -KILL $$').run(input, ctx()),
      hook('exit 7').run(input, ctx()),
      // Plain text is Claude Code's plain output (no opinion, conf5); what opens as JSON and cannot be read is BAD_OUTPUT.
      hook(`echo '{nope'`).run(input, ctx()),
    ]);
    assert.deepEqual(
      codes.map((r) => (r.ok ? 'ok' : r.failure.code)),
      ['TRAP', 'TRAP', 'BAD_OUTPUT'],
    );
    const started = performance.now();
    const slow = await hook('sleep 5', 150).run(input, ctx());
    assert.equal(slow.ok ? 'ok' : slow.failure.code, 'TIMEOUT');
    assert.ok(performance.now() - started < 3000, 'the timeout kills the process promptly');
  },

  'a shell hook\'s JSON with a repeated decision or a "__proto__" key is BAD_OUTPUT, never its last word (rv7)': async () => {
    const answer = (json: string) => hook(`printf '%s' '${json}'`).run(input, ctx());
    for (const json of ['{"decision":"deny","decision":"allow"}', '{"decision":"allow","updatedInput":{"__proto__":{"command":"rm -rf /"},"command":"ls"}}']) {
      const out = await answer(json);
      assert.equal(!out.ok && out.failure.code, 'BAD_OUTPUT', json);
    }
    const fine = await answer('{"decision":"allow","updatedInput":{"command":"ls"}}');
    assert.ok(fine.ok && fine.output.decision === 'allow');
  },
};
