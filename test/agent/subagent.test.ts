// Sub-agents: the agent tool runs a nested loop; order, ids, guards, failures, abort, depth.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import type { HostOptions } from '../../host/host-options.js';
import type { HookCallback, HookEventName, HookInput } from '../../host/hooks/types.js';
import { loadPlugin } from '../../host/index.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import { SUBAGENT_WITHHELD } from '../../host/agent/subagent-gate.js';
import { collect, deferred, endResult, fileTools, ofType } from './helpers.js';

const guardShell = new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url).pathname;

const researcher = { description: 'Reads files and reports', systemPrompt: 'You research.', tools: ['Read', 'Bash'] };
const callAgent = (prompt: string, id = 'toolu_parent', subagent_type = 'researcher') => ({
  toolCalls: [{ name: 'agent', id, input: { subagent_type, prompt } }],
});

/** Records `Event[tool]` plus `@agent_id` for hooks that ran inside a sub-agent. */
function trail(events: readonly HookEventName[]) {
  const seen: string[] = [];
  const inputs: HookInput[] = [];
  const fn: HookCallback = async (input) => {
    inputs.push(input);
    const tool = 'tool_name' in input ? `[${input.tool_name}]` : '';
    seen.push(`${input.hook_event_name}${tool}${input.agent_id ? `@${input.agent_id}` : ''}`);
    return {};
  };
  const hooks = Object.fromEntries(events.map((e) => [e, [{ hooks: [fn] }]])) as HostOptions['hooks'];
  return { seen, inputs, hooks };
}

const bash = (ran: string[]) =>
  tool('Bash', 'Run a command', z.object({ command: z.string() }), ({ command }) => (ran.push(command), 'ok'));

function agentHost(options: HostOptions) {
  return createHost({ tools: fileTools(), cwd: '/proj', permissionMode: 'bypassPermissions', agents: { researcher }, ...options });
}

