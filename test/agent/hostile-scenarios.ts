// The hostile scenarios of the conformance review: every stream they return must satisfy the
// event grammar (host/events/grammar.ts). Run by test/agent/grammar.test.ts (sources, vitest) and
// test/xrt/conformance.xrt.ts (dist/, Node, Deno and Bun).
import type { HookCallback, HostEvent, ModelEvent } from '../../host/index.js';
import { collect, rawModel, richHost, settle, stepTool, subscribed, type Api, type Stream } from './hostile.ts';

const usage = { inputTokens: 1, outputTokens: 1 };
const start: ModelEvent = { type: 'message.start', model: 'raw' };
const end = (stopReason: 'end_turn' | 'tool_use' = 'end_turn'): ModelEvent => ({ type: 'message.end', stopReason, usage });
const text = (t: string): ModelEvent => ({ type: 'text.delta', text: t });
const call = (id: string, input: unknown = { tag: id }): ModelEvent => ({ type: 'tool.call', id, name: 'Look', input });
const failure: ModelEvent = { type: 'error', error: { code: 'OVERLOADED', message: 'try later' } };
const answer = [start, text('done'), end()];

/** The rich session once, and its number of events (the abort sweeps go up to it). */
export async function rich(api: Api): Promise<Stream[]> {
  const { host } = richHost(api);
  return [{ name: 'rich', events: await collect(host.session(), 'go') }];
}

/**
 * A session aborted after its k-th event, for every k (session.abort() from the stream's consumer),
 * and a consumer that stops reading (break) after its k-th event, its events seen by a subscriber.
 * `make` builds a fresh host each time (default: the rich session's); `step` > 1 samples every step-th k.
 */
export async function abortSweep(api: Api, total: number, step = 1, make: () => ReturnType<Api['createHost']> = () => richHost(api).host, label = ''): Promise<Stream[]> {
  const out: Stream[] = [];
  for (let k = 1; k <= total; k += step) {
    const a = make().session();
    out.push({ name: `${label}abort after ${k}`, events: await collect(a, 'go', (_e, n) => void (n === k && a.abort())) });
    const b = make().session();
    out.push({ name: `${label}break after ${k}`, events: await subscribed(b, async () => { await collect(b, 'go', (_e, n) => n === k); await b.idle(); }) });
  }
  return out;
}

/** The abort sweep over other paths: a sub-agent sent back to work, two sub-agents in one batch, Stop blocks up to the cap, a late permission answer. */
export async function otherSweeps(api: Api): Promise<Stream[]> {
  const agents = { looker: { description: 'looks', systemPrompt: 'look', tools: ['Look'] } };
  const agentTool = { name: 'agent', id: 'ag', input: { subagent_type: 'looker', prompt: 'look' } };
  const look = { toolCalls: [{ name: 'Look', id: 'in', input: { tag: 'a' } }] };
  const makers: Record<string, () => ReturnType<Api['createHost']>> = {
    'SubagentStop block: ': () => api.createHost({ tools: [stepTool('Look', true)], agents, permissionMode: 'bypassPermissions', stopHookCap: 1, model: api.scriptedModel([{ toolCalls: [agentTool] }, look, { text: 'a' }, { text: 'b' }, { text: 'ok' }]), hooks: { SubagentStop: [{ hooks: [blockAlways] }], PostToolUse: [{ hooks: [slow(0)] }] } }),
    'two sub-agents: ': () => api.createHost({ tools: [stepTool('Look', true)], agents, permissionMode: 'bypassPermissions', model: api.scriptedModel([{ toolCalls: [agentTool, { ...agentTool, id: 'ag2' }] }, look, { text: 'a' }, { text: 'b' }, { text: 'ok' }]), hooks: { SubagentStart: [{ hooks: [slow(0)] }], IterationStart: [{ hooks: [slow(0)] }] } }),
    'Stop cap: ': () => api.createHost({ model: api.scriptedModel(Array.from({ length: 4 }, (_, i) => ({ text: `answer ${i}` }))), stopHookCap: 2, hooks: { Stop: [{ hooks: [blockAlways] }], StopFailure: [{ hooks: [slow(0)] }], Error: [{ hooks: [slow(0)] }] } }),
    'late answer: ': () => api.createHost({ tools: [stepTool('Change', false)], permissionTimeoutMs: 15, canUseTool: () => new Promise((r) => setTimeout(() => r({ behavior: 'allow' }), 30)), model: api.scriptedModel([{ toolCalls: [{ name: 'Change', id: 'c1', input: { tag: 'a' } }, { name: 'Change', id: 'c2', input: { tag: 'b' } }] }, { text: 'ok' }]), hooks: { Notification: [{ hooks: [slow(0)] }] } }),
  };
  const out: Stream[] = [];
  for (const [label, make] of Object.entries(makers)) {
    const reference = await collect(make().session(), 'go');
    out.push({ name: `${label}whole`, events: reference }, ...(await abortSweep(api, reference.length, 1, make, label)));
  }
  return out;
}

