// Conformance traces of one prompt (docs/events.md): each path — a plain turn, a re-check, the
// permission question, tool failures, a sub-agent — gives the promised event order, and every
// prompt keeps the invariants (exactly one agent.end, last; hook.start/hook.end paired; every tool
// call settled once). How a prompt ends (Stop, max turns, errors, aborts) is in trace-ends.test.ts.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HostEvent } from '../../host/events/types.js';
import type { HookCallback } from '../../host/hooks/types.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import type { ToolHandler } from '../../host/tools/types.js';
import { collect, host } from './helpers.js';
import { trace } from './trace.js';
import { hookSummary } from '../../host/cli/format.js';
import { brokenInvariants, expectTrace, MODEL_TURN, noop, twoReads } from './trace-expect.js';

describe('the order of one prompt', () => {
  it('every hook point of a turn with an allowed call and a denied one', async () => {
    const model = scriptedModel([{ thinking: 'hmm', text: 'Let me look', ...twoReads }, { text: 'done' }]);
    const hooks = { UserPromptSubmit: [{ hooks: [noop()] }], PreToolUse: [{ hooks: [noop()] }], PermissionRequest: [{ hooks: [noop()] }], PostToolUse: [{ hooks: [noop()] }], PostToolBatch: [{ hooks: [noop()] }], Stop: [{ hooks: [noop()] }] };
    const canUseTool = async (_n: string, input: Record<string, unknown>) =>
      input.file_path === '/proj/a' ? ({ behavior: 'allow' } as const) : ({ behavior: 'deny', message: 'not b' } as const);
    expectTrace(await collect(host({ model, hooks, canUseTool }).session(), 'go'), [
      'agent.start',
      'hook.start UserPromptSubmit js:js#0', 'hook.end UserPromptSubmit js:js#0 continue',
      'turn.start 1', 'message.start', 'thinking.delta*', 'text.delta*', ...MODEL_TURN.slice(1),
      'hook.start PreToolUse js:js#0', 'hook.end PreToolUse js:js#0 continue',
      'hook.start PermissionRequest js:js#0', 'hook.end PermissionRequest js:js#0 continue', 'permission.request r1', 'permission.resolved r1 allow callback',
      'hook.start PostToolUse js:js#0', 'hook.end PostToolUse js:js#0 continue', 'tool.output r1 ok',
      'hook.start PreToolUse js:js#0', 'hook.end PreToolUse js:js#0 continue',
      'hook.start PermissionRequest js:js#0', 'hook.end PermissionRequest js:js#0 continue', 'permission.request r2', 'permission.resolved r2 deny callback',
      'tool.denied r2 callback',
      'hook.start PostToolBatch js:js#0', 'hook.end PostToolBatch js:js#0 continue',
      'turn.end 1 tool_use calls=2',
      'turn.start 2', 'message.start', 'text.delta*', 'message.end end_turn',
      'hook.start Stop js:js#0', 'hook.end Stop js:js#0 continue',
      'turn.end 2 end_turn calls=0',
      'agent.end success',
    ]);
  });

  it('tool failures of every kind fire PostToolUseFailure, never PostToolUse', async () => {
    const boom = tool('Boom', 'throws', z.object({}), async () => {
      throw new Error('kaput');
    });
    const model = scriptedModel([
      { toolCalls: [{ name: 'Boom', id: 'b1', input: {} }, { name: 'Nope', id: 'n1', input: {} }, { name: 'Read', id: 'r3', input: { file_path: 1 } }, { name: 'Read', id: 'r4', input: { file_path: 'missing' } }] },
      { text: 'done' },
    ]);
    const hooks = { PostToolUse: [{ hooks: [noop()] }], PostToolUseFailure: [{ hooks: [noop()] }] };
    const events = await collect(host({ model, hooks, permissionMode: 'bypassPermissions', tools: [boom, ...host().tools.list()] }).session(), 'go');
    const failure = (id: string) => [`permission.resolved ${id} allow mode`, 'hook.start PostToolUseFailure js:js#0', 'hook.end PostToolUseFailure js:js#0 continue', `tool.output ${id} error`];
    expect(brokenInvariants(events)).toEqual([]);
    expect(trace(events).slice(trace(events).indexOf('message.end tool_use') + 1, trace(events).indexOf('turn.end 1 tool_use calls=4'))).toEqual([
      ...failure('b1'), ...failure('n1'), ...failure('r3'), ...failure('r4'),
    ]);
  });

  it('SessionStart after agent.start on the first prompt, and again after a compaction (source compact); auto-compaction inside the turn, before the model call', async () => {
    const model = scriptedModel([{ text: 'first answer' }, { text: 'summary' }, { text: 'second' }]);
    const hooks = { SessionStart: [{ hooks: [noop()] }], PreCompact: [{ hooks: [noop()] }], PostCompact: [{ hooks: [noop()] }] };
    const session = host({ model, hooks, contextWindow: 200, autoCompact: 0.5, keepTurns: 1 }).session();
    const answer = ['message.start', 'text.delta*', 'message.end end_turn', 'turn.end 1 end_turn calls=0', 'agent.end success'];
    expectTrace(await collect(session, 'x'.repeat(600)), ['agent.start', 'hook.start SessionStart js:js#0', 'hook.end SessionStart js:js#0 continue', 'turn.start 1', ...answer]);
    expectTrace(await collect(session, 'again'), [
      'agent.start', 'turn.start 1',
      'hook.start PreCompact js:js#0', 'hook.end PreCompact js:js#0 continue', 'hook.start PostCompact js:js#0', 'hook.end PostCompact js:js#0 continue', 'context.compacted auto',
      'hook.start SessionStart js:js#0', 'hook.end SessionStart js:js#0 continue',
      ...answer,
    ]);
  });

  it('progress a tool reports after it returned is dropped: nothing follows its tool.output, or agent.end', async () => {
    const late = tool('Late', 'reports progress after returning', z.object({}), async (_i, ctx) => {
      ctx.onProgress?.('working');
      setTimeout(() => ctx.onProgress?.('too late'), 5);
      return 'done';
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'Late', id: 'l1', input: {} }] }, { text: 'done' }]);
    const session = host({ model, tools: [late], permissionMode: 'bypassPermissions' }).session();
    const all: HostEvent[] = [];
    session.subscribe((e) => void all.push(e));
    await session.prompt('go');
    await new Promise((r) => setTimeout(r, 30));
    expect(brokenInvariants(all)).toEqual([]);
    expect(all.flatMap((e) => (e.type === 'tool.progress' ? [e.progress] : []))).toEqual(['working']);
  });

  it('a tool whose input check throws fails that call (PostToolUseFailure), not the prompt', async () => {
    const picky: ToolHandler = { name: 'Picky', description: 'checks its input', inputSchema: { type: 'object' }, kind: 'js', validate: () => {
      throw new Error('checker crashed');
    }, run: async () => ({ content: 'never', isError: false }) };
    const model = scriptedModel([{ toolCalls: [{ name: 'Picky', id: 'p1', input: {} }] }, { text: 'done' }]);
    const events = await collect(host({ model, tools: [picky], permissionMode: 'bypassPermissions', hooks: { PostToolUseFailure: [{ hooks: [noop()] }] } }).session(), 'go');
    expectTrace(events, [
      'agent.start', 'turn.start 1', 'message.start', 'tool.input.delta*', 'tool.call Picky p1', 'message.end tool_use',
      'permission.resolved p1 allow mode', 'hook.start PostToolUseFailure js:js#0', 'hook.end PostToolUseFailure js:js#0 continue', 'tool.output p1 error',
      'turn.end 1 tool_use calls=1', 'turn.start 2', 'message.start', 'text.delta*', 'message.end end_turn', 'turn.end 2 end_turn calls=0', 'agent.end success',
    ]);
    expect(events.find((e) => e.type === 'tool.output')).toMatchObject({ content: 'invalid input for Picky: the input check threw: checker crashed' });
  });

  it('a sub-agent: PreToolUse[agent] → permission → SubagentStart → its events → SubagentStop → subagent.end → PostToolUse[agent] → tool.output', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'agent', id: 'ag', input: { subagent_type: 'r', prompt: 'read b' } }] },
      { toolCalls: [{ name: 'Read', id: 'inner', input: { file_path: 'b' } }] },
      { text: 'b read' },
      { text: 'done' },
    ]);
    const hooks = { PreToolUse: [{ hooks: [noop()] }], SubagentStart: [{ hooks: [noop()] }], SubagentStop: [{ hooks: [noop()] }], PostToolUse: [{ hooks: [noop()] }], Stop: [{ hooks: [noop()] }] };
    const agents = { r: { description: 'reads', systemPrompt: 'read', tools: ['Read'] } };
    const events = await collect(host({ model, hooks, agents, permissionMode: 'bypassPermissions' }).session(), 'go');
    const sub = (l: string) => `[r@ag] ${l}`;
    // The PostToolUse hook applies to the agent call too, so the sub-agent's deltas are withheld (fix3: subagent-gate.ts).
    expectTrace(events, [
      'agent.start', 'turn.start 1', 'message.start', 'tool.input.delta*', 'tool.call agent ag', 'message.end tool_use',
      'hook.start PreToolUse js:js#0', 'hook.end PreToolUse js:js#0 continue', 'permission.resolved ag allow mode',
      'hook.start SubagentStart js:js#0', 'hook.end SubagentStart js:js#0 continue',
      ...['subagent.start r', 'turn.start 1', 'message.start', 'tool.call Read inner', 'message.end tool_use'].map(sub),
      ...['hook.start PreToolUse js:js#0', 'hook.end PreToolUse js:js#0 continue', 'permission.resolved inner allow mode'].map(sub),
      ...['hook.start PostToolUse js:js#0', 'hook.end PostToolUse js:js#0 continue', 'tool.output inner ok', 'turn.end 1 tool_use calls=1'].map(sub),
      ...['turn.start 2', 'message.start', 'message.end end_turn', 'turn.end 2 end_turn calls=0'].map(sub),
      'hook.start SubagentStop js:js#0', 'hook.end SubagentStop js:js#0 continue',
      sub('subagent.end r success'),
      'hook.start PostToolUse js:js#0', 'hook.end PostToolUse js:js#0 continue', 'tool.output ag ok',
      'turn.end 1 tool_use calls=1',
      'turn.start 2', 'message.start', 'text.delta*', 'message.end end_turn',
      'hook.start Stop js:js#0', 'hook.end Stop js:js#0 continue', 'turn.end 2 end_turn calls=0',
      'agent.end success',
    ]);
  });
});