describe('sub-agent order and ids', () => {
  it('PreToolUse[agent] → SubagentStart → its own hooks → SubagentStop → PostToolUse[agent], every sub event stamped', async () => {
    const { seen, inputs, hooks } = trail(['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'SubagentStart', 'SubagentStop', 'Stop']);
    const model = scriptedModel([
      callAgent('read a'),
      { toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] },
      { text: 'a says hi' },
      { text: 'done' },
    ]);
    const session = agentHost({ model, hooks }).session();
    const events = await collect(session, 'go');
    const sub = 'researcher@toolu_parent';
    expect(seen).toEqual([
      'UserPromptSubmit',
      'PreToolUse[agent]',
      `SubagentStart@${sub}`,
      // Neither UserPromptSubmit nor Stop fires inside a sub-agent (the measured Claude trace).
      `PreToolUse[Read]@${sub}`,
      `PostToolUse[Read]@${sub}`,
      `SubagentStop@${sub}`,
      'PostToolUse[agent]',
      'Stop',
    ]);
    expect(inputs.find((i) => i.hook_event_name === 'SubagentStop')).toMatchObject({ agent_type: 'researcher', prompt: 'read a', result: 'a says hi' });
    expect(inputs[0]).not.toHaveProperty('agent_id');

    // Sub-agent events sit between subagent.start and subagent.end and carry both ids; the parent's carry none.
    const from = events.findIndex((e) => e.type === 'subagent.start');
    const to = events.findIndex((e) => e.type === 'subagent.end');
    expect(from).toBeGreaterThan(0);
    for (const [i, e] of events.entries()) {
      // SubagentStop's hooks run in the parent, just before subagent.end.
      const inside = i >= from && i <= to && !((e.type === 'hook.start' || e.type === 'hook.end') && e.event === 'SubagentStop');
      if (inside) expect(e, e.type).toMatchObject({ agentId: sub, parentToolUseId: 'toolu_parent' });
      if (i < from || i > to) expect(e.agentId, e.type).toBeUndefined();
    }
    expect(events.filter((e) => e.agentId).map((e) => e.type)).toContain('tool.output');
    expect(ofType(events, 'agent.end')).toHaveLength(1);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => events[0]!.seq + i));
    // A PostToolUse hook applies to the agent call (this trail's matches every tool), so the sub-agent's own text is
    // withheld from its live events (fix3: subagent-gate.ts); the hook's view of the output is the agent call's.
    expect(events[to]).toMatchObject({ type: 'subagent.end', agentType: 'researcher', isError: false, result: { subtype: 'success', text: SUBAGENT_WITHHELD, turns: 2 } });
    const agentOutput = ofType(events, 'tool.output').find((e) => e.name === 'agent');
    expect(agentOutput).toMatchObject({ content: 'a says hi', isError: false });
    expect(agentOutput?.agentId).toBeUndefined();
    expect(endResult(events)).toMatchObject({ subtype: 'success', text: 'done' });
    // The session's own state never left executing for the sub-agent; its state changes are stamped.
    expect(ofType(events, 'state.change').filter((e) => !e.agentId).map((e) => e.to)).toEqual(['thinking', 'executing', 'thinking', 'idle']);
    expect(ofType(events, 'state.change').filter((e) => e.agentId).map((e) => e.to)).toEqual(['thinking', 'executing', 'thinking', 'idle']);

    // The sub-agent's model call: its system prompt, its own conversation, only its allowed tools, no agent tool (depth 1).
    expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(['Read', 'Write', 'agent']);
    expect(model.requests[1]).toMatchObject({ system: 'You research.', messages: [{ role: 'user', content: 'read a' }] });
    expect(model.requests[1]?.tools.map((t) => t.name)).toEqual(['Read']);
    expect(model.requests[3]?.messages.at(-1)).toMatchObject({ role: 'tool', toolName: 'agent', content: 'a says hi' });
  });

  it('a sub-agent cannot start another one past maxAgentDepth, and says so; depth 2 stamps its own ids', async () => {
    const deep = { description: 'nests', systemPrompt: 'nest' };
    const model = scriptedModel([
      callAgent('go deeper', 'toolu_1', 'deep'),
      callAgent('deepest', 'toolu_2', 'deep'),
      { text: 'refused?' },
      { text: 'ok' },
      { text: 'done' },
    ]);
    const events = await collect(agentHost({ model, agents: { deep } }).session(), 'go');
    const refusal = ofType(events, 'tool.output').find((e) => e.toolUseId === 'toolu_2');
    expect(refusal).toMatchObject({ isError: true, content: expect.stringMatching(/depth 1 .*maxAgentDepth is 1/) });
    expect(model.requests[1]?.tools.map((t) => t.name)).not.toContain('agent');

    const model2 = scriptedModel([callAgent('go deeper', 'toolu_1', 'deep'), callAgent('deepest', 'toolu_2', 'deep'), { text: 'bottom' }, { text: 'middle' }, { text: 'top' }]);
    const nested = await collect(agentHost({ model: model2, agents: { deep }, maxAgentDepth: 2 }).session(), 'go');
    const starts = ofType(nested, 'subagent.start');
    expect(starts.map((e) => [e.agentId, e.parentToolUseId, e.depth])).toEqual([
      ['deep@toolu_1', 'toolu_1', 1],
      ['deep@toolu_2', 'toolu_2', 2],
    ]);
    expect(ofType(nested, 'message.end').map((e) => e.agentId)).toEqual([undefined, 'deep@toolu_1', 'deep@toolu_2', 'deep@toolu_1', undefined]);
    expect(ofType(nested, 'tool.output').map((e) => [e.name, e.content, e.agentId])).toEqual([
      ['agent', 'bottom', 'deep@toolu_1'],
      ['agent', 'middle', undefined],
    ]);
    expect(endResult(nested).text).toBe('top');
  });
});