/** Model streams that fail, and ones that break the Model contract. */
export async function modelStreams(api: Api): Promise<Stream[]> {
  const cases: Record<string, (ModelEvent | 'throw')[][]> = {
    'error mid-text': [[start, text('half'), failure]],
    'error mid-tool-call': [[start, { type: 'tool.input.delta', index: 0, id: 't1', name: 'Look', partialJson: '{"ta' }, failure]],
    'error after a complete tool call': [[start, call('t1'), failure]],
    'error before message.start': [[failure]],
    'throw mid-text': [[start, text('half'), 'throw']],
    'no message.end': [[start, text('half')]],
    'empty stream': [[]],
    'text before message.start': [[text('early'), start, text('late'), end()], answer],
    'tool.call before message.start': [[call('t1'), end('tool_use')], answer],
    'two message.start': [[start, text('a'), start, text('b'), end()], answer],
    'a duplicate tool call id': [[start, call('t1'), call('t1'), end('tool_use')], answer],
    'message.end then more': [[start, text('a'), end(), text('b'), call('t9'), end()], answer],
    'the same id in two turns': [[start, call('t1'), end('tool_use')], [start, call('t1'), end('tool_use')], answer],
  };
  const out: Stream[] = [];
  for (const [name, calls] of Object.entries(cases)) {
    const host = api.createHost({ model: rawModel(calls), tools: [stepTool('Look', true)], permissionMode: 'bypassPermissions', hooks: { StopFailure: [{ hooks: [async () => ({})] }], Error: [{ hooks: [async () => ({})] }] } });
    out.push({ name, events: await collect(host.session(), 'go') });
  }
  return out;
}

/** Permission answers: deny, ask, late, after an abort; and tools that throw or answer nonsense. */
export async function permissions(api: Api): Promise<Stream[]> {
  const turns = (ids: string[]) => api.scriptedModel([{ toolCalls: ids.map((id) => ({ name: 'Change', id, input: { tag: id } })) }, { text: 'ok' }]);
  const base = { tools: [stepTool('Change', false), { ...stepTool('Odd', false), run: async () => ({ content: 42 }) as never }] };
  const out: Stream[] = [];
  const deny = api.createHost({ ...base, model: turns(['d1', 'd2']), canUseTool: async () => ({ behavior: 'deny', message: 'no' }) });
  out.push({ name: 'deny', events: await collect(deny.session(), 'go') });
  const ask = api.createHost({ ...base, model: turns(['a1']), allowedTools: ['Change'], canUseTool: async () => ({ behavior: 'allow', updatedInput: { tag: 'changed' } }), hooks: { PreToolUse: [{ hooks: [async () => ({ decision: 'ask' })] }] } });
  out.push({ name: 'ask, answered with a rewrite (re-checked)', events: await collect(ask.session(), 'go') });
  const late = api.createHost({ ...base, model: turns(['t1', 't2']), permissionTimeoutMs: 20, canUseTool: () => new Promise((r) => setTimeout(() => r({ behavior: 'allow' }), 60)) });
  out.push({ name: 'answer after the timeout', events: await collect(late.session(), 'go') });
  const none = api.createHost({ ...base, model: turns(['n1']) });
  out.push({ name: 'no callback', events: await collect(none.session(), 'go') });
  let session: ReturnType<typeof late.session> | undefined;
  const afterAbort = api.createHost({ ...base, model: turns(['x1', 'x2']), canUseTool: () => new Promise((r) => { session?.abort(); setTimeout(() => r({ behavior: 'allow' }), 10); }) });
  session = afterAbort.session();
  out.push({ name: 'answer after an abort', events: await collect(session, 'go') });
  await new Promise((r) => setTimeout(r, 20));
  const odd = api.createHost({ ...base, model: api.scriptedModel([{ toolCalls: [{ name: 'Odd', id: 'o1', input: {} }, { name: 'Nope', id: 'n1', input: {} }] }, { text: 'ok' }]), permissionMode: 'bypassPermissions' });
  out.push({ name: 'a tool answers nonsense, an unknown tool', events: await collect(odd.session(), 'go') });
  return out;
}

