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
