// Cross-runtime agent scenarios: the conformance order and abort, on Node, Deno and Bun.
import assert from 'node:assert/strict';
import { createHost, scriptedModel, type HookEventName, type HostEvent, type HostOptions, type ToolHandler } from '../../dist/index.js';

const read: ToolHandler = {
  name: 'Read',
  description: 'Read a file',
  kind: 'js',
  inputSchema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
  run: async (input) => {
    const p = String(input.file_path);
    return p.includes('missing') ? { content: `ENOENT ${p}`, isError: true } : { content: `contents of ${p}`, isError: false };
  },
};
const write: ToolHandler = { ...read, name: 'Write', run: async (input) => ({ content: `wrote ${String(input.file_path)}`, isError: false }) };

const observed: HookEventName[] = ['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Stop'];
function recordOrder(order: string[]): HostOptions['hooks'] {
  return Object.fromEntries(observed.map((e) => [e, [{ hooks: [async () => (order.push(e), {})] }]]));
}

async function collect(stream: AsyncIterable<HostEvent>): Promise<HostEvent[]> {
  const out: HostEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

export const scenarios: Record<string, () => Promise<void>> = {
  'conformance: two failing Reads, two Reads, a Write, in hook order': async () => {
    const order: string[] = [];
    const model = scriptedModel([
      { toolCalls: [{ name: 'Read', input: { file_path: 'missing1' } }, { name: 'Read', input: { file_path: 'missing2' } }] },
      { toolCalls: [{ name: 'Read', input: { file_path: 'a' } }, { name: 'Read', input: { file_path: 'b' } }] },
      { toolCalls: [{ name: 'Write', input: { file_path: 'c' } }] },
      { text: 'Done.' },
    ]);
    const host = createHost({ model, tools: [read, write], allowedTools: ['Read', 'Write'], cwd: '/proj', hooks: recordOrder(order) });
    const events = await collect(host.session().stream('go'));
    assert.deepEqual(order, [
      'UserPromptSubmit',
      'PreToolUse', 'PostToolUseFailure', 'PreToolUse', 'PostToolUseFailure', 'PostToolBatch',
      'PreToolUse', 'PostToolUse', 'PreToolUse', 'PostToolUse', 'PostToolBatch',
      'PreToolUse', 'PostToolUse', 'PostToolBatch',
      'Stop',
    ]);
    const end = events.at(-1);
    assert.equal(end?.type, 'agent.end');
    assert.equal(end.type === 'agent.end' && end.result.subtype, 'success');
  },

  'conformance: a permission denial is PreToolUse → PermissionRequest → tool.denied, no Post*': async () => {
    const order: string[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'Write', input: { file_path: 'c' } }] }, { text: 'ok' }]);
    const host = createHost({ model, tools: [read, write], cwd: '/proj', hooks: recordOrder(order) });
    const events = await collect(host.session().stream('go'));
    const seen = events.filter((e) => e.type === 'hook.end' || e.type === 'tool.denied').map((e) => (e.type === 'hook.end' ? e.event : e.type));
    assert.deepEqual(seen, ['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'tool.denied', 'PostToolBatch', 'Stop']);
  },

  'abort during a hook: its signal fires, no tool starts, result aborted, idle again': async () => {
    let ran = 0;
    let hookSawAbort = false;
    let reached!: () => void;
    const atHook = new Promise<void>((r) => (reached = r));
    const model = scriptedModel([{ toolCalls: [{ name: 'Count', input: {} }] }, { text: 'later' }]);
    const count: ToolHandler = { ...read, name: 'Count', inputSchema: { type: 'object' }, run: async () => (ran++, { content: 'x', isError: false }) };
    const host = createHost({
      model,
      tools: [count],
      permissionMode: 'bypassPermissions',
      hooks: {
        PreToolUse: [{ hooks: [(_i, _id, { signal }) => (reached(), new Promise((resolve) => signal.addEventListener('abort', () => ((hookSawAbort = true), resolve({})))))] }],
      },
    });
    const session = host.session();
    const pending = session.prompt('go');
    await atHook;
    session.abort();
    const result = await pending;
    assert.equal(result.subtype, 'aborted');
    assert.equal(hookSawAbort, true);
    assert.equal(ran, 0);
    assert.equal(session.state, 'idle');
  },

  'abort during the model stream stops it promptly': async () => {
    const model = scriptedModel({ turns: [{ text: 'a b c d e f g h i j k l m n o p' }], delayMs: 10 });
    const session = createHost({ model }).session();
    const events: HostEvent[] = [];
    for await (const e of session.stream('go')) {
      events.push(e);
      if (e.type === 'text.delta') session.abort();
    }
    assert.ok(events.filter((e) => e.type === 'text.delta').length < 3);
    const end = events.at(-1);
    assert.equal(end?.type === 'agent.end' && end.result.subtype, 'aborted');
    const states = events.flatMap((e) => (e.type === 'state.change' ? [e.to] : []));
    assert.deepEqual(states.slice(-2), ['aborting', 'idle']);
  },

  'a PreToolUse deny skips the call; a Stop block runs another cycle with stop_hook_active': async () => {
    const active: boolean[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'Write', input: { file_path: '.env' } }] }, { text: 'first' }, { text: 'second' }]);
    const host = createHost({
      model,
      tools: [read, write],
      permissionMode: 'bypassPermissions',
      hooks: {
        PreToolUse: [{ matcher: 'Write', hooks: [async () => ({ decision: 'deny', reason: 'no secrets' })] }],
        Stop: [{ hooks: [async (i) => (i.hook_event_name === 'Stop' && (active.push(i.stop_hook_active), !i.stop_hook_active) ? { decision: 'block', reason: 'check again' } : {})] }],
      },
    });
    const events = await collect(host.session().stream('go'));
    const denied = events.find((e) => e.type === 'tool.denied');
    assert.equal(denied?.type === 'tool.denied' && denied.reason, 'no secrets');
    assert.equal(events.some((e) => e.type === 'tool.output'), false);
    assert.deepEqual(active, [false, true]);
    const end = events.at(-1);
    assert.equal(end?.type === 'agent.end' && end.result.text, 'second');
  },
};
