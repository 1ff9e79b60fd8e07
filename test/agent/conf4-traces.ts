// conf4: every hostile path of the conformance review (hostile-scenarios.ts: the rich session and
// its abort after every event, failing model streams, permission answers, hook stops and caps,
// sub-agents) checked for the event grammar AND for the transcript agreeing with the events
// (transcript-check.ts). Written against an `Api` (sources under vitest:
// conf4-traces.test.ts; dist/ on Node, Deno and Bun: test/xrt/conf4.xrt.ts).
import type { Message, Session } from '../../host/index.js';
import { collect, stepTool, type Api, type Stream } from './hostile.ts';
import * as hostile from './hostile-scenarios.ts';
import { transcriptViolations } from './transcript-check.ts';
import type { eventGrammarViolations as Grammar, shellHooks as ShellHooks } from '../../host/index.js';

export type TraceApi = Api & { eventGrammarViolations: typeof Grammar; shellHooks: typeof ShellHooks };

/** An Api whose hosts hand out sessions that are remembered, in the order they were made. */
function recording(api: Api): { api: Api; sessions: Session[] } {
  const sessions: Session[] = [];
  const createHost: Api['createHost'] = (options) => {
    const host = api.createHost(options);
    const session = host.session.bind(host);
    return Object.assign(host, {
      session: (...args: Parameters<typeof session>) => {
        const s = session(...args);
        sessions.push(s);
        return s;
      },
    });
  };
  return { api: { ...api, createHost }, sessions };
}

/** The scenario groups, each a list of one-prompt streams made by one session each. */
export const groups: Record<string, (api: Api) => Promise<Stream[]>> = {
  'the rich session, and aborted or left after every event': async (api) => {
    const [first] = await hostile.rich(api);
    return [...(first ? [first] : []), ...(await hostile.abortSweep(api, first?.events.length ?? 0))];
  },
  'sub-agents sent back, two sub-agents, Stop cap, a late answer: whole and aborted after every event': hostile.otherSweeps,
  'failing and malformed model streams': hostile.modelStreams,
  'permission answers and odd tools': hostile.permissions,
  'Stop blocks and caps, hook timeouts, hook stops, maxTurns': hostile.hooks,
  'sub-agents refused, failing, sent back; a throwing compactor': hostile.subagents,
  'a Stop block on the last model call maxTurns allows (error_max_turns), and one with a call left': async (api) => {
    const make = (maxTurns: number) => api.createHost({ model: api.scriptedModel([{ text: 'a' }, { text: 'b' }]), maxTurns, hooks: { Stop: [{ hooks: [async (i) => ('stop_hook_active' in i && i.stop_hook_active ? {} : { decision: 'block', reason: 'more' })] }] } });
    return [
      { name: 'no call left', events: await collect(make(1).session(), 'go') },
      { name: 'a call left', events: await collect(make(2).session(), 'go') },
    ];
  },
};

/**
 * docs/hooks.md: maxTurns bounds a prompt across Stop blocks; with no model call left a block ends
 * it `error_max_turns`. The grammar took that ending only after a turn with tool calls. Returns
 * what is wrong: the real stream must conform, and the same stream with the block taken out must not.
 */
export async function stopBlockAtMaxTurns(api: TraceApi): Promise<string[]> {
  const host = api.createHost({ model: api.scriptedModel([{ text: 'a' }]), maxTurns: 1, hooks: { Stop: [{ hooks: [async () => ({ decision: 'block', reason: 'more' })] }] } });
  const events = await collect(host.session(), 'go');
  const out = api.eventGrammarViolations(events).map((v) => `grammar ${v.rule}: ${v.message}`);
  const end = events[events.length - 1];
  if (end?.type !== 'agent.end' || end.result.subtype !== 'error_max_turns') out.push(`the prompt ended ${JSON.stringify(end)}, wanted error_max_turns`);
  const unblocked = events.map((e) => (e.type === 'hook.end' && e.event === 'Stop' ? { ...e, decision: 'continue' as const } : e));
  if (!api.eventGrammarViolations(unblocked).some((v) => v.rule === 'result')) out.push('error_max_turns after a turn without tools or a Stop block passes the grammar');
  return out;
}