describe('SubagentStop blocks', () => {
  it('a continuation gets only the model calls the task has left: maxTurns bounds the sub-agent\'s task, as it bounds a prompt', async () => {
    // The sub-agent answers at once every time; a SubagentStop hook always blocks.
    const model = scriptedModel({
      rules: [{ when: { lastUser: /^(read b|SubagentStop)/ }, reply: { text: 'answered' } }],
      turns: [{ toolCalls: [{ name: 'agent', id: 'ag', input: { subagent_type: 'r', prompt: 'read b' } }] }, { text: 'done' }],
    });
    const agents = { r: { description: 'reads', systemPrompt: 'read', tools: ['Read'], maxTurns: 2 } };
    const events = await collect(host({ model, agents, permissionMode: 'bypassPermissions', stopHookCap: 8, hooks: { SubagentStop: [{ hooks: [async () => ({ decision: 'block', reason: 'again' })] }] } }).session(), 'go');
    expect(brokenInvariants(events)).toEqual([]);
    // Two model calls for the sub-agent in all (the task's maxTurns), not 2 per continuation × 9.
    expect(events.filter((e) => e.type === 'message.start' && e.agentId === 'r@ag')).toHaveLength(2);
    expect(events.find((e) => e.type === 'subagent.end')).toMatchObject({ result: { subtype: 'error_max_turns' }, isError: true });
  });
});

