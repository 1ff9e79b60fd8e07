// Ports the order of hook events that Claude Agent SDK users rely on (from a published trace).
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../host/models/scripted.js';
import { collect, endResult, host, ofType, orderRecorder } from './helpers.js';

const ALL = [
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
] as const;

describe('conformance: hook order', () => {
  it('two failing Reads, two succeeding Reads, a Write', async () => {
    const { order, hooks } = orderRecorder(ALL);
    const model = scriptedModel([
      { toolCalls: [{ name: 'Read', input: { file_path: 'missing1.txt' } }, { name: 'Read', input: { file_path: 'missing2.txt' } }] },
      { toolCalls: [{ name: 'Read', input: { file_path: 'a.txt' } }, { name: 'Read', input: { file_path: 'b.txt' } }] },
      { toolCalls: [{ name: 'Write', input: { file_path: 'c.txt', content: 'x' } }] },
      { text: 'Done.' },
    ]);
    const session = host({ model, hooks, allowedTools: ['Read', 'Write'] }).session();
    const events = await collect(session, 'go');
    expect(order).toEqual([
      'UserPromptSubmit',
      'PreToolUse', 'PostToolUseFailure',
      'PreToolUse', 'PostToolUseFailure',
      'PostToolBatch',
      'PreToolUse', 'PostToolUse',
      'PreToolUse', 'PostToolUse',
      'PostToolBatch',
      'PreToolUse', 'PostToolUse',
      'PostToolBatch',
      'Stop',
    ]);
    // hook.end events agree with what the hooks saw, in the same order
    expect(ofType(events, 'hook.end').map((e) => e.event)).toEqual(order);
    const result = endResult(events);
    expect(result).toMatchObject({ subtype: 'success', text: 'Done.', turns: 4 });
    expect(ofType(events, 'tool.output').map((e) => e.isError)).toEqual([true, true, false, false, false]);
  });

  it('a permission denial: PreToolUse → PermissionRequest → tool.denied, and no Post* event', async () => {
    const { order, hooks } = orderRecorder(ALL);
    const model = scriptedModel([{ toolCalls: [{ name: 'Write', input: { file_path: 'c.txt', content: 'x' } }] }, { text: 'ok' }]);
    const session = host({ model, hooks }).session(); // default mode, no rules, no callback
    const events = await collect(session, 'write it');
    const seen = events
      .filter((e) => e.type === 'hook.end' || e.type === 'tool.denied' || e.type === 'tool.output')
      .map((e) => (e.type === 'hook.end' ? e.event : e.type));
    expect(seen).toEqual(['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'tool.denied', 'PostToolBatch', 'Stop']);
    const denied = ofType(events, 'tool.denied')[0];
    expect(denied).toMatchObject({ name: 'Write', source: 'no-callback' });
    // the model was told, as an error result for that call
    const toolMsg = session.messages.find((m) => m.role === 'tool');
    expect(toolMsg).toMatchObject({ role: 'tool', isError: true, toolName: 'Write' });
  });
});

// The hook order the Claude Agent SDK documents, item by item (the deliberate differences are in
// docs/hooks.md, "Compatibility"). Each case records every hook event that fired, in order.
describe('conformance: the Claude Agent SDK\'s documented hook order', () => {
  const EVERY = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'Notification', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SessionEnd'] as const;
  const write = { toolCalls: [{ name: 'Write', id: 'w1', input: { file_path: 'c.txt', content: 'x' } }] };

  it('PreToolUse deny: the call does not run, no PermissionRequest, no PostToolUse (nor PostToolUseFailure)', async () => {
    const { order, hooks } = orderRecorder(EVERY);
    hooks!.PreToolUse = [{ hooks: [async () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no writes' } })] }];
    const session = host({ model: scriptedModel([write, { text: 'ok' }]), hooks, canUseTool: async () => ({ behavior: 'allow' }) }).session();
    const events = await collect(session, 'go');
    expect(order).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop']);
    expect(ofType(events, 'tool.denied')).toMatchObject([{ toolUseId: 'w1', source: 'hook', reason: 'no writes' }]);
    expect(ofType(events, 'tool.output')).toEqual([]);
    expect(session.messages.find((m) => m.role === 'tool')).toMatchObject({ isError: true, content: 'no writes' });
  });

  it('PermissionRequest fires only when a permission is asked (not for a rule, a mode, a hook allow or a deny rule)', async () => {
    const run = async (options: Parameters<typeof host>[0]) => {
      const { order, hooks } = orderRecorder(['PermissionRequest', 'Notification']);
      await collect(host({ model: scriptedModel([write, { text: 'ok' }]), canUseTool: async () => ({ behavior: 'allow' }), ...options, hooks: { ...hooks, ...options?.hooks } }).session(), 'go');
      return order;
    };
    expect(await run({ allowedTools: ['Write'] })).toEqual([]);
    expect(await run({ permissionMode: 'bypassPermissions' })).toEqual([]);
    expect(await run({ permissionMode: 'acceptEdits' })).toEqual([]);
    expect(await run({ disallowedTools: ['Write'] })).toEqual([]);
    expect(await run({ hooks: { PreToolUse: [{ hooks: [async () => ({ decision: 'allow' })] }] } })).toEqual([]);
    // Asked: the default mode with no rule, or a PreToolUse `ask` even where a rule would allow.
    expect(await run({})).toEqual(['PermissionRequest', 'Notification']);
    expect(await run({ allowedTools: ['Write'], hooks: { PreToolUse: [{ hooks: [async () => ({ decision: 'ask' })] }] } })).toEqual(['PermissionRequest', 'Notification']);
  });

  it('UserPromptSubmit block: no model call, no other hook, the prompt is not kept', async () => {
    const { order, hooks } = orderRecorder(EVERY);
    hooks!.UserPromptSubmit = [{ hooks: [async () => ({ decision: 'block', reason: 'not that' })] }];
    const model = scriptedModel([{ text: 'never' }]);
    const session = host({ model, hooks }).session();
    const events = await collect(session, 'secret prompt');
    expect(order).toEqual(['SessionStart']);
    expect(model.requests).toHaveLength(0);
    expect(session.messages).toEqual([]);
    expect(endResult(events)).toMatchObject({ subtype: 'success', turns: 0, stoppedBy: { event: 'UserPromptSubmit', decision: 'deny', reason: 'not that' } });
  });

  it('Stop `decision: block` continues: its reason is the next user message, stop_hook_active on the next Stop', async () => {
    const inputs: { stop_hook_active?: boolean }[] = [];
    const stop = async (i: { stop_hook_active?: boolean }) => (inputs.push(i), inputs.length === 1 ? { decision: 'block' as const, reason: 'run the tests' } : {});
    const model = scriptedModel([{ text: 'done?' }, { text: 'tests pass' }]);
    const events = await collect(host({ model, hooks: { Stop: [{ hooks: [stop as never] }] } }).session(), 'go');
    expect(inputs.map((i) => i.stop_hook_active)).toEqual([false, true]);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('run the tests') });
    expect(endResult(events)).toMatchObject({ subtype: 'success', turns: 2, text: 'tests pass' });
  });

  it('SessionStart once, before the first prompt\'s UserPromptSubmit; SessionEnd at close, after the last prompt', async () => {
    const { order, hooks } = orderRecorder(EVERY);
    const session = host({ model: scriptedModel([{ text: 'a' }, { text: 'b' }]), hooks }).session();
    await collect(session, 'one');
    await collect(session, 'two');
    await session.close();
    expect(order).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop', 'UserPromptSubmit', 'Stop', 'SessionEnd']);
  });

  it('Notification fires only when the question goes to the app (no PermissionRequest hook answered it)', async () => {
    const { order, hooks } = orderRecorder(['PermissionRequest', 'Notification']);
    hooks!.PermissionRequest = [{ hooks: [async () => (order.push('PermissionRequest'), { decision: 'allow' as const })] }];
    await collect(host({ model: scriptedModel([write, { text: 'ok' }]), hooks }).session(), 'go');
    expect(order).toEqual(['PermissionRequest']);
  });
});