describe('guards cover the tree', () => {
  it('the guard-shell WASM plugin denies rm -rf / inside a sub-agent; ls runs', async () => {
    const guard = await loadPlugin({ path: guardShell });
    const ran: string[] = [];
    const model = scriptedModel([
      callAgent('clean up'),
      { toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }, { name: 'Bash', input: { command: 'ls -la' } }] },
      { text: 'one was refused' },
      { text: 'done' },
    ]);
    const events = await collect(agentHost({ model, plugins: [guard], tools: [...fileTools(), bash(ran)] }).session(), 'go');
    expect(ran).toEqual(['ls -la']);
    const denied = ofType(events, 'tool.denied');
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ name: 'Bash', source: 'hook', agentId: 'researcher@toolu_parent', parentToolUseId: 'toolu_parent', reason: expect.stringMatching(/guard-shell/) });
    expect(ofType(events, 'hook.end').filter((e) => e.kind === 'wasm').map((e) => [e.decision, e.agentId])).toEqual([
      ['deny', 'researcher@toolu_parent'],
      ['allow', 'researcher@toolu_parent'],
    ]);
    expect(model.requests[2]?.messages.find((m) => m.role === 'tool' && m.isError)).toMatchObject({ toolName: 'Bash' });
    await guard.close();
  });

  it('a JS PreToolUse guard fires inside the sub-agent, with agent_id', async () => {
    const inputs: HookInput[] = [];
    const model = scriptedModel([callAgent('write'), { toolCalls: [{ name: 'Read', input: { file_path: 'secret' } }] }, { text: 'no' }, { text: 'done' }]);
    const hooks: HostOptions['hooks'] = {
      PreToolUse: [{ matcher: 'Read', hooks: [async (i) => (inputs.push(i), { decision: 'deny', reason: 'no secrets' })] }],
    };
    const events = await collect(agentHost({ model, hooks }).session(), 'go');
    expect(inputs).toMatchObject([{ tool_name: 'Read', agent_id: 'researcher@toolu_parent', tool_input: { file_path: '/proj/secret' } }]);
    expect(ofType(events, 'tool.denied')[0]).toMatchObject({ reason: 'no secrets', agentId: 'researcher@toolu_parent' });
  });

  it('SubagentStart deny keeps it from starting; SubagentStop block sends it back to work', async () => {
    const model = scriptedModel([callAgent('x'), { text: 'after refusal' }]);
    const refused = await collect(agentHost({ model, hooks: { SubagentStart: [{ hooks: [async () => ({ decision: 'deny', reason: 'no sub-agents today' })] }] } }).session(), 'go');
    expect(ofType(refused, 'subagent.start')).toHaveLength(0);
    expect(ofType(refused, 'tool.output')[0]).toMatchObject({ name: 'agent', isError: true, content: 'sub-agent "researcher" was not started: no sub-agents today' });

    let blocks = 0;
    const again = scriptedModel([callAgent('x'), { text: 'first try' }, { text: 'second try' }, { text: 'done' }]);
    const block: HookCallback = async () => (blocks++ === 0 ? { decision: 'block', reason: 'check twice' } : {});
    const events = await collect(agentHost({ model: again, hooks: { SubagentStop: [{ hooks: [block] }] } }).session(), 'go');
    expect(again.requests[2]?.messages.at(-1)).toEqual({ role: 'user', content: '<hook-context from="block#0" event="SubagentStop">\ncheck twice\n</hook-context>' });
    expect(ofType(events, 'tool.output')[0]).toMatchObject({ content: 'second try', isError: false });
    expect(ofType(events, 'subagent.end')).toHaveLength(1);
    // Continued, not re-entered: the same conversation, the task still first.
    expect(again.requests[2]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(again.requests[2]?.messages[0]).toEqual({ role: 'user', content: 'x' });
  });

  it('a Stop-hook gate (require-verification style) gates the session, not its sub-agents', async () => {
    const stops: HookInput[] = [];
    const gate: HookCallback = async (input) => {
      stops.push(input);
      return stops.filter((i) => i.hook_event_name === 'Stop').length === 1 ? { decision: 'block', reason: 'run the tests first' } : {};
    };
    const model = scriptedModel([callAgent('x'), { text: 'sub done' }, { text: 'parent done' }, { text: 'tested' }]);
    const events = await collect(agentHost({ model, hooks: { Stop: [{ hooks: [gate] }], UserPromptSubmit: [{ hooks: [async (i) => (stops.push(i), {})] }] } }).session(), 'go');
    expect(stops.map((i) => `${i.hook_event_name}${'agent_id' in i && i.agent_id ? '@sub' : ''}`)).toEqual(['UserPromptSubmit', 'Stop', 'Stop']);
    expect(ofType(events, 'tool.output')[0]).toMatchObject({ content: 'sub done', isError: false });
    expect(endResult(events)).toMatchObject({ subtype: 'success', text: 'tested' });
  });
});

