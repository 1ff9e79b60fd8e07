// The walking skeleton end to end: the guard written with the guest SDK,
// built from source, loaded by the host, asked protobuf PreToolUse questions.
import { describe, expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel } from '../../host/index.js';
import type { HookInput, HostEvent } from '../../host/index.js';
import { fakeBash } from '../fixtures/tools.js';

const wasm = new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url).pathname;

const bash = (command: string): HookInput => ({
  hook_event_name: 'PreToolUse',
  session_id: 's',
  cwd: '/tmp',
  turn: 1,
  iteration: 1,
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 'toolu_1',
});

describe('guard-shell through the host', () => {
  it('describes itself as a fail-closed PreToolUse guard for shell tools', async () => {
    const guard = await loadPlugin({ path: wasm });
    expect(guard.info).toMatchObject({ name: 'guard-shell', protocolVersion: 1 });
    const [hook] = guard.hooks();
    expect(hook).toMatchObject({ event: 'PreToolUse', kind: 'wasm', failurePolicy: 'fail-closed' });
    expect(['Bash', 'Shell'].map((t) => hook!.matcher!.test(t))).toEqual([true, true]);
    expect(hook!.matcher!.test('Read')).toBe(false);
    await guard.close();
  });

  // red12: config `others` "continue" leaves what no rule denies to the permission step (the CLI's default guard);
  // any value but "allow" means continue, so a typo does not turn the approval back on; no value keeps allow.
  it('config others: "continue" (or any value but "allow") answers continue for a command no rule denies, and still denies rm -rf /', async () => {
    const answers: Array<[string | undefined, string]> = [[undefined, 'allow'], ['allow', 'allow'], ['continue', 'continue'], ['cntinue', 'continue']];
    for (const [others, expected] of answers) {
      const guard = await loadPlugin({ path: wasm }, others === undefined ? {} : { grants: { configKeys: ['others'] }, config: { others } });
      try {
        expect(await guard.callHook(bash('ls -la'))).toMatchObject({ ok: true, output: { decision: expected } });
        expect(await guard.callHook(bash('rm -rf /'))).toMatchObject({ ok: true, output: { decision: 'deny' } });
      } finally {
        await guard.close();
      }
    }
  });

  it('denies rm -rf / with a reason and allows ls -la', async () => {
    const guard = await loadPlugin({ path: wasm });
    const denied = await guard.callHook(bash('rm -rf /'));
    expect(denied).toMatchObject({ ok: true, output: { decision: 'deny', reason: expect.stringMatching(/guard-shell/) } });
    expect(denied.fuelUsed).toBeGreaterThan(0);
    expect(await guard.callHook(bash('ls -la'))).toMatchObject({ ok: true, output: { decision: 'allow' } });
    await guard.close();
  });

  it('guards a real agent run: the destructive call never happens', async () => {
    const guard = await loadPlugin({ path: wasm });
    const ran: string[] = [];
    const host = createHost({
      plugins: [guard],
      permissionMode: 'bypassPermissions',
      model: scriptedModel({
        turns: [
          { toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }, { name: 'Bash', input: { command: 'ls -la' } }] },
          { text: 'Done.' },
        ],
      }),
      tools: [
        fakeBash('ok', ran),
      ],
    });
    const events: HostEvent[] = [];
    for await (const event of host.session().stream('clean up')) events.push(event);
    expect(ran).toEqual(['ls -la']);
    const denied = events.find((e) => e.type === 'tool.denied');
    expect(denied).toMatchObject({ name: 'Bash', reason: expect.stringMatching(/guard-shell/) });
    const hookEnds = events.filter((e) => e.type === 'hook.end');
    expect(hookEnds.map((e) => e.type === 'hook.end' && [e.kind, e.decision])).toEqual([
      ['wasm', 'deny'],
      ['wasm', 'allow'],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'agent.end', result: { subtype: 'success' } });
    await guard.close();
  });
});