describe('the re-check of a rewritten input (host/agent/recheck.ts)', () => {
  const rewriteAfterGuard = () => {
    const guard: HookCallback = async (i) => ({ decision: 'allow', additionalContext: `guard saw ${'tool_input' in i ? String(i.tool_input.file_path) : ''}` });
    const rewrite: HookCallback = async () => ({ updatedInput: { file_path: '/proj/z' }, additionalContext: 'rewrote to z' });
    const model = scriptedModel([{ toolCalls: [{ name: 'Read', id: 'r1', input: { file_path: 'a' } }] }, { text: 'done' }]);
    return { model, h: host({ model, hooks: { PreToolUse: [{ hooks: [guard, rewrite] }] } }) };
  };

  it("the second round's hook.start/hook.end carry recheck: true; the first round's do not", async () => {
    const { h } = rewriteAfterGuard();
    const events = await collect(h.session(), 'go');
    expectTrace(events, [
      'agent.start', 'turn.start 1', 'message.start', 'tool.input.delta*', 'tool.call Read r1', 'message.end tool_use',
      'hook.start PreToolUse js:guard#0', 'hook.end PreToolUse js:guard#0 allow',
      'hook.start PreToolUse js:rewrite#1', 'hook.end PreToolUse js:rewrite#1 continue',
      'permission.resolved r1 allow hook',
      'hook.start PreToolUse js:guard#0 recheck', 'hook.end PreToolUse js:guard#0 recheck allow',
      'hook.start PreToolUse js:rewrite#1 recheck', 'hook.end PreToolUse js:rewrite#1 recheck continue',
      'tool.output r1 ok', 'turn.end 1 tool_use calls=1',
      'turn.start 2', 'message.start', 'text.delta*', 'message.end end_turn', 'turn.end 2 end_turn calls=0', 'agent.end success',
    ]);
    const marks = events.flatMap((e) => (e.type === 'hook.start' || e.type === 'hook.end' ? [e.recheck ?? false] : []));
    expect(marks).toEqual([false, false, false, false, true, true, true, true]);
  });

  it('the CLI names the second round a re-check', async () => {
    const { h } = rewriteAfterGuard();
    const ends = (await collect(h.session(), 'go')).flatMap((e) => (e.type === 'hook.end' ? [hookSummary(e).replace(/ \(.*\)$/, '')] : []));
    expect(ends).toEqual(['guard#0 allow', 'rewrite#1 continue +rewrite', 'guard#0 re-check allow', 'rewrite#1 re-check continue +rewrite']);
  });

  it('a context line is gathered once per call: the re-check adds only what the first round did not say', async () => {
    const { h, model } = rewriteAfterGuard();
    await collect(h.session(), 'go');
    const context = model.requests[1]?.messages.at(-1);
    // "rewrote to z" was said in both rounds; the guard's line differs (it saw another input), so both stay.
    expect(context).toEqual({ role: 'user', content: ['guard#0', 'guard saw /proj/a', 'rewrite#1', 'rewrote to z', 'guard#0', 'guard saw /proj/z'].flatMap((v, i, all) => (i % 2 ? [] : [`<hook-context from="${v}">\n${all[i + 1]}\n</hook-context>`])).join('\n') });
  });
});