/** What is wrong with each stream of a group (empty when every stream and its transcript conform). */
export async function traceProblems(api: TraceApi, group: (api: Api) => Promise<Stream[]>): Promise<string[]> {
  const rec = recording(api);
  const streams = await group(rec.api);
  await new Promise((r) => setTimeout(r, 30));
  const out: string[] = [];
  if (streams.length !== rec.sessions.length) return [`${streams.length} streams from ${rec.sessions.length} sessions`];
  streams.forEach((s, i) => {
    const session = rec.sessions[i] as Session;
    const grammar = api.eventGrammarViolations(s.events, s.span ? { span: s.span } : {}).map((v) => `grammar ${v.rule} at ${v.index}: ${v.message}`);
    const transcript = transcriptViolations(s.events, 0, session.messages as Message[]);
    for (const p of [...grammar, ...transcript]) out.push(`${s.name}: ${p}`);
  });
  return out;
}

/**
 * A Chat Completions server that numbers its calls per response (or gives none: our fallback is
 * `call_<index>`) uses `call_0` in every turn. The conversation must still name each call once
 * (Anthropic refuses a tool_use id twice; a result could answer the wrong call): the second is
 * `call_0-2` in its delta, call, result, message.end content and what the model gets back.
 */
export async function reusedCallIds(api: TraceApi): Promise<string[]> {
  const seen: Message[][] = [];
  const turn = (id: string, tag: string) => [
    { type: 'message.start', model: 'per-response-ids' },
    { type: 'tool.input.delta', index: 0, id, name: 'Look', partialJson: `{"tag":"${tag}"}` },
    { type: 'tool.call', id, name: 'Look', input: { tag } },
    { type: 'message.end', stopReason: 'tool_use', usage: { inputTokens: 1, outputTokens: 1 }, content: [{ type: 'tool_call', id, name: 'Look', input: { tag } }] },
  ];
  const turns = [turn('call_0', 'a'), turn('call_0', 'b'), [{ type: 'message.start', model: 'm' }, { type: 'message.end', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 } }]];
  const model = {
    id: 'per-response-ids',
    async *stream(request: { messages: readonly Message[] }) {
      seen.push(JSON.parse(JSON.stringify(request.messages)) as Message[]);
      for (const e of turns[seen.length - 1] ?? []) yield e;
    },
  };
  const host = api.createHost({ model: model as never, tools: [stepTool('Look', true)], permissionMode: 'bypassPermissions' });
  const session = host.session();
  const events = await collect(session, 'go');
  const out = api.eventGrammarViolations(events).map((v) => `grammar ${v.rule}: ${v.message}`);
  out.push(...transcriptViolations(events, 0, session.messages as Message[]));
  const ids = (type: string) => events.flatMap((e) => (e.type === type && 'toolUseId' in e ? [e.toolUseId] : []));
  const want = ['call_0', 'call_0-2'];
  for (const type of ['tool.input.delta', 'tool.call', 'tool.output']) if (JSON.stringify(ids(type)) !== JSON.stringify(want)) out.push(`${type} ids ${JSON.stringify(ids(type))}, wanted ${JSON.stringify(want)}`);
  const last = JSON.stringify(seen[2] ?? []);
  if (!last.includes('"id":"call_0-2"') || !last.includes('"toolUseId":"call_0-2"')) out.push(`the third model call does not get call_0-2 back: ${last.slice(0, 1500)}`);
  return out;
}

/**
 * Claude Code's `block` after a call (a PostToolUse hook answering `{"decision":"block","reason"}`,
 * or a shell hook exiting 2 with the reason on stderr) tells the model why; the output stands. It
 * was BAD_OUTPUT (deny is not a PostToolUse decision): the reason was lost, and a fail-closed hook
 * withheld the output and stopped the turn. JS and shell, fail-open and fail-closed.
 */
