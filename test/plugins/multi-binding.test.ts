// A guest-SDK plugin with two bindings for one event, loaded by the host and
// run by an agent: each binding's handler runs once per call, with its own
// answer (the guest routes by binding_index), and the host's chain rule is the
// only one (a deny ends it, a rewrite feeds the next binding).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlugin, scriptedModel, type HookInput, type HostEvent, type WasmPlugin } from '../../host/index.js';
import { verdictOf } from '../../host/cli/commands/replay.js';
import { builtWasm } from '../guest/built.js';
import { host } from '../agent/helpers.js';
import { fakeBash } from '../fixtures/tools.js';

let plugin: WasmPlugin;
beforeAll(async () => {
  plugin = await loadPlugin({ path: builtWasm('test/fixtures/multi-binding/build/multi-binding.wasm') });
});
afterAll(() => plugin?.close());

async function run(call: { name: string; input: Record<string, unknown> }) {
  const ran: string[] = [];
  const model = scriptedModel([{ toolCalls: [call] }, { text: 'done' }]);
  const h = host({ model, plugins: [plugin], tools: [fakeBash('ok', ran)], permissionMode: 'bypassPermissions' });
  const session = h.session();
  const events: HostEvent[] = [];
  session.subscribe((e) => void events.push(e));
  await session.prompt('go');
  const ends = events.flatMap((e) => (e.type === 'hook.end' ? [e] : []));
  const context = model.requests[1]?.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).find((c) => c.startsWith('<hook-context '));
  return { ran, ends, context, events };
}

describe('a plugin with onPreToolUse("Bash", A) and onPreToolUse("", B)', () => {
  it('describes two bindings, each its own handler', () => {
    expect(plugin.info.hooks).toEqual([
      { event: 'PreToolUse', matcher: 'Bash', failurePolicy: 'fail-closed' },
      { event: 'PreToolUse', matcher: '' },
    ]);
    expect(plugin.hooks().map((h) => h.id)).toEqual(['multi-binding#0', 'multi-binding#1']);
  });

  it('Bash: exactly one hook.end per binding, each with its own context, and the model gets each line once', async () => {
    const { ran, ends, context } = await run({ name: 'Bash', input: { command: 'ls' } });
    expect(ran).toEqual(['ls']);
    expect(ends.map((e) => [e.hookId, e.decision, e.additionalContext])).toEqual([
      ['multi-binding#0', 'continue', 'A saw ls'],
      ['multi-binding#1', 'continue', 'B saw Bash {"command":"ls"}'],
    ]);
    expect(context).toBe('<hook-context from="multi-binding">\nA saw ls\n</hook-context>\n<hook-context from="multi-binding">\nB saw Bash {"command":"ls"}\n</hook-context>');
  });

  it('another tool: only the "" binding runs', async () => {
    const { ends } = await run({ name: 'Read', input: { file_path: 'a.txt' } });
    expect(ends.map((e) => [e.hookId, e.additionalContext])).toEqual([['multi-binding#1', expect.stringMatching(/^B saw Read \{"file_path":".*a\.txt"\}$/)]]);
  });

  it('a deny by A ends the chain: B does not run and the tool does not either', async () => {
    const { ran, ends, events } = await run({ name: 'Bash', input: { command: 'rm -rf /' } });
    expect(ran).toEqual([]);
    expect(ends.map((e) => [e.hookId, e.decision, e.reason])).toEqual([['multi-binding#0', 'deny', 'A: no rm']]);
    expect(events.some((e) => e.type === 'tool.denied')).toBe(true);
  });

  it('a rewrite by A is what B sees and what the tool runs', async () => {
    const { ran, ends } = await run({ name: 'Bash', input: { command: 'rewrite-me' } });
    expect(ends.map((e) => [e.hookId, e.additionalContext, e.inputUpdated ?? false])).toEqual([
      ['multi-binding#0', 'A rewrote rewrite-me', true],
      ['multi-binding#1', 'B saw Bash {"command":"ls -la"}', false],
    ]);
    expect(ran).toEqual(['ls -la']);
  });

  it('`plugin test` (verdictOf) answers as a host with only this plugin: the chain of its bindings', async () => {
    const bash = (command: string): HookInput => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' });
    expect(await verdictOf(plugin, bash('rm -rf /'))).toMatchObject({ kind: 'decided', decision: 'deny', reason: 'A: no rm' });
    const rewritten = await verdictOf(plugin, bash('rewrite-me'));
    expect(rewritten).toMatchObject({ kind: 'decided', decision: 'continue', updatedInput: { command: 'ls -la' } });
    expect(rewritten.kind === 'decided' && rewritten.fuelUsed).toBeGreaterThan(0);
    const stop = { hook_event_name: 'Stop', session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default', stop_hook_active: false, last_assistant_message: '' } as const;
    expect(await verdictOf(plugin, stop)).toEqual({ kind: 'unbound' });
  });

  it('a direct callHook goes to the first binding that accepts the input, and to none when none does', async () => {
    const input = { hook_event_name: 'Stop', session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default', stop_hook_active: false, last_assistant_message: '' } as const;
    expect(await plugin.callHook(input)).toEqual({ ok: true, output: {} });
  });
});