const blockAlways: HookCallback = async () => ({ decision: 'block', reason: 'again' });
const slow = (ms: number): HookCallback => () => new Promise((r) => setTimeout(() => r({}), ms));

/** Stop blocks up to the cap; hooks that time out under either policy; hook stops and refusals; maxTurns. */
export async function hooks(api: Api): Promise<Stream[]> {
  const texts = (n: number) => api.scriptedModel(Array.from({ length: n }, (_, i) => ({ text: `answer ${i}` })));
  const read = () => api.scriptedModel([{ toolCalls: [{ name: 'Look', id: 'r1', input: { tag: 'a' } }, { name: 'Look', id: 'r2', input: { tag: 'b' } }] }, { text: 'ok' }]);
  const tools = [stepTool('Look', true)];
  const cases: Record<string, Parameters<Api['createHost']>[0]> = {
    'Stop blocks twice, then lets it stop': { model: texts(3), hooks: { Stop: [{ hooks: [async (i) => (i.hook_event_name === 'Stop' && i.stop_hook_active && (i.last_assistant_message === 'answer 2') ? {} : { decision: 'block', reason: 'more' })] }] } },
    'Stop blocks past stopHookCap': { model: texts(5), stopHookCap: 2, hooks: { Stop: [{ hooks: [blockAlways] }], StopFailure: [{ hooks: [slow(0)] }], Error: [{ hooks: [slow(0)] }] } },
    'a fail-closed PreToolUse hook times out': { model: read(), tools, permissionMode: 'bypassPermissions', hooks: { PreToolUse: [{ timeoutMs: 10, hooks: [slow(200)] }] } },
    'a fail-open PreToolUse hook times out': { model: read(), tools, permissionMode: 'bypassPermissions', hooks: { PreToolUse: [{ timeoutMs: 10, failurePolicy: 'fail-open', hooks: [slow(200)] }] } },
    'a fail-closed PostToolUse hook times out (output withheld)': { model: read(), tools, permissionMode: 'bypassPermissions', hooks: { PostToolUse: [{ timeoutMs: 10, failurePolicy: 'fail-closed', hooks: [slow(200)] }] } },
    'a fail-closed Stop hook times out': { model: texts(1), hooks: { Stop: [{ timeoutMs: 10, failurePolicy: 'fail-closed', hooks: [slow(200)] }] } },
    'UserPromptSubmit refuses': { model: texts(1), hooks: { UserPromptSubmit: [{ hooks: [async () => ({ decision: 'deny', reason: 'no' })] }] } },
    'IterationStart stops': { model: texts(1), hooks: { IterationStart: [{ hooks: [async () => ({ decision: 'stop' })] }] } },
    'PreToolBatch stops': { model: read(), tools, permissionMode: 'bypassPermissions', hooks: { PreToolBatch: [{ hooks: [async () => ({ decision: 'stop' })] }] } },
    'PreToolUse stops the batch': { model: read(), tools, permissionMode: 'bypassPermissions', hooks: { PreToolUse: [{ hooks: [async () => ({ decision: 'stop' })] }] } },
    'PostToolUse stops after the batch': { model: read(), tools, permissionMode: 'bypassPermissions', hooks: { PostToolUse: [{ hooks: [async () => ({ decision: 'stop' })] }], PostToolBatch: [{ hooks: [slow(0)] }] } },
    'maxTurns': { model: api.scriptedModel([{ toolCalls: [{ name: 'Look', id: 'm1', input: { tag: 'a' } }] }]), tools, maxTurns: 1, permissionMode: 'bypassPermissions' },
  };
  const out: Stream[] = [];
  for (const [name, options] of Object.entries(cases)) out.push({ name, events: await collect(api.createHost(options).session(), 'go') });
  return out;
}