describe('failing sub-agents', () => {
  it('a model error in the sub-agent is an error result for the agent call and fires PostToolUseFailure', async () => {
    const failures: HookInput[] = [];
    const model = scriptedModel([callAgent('x'), { error: { code: 'OVERLOADED', message: 'busy' } }, { text: 'it failed' }]);
    const events = await collect(agentHost({ model, hooks: { PostToolUseFailure: [{ hooks: [async (i) => (failures.push(i), {})] }] } }).session(), 'go');
    expect(failures).toMatchObject([{ tool_name: 'agent', tool_use_id: 'toolu_parent', error: 'sub-agent "researcher" failed (OVERLOADED): busy' }]);
    expect(ofType(events, 'subagent.end')[0]).toMatchObject({ isError: true, result: { subtype: 'error_during_execution' } });
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'OVERLOADED', agentId: 'researcher@toolu_parent' });
    expect(endResult(events)).toMatchObject({ subtype: 'success', text: 'it failed' });
  });

  it('a sub-agent out of turns is an error result naming maxTurns', async () => {
    const failures: HookInput[] = [];
    const model = scriptedModel([callAgent('x'), { toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] }, { text: 'gave up' }]);
    const agents = { researcher: { ...researcher, maxTurns: 1 } };
    const events = await collect(agentHost({ model, agents, hooks: { PostToolUseFailure: [{ hooks: [async (i) => (failures.push(i), {})] }] } }).session(), 'go');
    expect(failures[0]).toMatchObject({ tool_name: 'agent', error: expect.stringMatching(/did not finish within its 1 model calls/) });
    expect(ofType(events, 'subagent.end')[0]?.result.subtype).toBe('error_max_turns');
    expect(endResult(events).text).toBe('gave up');
  });
});

describe('abort during a sub-agent', () => {
  it('reaches the sub-agent tool; sub-agent and session end aborted; agent.end is last; idle again', async () => {
    const reached = deferred();
    let toolSawAbort = false;
    const slow = tool('Slow', 'waits', z.object({}), (_i, { signal }) =>
      new Promise<string>((resolve) => {
        reached.resolve();
        signal.addEventListener('abort', () => ((toolSawAbort = true), resolve('stopped')));
      }),
    );
    const model = scriptedModel([callAgent('x'), { toolCalls: [{ name: 'Slow', input: {} }] }, { text: 'never' }]);
    const agents = { researcher: { ...researcher, tools: ['Slow'] } };
    const session = agentHost({ model, agents, tools: [...fileTools(), slow] }).session();
    const all: string[] = [];
    session.subscribe((e) => void all.push(e.type));
    const running = collect(session, 'go');
    await reached.promise;
    session.abort();
    const events = await running;
    expect(toolSawAbort).toBe(true);
    expect(endResult(events).subtype).toBe('aborted');
    expect(ofType(events, 'subagent.end')[0]?.result.subtype).toBe('aborted');
    expect(events.findIndex((e) => e.type === 'subagent.end')).toBeLessThan(events.length - 1);
    expect(model.requests).toHaveLength(2);
    expect(session.state).toBe('idle');
    await new Promise((r) => setTimeout(r, 10));
    expect(all.at(-1)).toBe('agent.end');
  });
});

describe('options', () => {
  it('rejects an agent tool clash and bad definitions', () => {
    const clash = tool('agent', 'mine', z.object({}), () => '');
    expect(() => createHost({ tools: [clash], agents: { researcher } })).toThrowError(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/agent/) }));
    expect(() => createHost({ agents: { 'bad name': researcher } })).toThrowError(/agent name "bad name" must match/);
    expect(() => createHost({ agents: { r: { systemPrompt: 'x' } as never } })).toThrowError(/description/);
    expect(() => createHost({ maxAgentDepth: 0 })).toThrowError(/maxAgentDepth/);
  });
});