export async function blockAfterCall(api: TraceApi): Promise<string[]> {
  const out: string[] = [];
  const block = async () => ({ decision: 'block' as const, reason: 'lint failed: a.ts:1' });
  const kinds: Record<string, Partial<Parameters<Api['createHost']>[0]>> = {
    'JS hook': { hooks: { PostToolUse: [{ hooks: [block] }] } },
    'JS hook, fail-closed': { hooks: { PostToolUse: [{ failurePolicy: 'fail-closed', hooks: [block] }] } },
    'shell hook, exit 2': { plugins: [api.shellHooks([{ event: 'PostToolUse', command: "echo 'lint failed: a.ts:1' >&2; exit 2" }])] },
  };
  for (const [name, options] of Object.entries(kinds)) {
    const model = api.scriptedModel([{ toolCalls: [{ name: 'Look', id: 'w1', input: { tag: 'a' } }] }, { text: 'fixed' }]);
    const host = api.createHost({ model, tools: [stepTool('Look', true)], permissionMode: 'bypassPermissions', ...options });
    const session = host.session();
    const events = await collect(session, 'go');
    const problems = api.eventGrammarViolations(events).map((v) => `grammar ${v.rule}: ${v.message}`);
    problems.push(...transcriptViolations(events, 0, session.messages as Message[]));
    const end = events.find((e) => e.type === 'hook.end' && e.event === 'PostToolUse');
    if (end?.type !== 'hook.end' || end.failure !== undefined || end.decision !== 'continue') problems.push(`hook.end ${JSON.stringify(end)}`);
    const output = events.find((e) => e.type === 'tool.output');
    if (output?.type !== 'tool.output' || output.content !== 'Look:a') problems.push(`tool.output ${JSON.stringify(output)}`);
    const next = JSON.stringify(model.requests[1]?.messages ?? []);
    if (!/<hook-context from=\\"[^"]+\\">\\nlint failed: a.ts:1\\n<\/hook-context>/.test(next)) problems.push(`the next model call lacks the reason: ${next.slice(0, 800)}`);
    const result = events[events.length - 1];
    if (result?.type !== 'agent.end' || result.result.subtype !== 'success' || result.result.stoppedBy) problems.push(`ended ${JSON.stringify(result)}`);
    out.push(...problems.map((p) => `${name}: ${p}`));
  }
  return out;
}

/**
 * A compactor that keeps "the last n messages" can cut between a call and its result: every
 * provider refuses a result whose call is not just before it, so every later turn failed. Its
 * answer is refused (COMPACTION_FAILED), the turn goes on with the whole history, and the
 * conversation still replays.
 */
export async function splitCompactor(api: TraceApi): Promise<string[]> {
  const model = api.scriptedModel({ contextWindow: 100, turns: [{ toolCalls: [{ name: 'Look', id: 'c1', input: { tag: 'a' } }], usage: { inputTokens: 99 } }, { text: 'ok' }] });
  const host = api.createHost({ model, tools: [stepTool('Look', true)], permissionMode: 'bypassPermissions', keepTurns: 1, compactor: async (req) => req.messages.slice(-1) });
  const session = host.session();
  const events = await collect(session, 'go');
  const out = api.eventGrammarViolations(events).map((v) => `grammar ${v.rule}: ${v.message}`);
  out.push(...transcriptViolations(events, 0, session.messages as Message[]));
  const error = events.find((e) => e.type === 'error');
  if (error?.type !== 'error' || error.code !== 'COMPACTION_FAILED' || !/without its call/.test(error.message)) out.push(`error ${JSON.stringify(error)}`);
  if (events.some((e) => e.type === 'context.compacted')) out.push('the split answer was taken');
  if (model.requests[1]?.messages.length !== 3) out.push(`the second model call got ${JSON.stringify(model.requests[1]?.messages)}`);
  return out;
}
