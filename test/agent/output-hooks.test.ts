// Output hooks (redactors): what they rewrite is what the model and the
// tool.output event get; a fail-closed one that fails withholds the output.
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../host/models/scripted.js';
import type { HookCallback } from '../../host/hooks/types.js';
import { collect, host, ofType } from './helpers.js';

const SECRET = 'sk-live-1234567890abcdef';
const model = (file_path: string) => scriptedModel([{ toolCalls: [{ name: 'Read', input: { file_path } }] }, { text: 'ok' }]);
const redact: HookCallback = async (input) =>
  'tool_response' in input && typeof input.tool_response === 'string'
    ? { updatedOutput: input.tool_response.replace(/\/proj\/\S+/, '[REDACTED]') }
    : {};
const broken: HookCallback = async () => {
  throw new Error('redactor crashed');
};

describe('PostToolUse output rewrites', () => {
  it('tool.output and the conversation carry the rewritten output, never the raw one', async () => {
    const session = host({ permissionMode: 'bypassPermissions', model: model(SECRET), hooks: { PostToolUse: [{ hooks: [redact] }] } }).session();
    const events = await collect(session, 'read it');
    expect(ofType(events, 'tool.output').map((e) => e.content)).toEqual(['contents of [REDACTED]']);
    expect(JSON.stringify(events)).not.toContain(`contents of /proj/${SECRET}`);
    expect(session.messages.find((m) => m.role === 'tool')).toMatchObject({ content: 'contents of [REDACTED]' });
  });

  it('a fail-closed output hook that fails withholds the output and stops the turn', async () => {
    const session = host({
      permissionMode: 'bypassPermissions',
      model: model(SECRET),
      hooks: { PostToolUse: [{ hooks: [broken], failurePolicy: 'fail-closed' }] },
    }).session();
    const events = await collect(session, 'read it');
    const [output] = ofType(events, 'tool.output');
    expect(output?.content).toMatch(/^\[output withheld: hook ".*" failed \(TRAP\): hook threw: redactor crashed\]$/);
    expect(JSON.stringify(session.messages.filter((m) => m.role === 'tool'))).not.toContain(SECRET);
    expect(events.at(-1)).toMatchObject({ type: 'agent.end', result: { stoppedBy: { event: 'PostToolUse' } } });
  });

  it('a fail-open output hook that fails leaves the output as it was', async () => {
    const session = host({ permissionMode: 'bypassPermissions', model: model('notes.txt'), hooks: { PostToolUse: [{ hooks: [broken] }] } }).session();
    const events = await collect(session, 'read it');
    expect(ofType(events, 'tool.output').map((e) => e.content)).toEqual(['contents of /proj/notes.txt']);
  });

  it('PostToolUseFailure hooks may rewrite the error text the model gets', async () => {
    const session = host({
      permissionMode: 'bypassPermissions',
      model: model(`missing-${SECRET}`),
      hooks: { PostToolUseFailure: [{ hooks: [redact] }] },
    }).session();
    const events = await collect(session, 'read it');
    expect(ofType(events, 'tool.output')[0]).toMatchObject({ isError: true, content: 'ENOENT: [REDACTED]' });
    expect(JSON.stringify(session.messages.filter((m) => m.role === 'tool'))).not.toContain(SECRET);
  });
});