/** Sub-agents that are refused, fail, or are sent back to work; a compactor that throws. */
export async function subagents(api: Api): Promise<Stream[]> {
  const agentTool = { name: 'agent', id: 'ag', input: { subagent_type: 'looker', prompt: 'look' } };
  const agentCall = { toolCalls: [agentTool] };
  const agents = { looker: { description: 'looks', systemPrompt: 'look', tools: ['Look'] } };
  const base = { tools: [stepTool('Look', true)], agents, permissionMode: 'bypassPermissions' as const };
  const cases: Record<string, Parameters<Api['createHost']>[0]> = {
    'SubagentStart denies': { ...base, model: api.scriptedModel([agentCall, { text: 'ok' }]), hooks: { SubagentStart: [{ hooks: [async () => ({ decision: 'deny' })] }] } },
    'the sub-agent\'s model fails': { ...base, model: api.scriptedModel([agentCall, { text: 'x', error: { code: 'NETWORK', message: 'down' } }, { text: 'ok' }]), hooks: { StopFailure: [{ hooks: [slow(0)] }] } },
    'SubagentStop sends it back to work until the cap': { ...base, stopHookCap: 1, model: api.scriptedModel([agentCall, { text: 'a' }, { text: 'b' }, { text: 'ok' }]), hooks: { SubagentStop: [{ hooks: [blockAlways] }] } },
    'two sub-agents in one batch': { ...base, model: api.scriptedModel([{ toolCalls: [agentTool, { ...agentTool, id: 'ag2' }] }, { text: 'a' }, { text: 'b' }, { text: 'ok' }]) },
    'the compactor throws (the turn goes on)': {
      model: api.scriptedModel({ contextWindow: 100, turns: [{ toolCalls: [{ name: 'Look', id: 'c1', input: { tag: 'a' } }], usage: { inputTokens: 99 } }, { text: 'ok' }] }),
      tools: [stepTool('Look', true)], permissionMode: 'bypassPermissions', keepTurns: 1,
      compactor: async () => { throw new Error('summariser down'); },
    },
  };
  const out: Stream[] = [];
  for (const [name, options] of Object.entries(cases)) out.push({ name, events: await collect(api.createHost(options).session(), 'go') });
  return out;
}

/** What a session's subscriber sees over several prompts, a manual compaction and close(). */
export async function sessionSpan(api: Api): Promise<Stream[]> {
  const host = api.createHost({ model: api.scriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'SUMMARY' }, { text: 'three' }]), keepTurns: 1, hooks: { SessionStart: [{ hooks: [slow(0)] }], SessionEnd: [{ hooks: [slow(0)] }], PreCompact: [{ hooks: [slow(0)] }] } });
  const session = host.session();
  const events: HostEvent[] = await subscribed(session, async () => {
    await session.prompt('1');
    await session.prompt('2');
    await session.compact();
    await session.prompt('3');
    await settle();
    await session.close();
  });
  // A manual compaction aborted in its PreCompact hook, one whose compactor throws (an error event between prompts), then a prompt.
  let session2: ReturnType<typeof host.session> | undefined;
  const other = api.createHost({
    model: api.scriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }]),
    keepTurns: 1,
    compactor: async () => { throw new Error('summariser down'); },
    hooks: { PreCompact: [{ hooks: [async () => { if (compactions++ === 0) session2?.abort(); return {}; }] }] },
  });
  let compactions = 0;
  session2 = other.session();
  const s2 = session2;
  const events2 = await subscribed(s2, async () => {
    await s2.prompt('1');
    await s2.prompt('2');
    await s2.compact();
    await s2.compact();
    await s2.prompt('3');
  });
  return [
    { name: 'a session over three prompts, a compaction and close()', events, span: 'session' },
    { name: 'manual compactions aborted and failing between prompts', events: events2, span: 'session' },
  ];
}