describe('PreToolUse and the permission question', () => {
  it('a rewrite feeds the next hook, the first deny ends the chain, ask goes to the question (Notification, then the app)', async () => {
    const seen: string[] = [];
    const rewrite: HookCallback = async (i) => ('tool_input' in i && i.tool_input.file_path === '/proj/a' ? { updatedInput: { file_path: '/proj/c' } } : {});
    const judge: HookCallback = async (i) => {
      const path = 'tool_input' in i ? String(i.tool_input.file_path) : '';
      seen.push(path);
      return path === '/proj/b' ? { decision: 'deny', reason: 'not b' } : { decision: 'ask', reason: 'check c' };
    };
    const never: HookCallback = async (i) => {
      if ('tool_input' in i && i.tool_input.file_path === '/proj/b') throw new Error('after a deny, no hook of the chain runs');
      return {};
    };
    const model = scriptedModel([twoReads, { text: 'done' }]);
    const asked: Record<string, unknown>[] = [];
    const canUseTool = async (_n: string, input: Record<string, unknown>) => (asked.push(input), { behavior: 'allow' as const });
    const events = await collect(host({ model, allowedTools: ['Read'], canUseTool, hooks: { PreToolUse: [{ hooks: [rewrite, judge, never] }], Notification: [{ hooks: [noop()] }] } }).session(), 'go');
    expect(seen).toEqual(['/proj/c', '/proj/b']);
    expect(asked).toEqual([{ file_path: '/proj/c' }]); // ask wins over the allowedTools rule; the app sees the rewritten input
    expectTrace(events, [
      'agent.start', 'turn.start 1', ...MODEL_TURN,
      'hook.start PreToolUse js:rewrite#0', 'hook.end PreToolUse js:rewrite#0 continue',
      'hook.start PreToolUse js:judge#1', 'hook.end PreToolUse js:judge#1 ask',
      'hook.start PreToolUse js:never#2', 'hook.end PreToolUse js:never#2 continue',
      'permission.request r1', 'hook.start Notification js:js#0', 'hook.end Notification js:js#0 continue', 'permission.resolved r1 allow callback',
      'tool.output r1 ok',
      'hook.start PreToolUse js:rewrite#0', 'hook.end PreToolUse js:rewrite#0 continue',
      'hook.start PreToolUse js:judge#1', 'hook.end PreToolUse js:judge#1 deny',
      'tool.denied r2 hook by=judge#1',
      'turn.end 1 tool_use calls=2', 'turn.start 2', 'message.start', 'text.delta*', 'message.end end_turn', 'turn.end 2 end_turn calls=0', 'agent.end success',
    ]);
  });
});

describe('additionalContext of every event reaches the model', () => {
  it("a PermissionRequest hook's context is in the next model call", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'Read', id: 'r1', input: { file_path: 'a' } }] }, { text: 'done' }]);
    const hooks = { PermissionRequest: [{ hooks: [async () => ({ additionalContext: 'the user was asked about a' })] }] };
    await collect(host({ model, hooks, canUseTool: async () => ({ behavior: 'allow' }) }).session(), 'go');
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: 'user', content: '<hook-context from="js#0">\nthe user was asked about a\n</hook-context>' });
  });
});
