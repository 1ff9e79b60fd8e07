// Conformance traces of how a prompt ends (docs/events.md): exactly one agent.end on every path —
// Stop blocks and their cap, max turns, a model stream error, a failing UserPromptSubmit guard, an
// IterationStart stop, and aborts in the model stream, a hook, the permission question, a tool, a
// Stop hook, a sub-agent and compaction. The other traces of one prompt are in trace.test.ts.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HostEvent } from '../../host/events/types.js';
import type { Message } from '../../host/models/types.js';
import { scriptedModel } from '../../host/models/scripted.js';
import type { PermissionRequestInfo } from '../../host/permissions/types.js';
import { tool } from '../../host/tools/define.js';
import { collect, deferred, host } from './helpers.js';
import { trace } from './trace.js';
import { abortedAt, brokenInvariants, expectTrace, hangingHook, MODEL_TURN, noop, twoReads } from './trace-expect.js';

describe('how a prompt ends: exactly one agent.end on every path', () => {
  it('Stop blocks loop again with the reason as a user message, up to stopHookCap, then error_during_execution', async () => {
    const model = scriptedModel([{ text: 'done' }, { text: 'really done' }]);
    const events = await collect(host({ model, stopHookCap: 1, hooks: { Stop: [{ hooks: [async () => ({ decision: 'block', reason: 'run the tests' })] }], StopFailure: [{ hooks: [noop()] }] } }).session(), 'go');
    const answered = (n: number) => [`turn.start ${n}`, 'message.start', 'text.delta*', 'message.end end_turn', 'hook.start Stop js:js#0', 'hook.end Stop js:js#0 block', `turn.end ${n} end_turn calls=0`];
    expectTrace(events, ['agent.start', ...answered(1), ...answered(2), 'error STOP_HOOK_CAP', 'hook.start StopFailure js:js#0', 'hook.end StopFailure js:js#0 continue', 'agent.end error_during_execution error=STOP_HOOK_CAP']);
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: 'user', content: '<hook-context from="js#0" event="Stop">\nrun the tests\n</hook-context>' });
  });

  it('max turns: error_max_turns after the last allowed turn, no Stop hooks', async () => {
    const model = scriptedModel([twoReads, twoReads]);
    const events = await collect(host({ model, maxTurns: 1, permissionMode: 'bypassPermissions', hooks: { Stop: [{ hooks: [noop()] }] } }).session(), 'go');
    expectTrace(events, [
      'agent.start', 'turn.start 1', ...MODEL_TURN,
      'permission.resolved r1 allow mode', 'tool.output r1 ok', 'permission.resolved r2 allow mode', 'tool.output r2 ok',
      'turn.end 1 tool_use calls=2', 'agent.end error_max_turns',
    ]);
  });

  it('a model stream error: turn.end error, the error event, StopFailure and Error hooks, then agent.end', async () => {
    const model = scriptedModel([{ text: 'partial answer', error: { code: 'OVERLOADED', message: 'try later' } }]);
    const events = await collect(host({ model, hooks: { StopFailure: [{ hooks: [noop()] }], Error: [{ hooks: [noop()] }] } }).session(), 'go');
    expectTrace(events, [
      'agent.start', 'turn.start 1', 'message.start', 'text.delta*', 'turn.end 1 error calls=0', 'error OVERLOADED',
      'hook.start StopFailure js:js#0', 'hook.end StopFailure js:js#0 continue', 'hook.start Error js:js#0', 'hook.end Error js:js#0 continue',
      'agent.end error_during_execution error=OVERLOADED',
    ]);
  });

  it('a UserPromptSubmit guard that throws fails closed: the prompt is refused, the failure on hook.end', async () => {
    const model = scriptedModel([{ text: 'never' }]);
    const events = await collect(host({ model, hooks: { UserPromptSubmit: [{ hooks: [async () => { throw new Error('down'); }] }] } }).session(), 'go');
    expectTrace(events, ['agent.start', 'hook.start UserPromptSubmit js:js#0', 'hook.end UserPromptSubmit js:js#0 deny failure=TRAP/fail-closed', 'agent.end success stoppedBy=UserPromptSubmit:js#0']);
    expect(events.find((e) => e.type === 'hook.end')).toMatchObject({ reason: 'hook "js#0" failed (TRAP): hook threw: down' });
    expect(model.requests).toHaveLength(0);
  });

  it('abort in the model stream', async () => {
    const model = scriptedModel({ turns: [{ text: 'a b c d e f g h i j k l', ...twoReads }], delayMs: 5 });
    const session = host({ model, permissionMode: 'bypassPermissions' }).session();
    const events: HostEvent[] = [];
    for await (const e of session.stream('go')) {
      events.push(e);
      if (e.type === 'text.delta') session.abort();
    }
    expectTrace(events, ['agent.start', 'turn.start 1', 'message.start', 'text.delta*', 'turn.end 1 aborted calls=0', 'agent.end aborted']);
  });

  it('abort in a PreToolUse hook: its hook.end shows ABORTED, every call of the batch is denied as aborted, no PostToolBatch', async () => {
    const reached = deferred();
    const model = scriptedModel([twoReads]);
    const session = host({ model, permissionMode: 'bypassPermissions', hooks: { PreToolUse: [{ hooks: [hangingHook(reached.resolve)] }], PostToolBatch: [{ hooks: [noop()] }] } }).session();
    expectTrace(await abortedAt(session, reached.promise), [
      'agent.start', 'turn.start 1', ...MODEL_TURN,
      'hook.start PreToolUse js:js#0', 'hook.end PreToolUse js:js#0 deny failure=ABORTED/fail-closed',
      'tool.denied r1 aborted', 'tool.denied r2 aborted', 'turn.end 1 aborted calls=2', 'agent.end aborted',
    ]);
  });

  it('abort while the app is asked: no answer is never an approval', async () => {
    const reached = deferred();
    const canUseTool = (_n: string, _i: Record<string, unknown>, info: PermissionRequestInfo) => {
      reached.resolve();
      return new Promise<never>(() => void info.signal);
    };
    const session = host({ model: scriptedModel([twoReads]), canUseTool }).session();
    expectTrace(await abortedAt(session, reached.promise), [
      'agent.start', 'turn.start 1', ...MODEL_TURN,
      'permission.request r1', 'permission.resolved r1 deny callback-failed', 'tool.denied r1 aborted', 'tool.denied r2 aborted',
      'turn.end 1 aborted calls=2', 'agent.end aborted',
    ]);
  });

  it('abort in a tool: its output is an error, no Post* hooks, the rest of the batch is denied', async () => {
    const reached = deferred();
    const slow = tool('Read', 'waits', z.object({ file_path: z.string() }), (_i, ctx) => {
      ctx.onProgress?.('reading');
      reached.resolve();
      return new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('late')));
    });
    const hooks = { PostToolUse: [{ hooks: [noop()] }], PostToolUseFailure: [{ hooks: [noop()] }], PostToolBatch: [{ hooks: [noop()] }] };
    const session = host({ model: scriptedModel([twoReads]), tools: [slow], hooks, permissionMode: 'bypassPermissions' }).session();
    expectTrace(await abortedAt(session, reached.promise), [
      'agent.start', 'turn.start 1', ...MODEL_TURN,
      'permission.resolved r1 allow mode', 'tool.progress* r1', 'tool.output r1 error', 'tool.denied r2 aborted',
      'turn.end 1 aborted calls=2', 'agent.end aborted',
    ]);
  });

  it('abort in a Stop hook: the hook ends (fail-open), the turn ends, agent.end aborted', async () => {
    const reached = deferred();
    const session = host({ model: scriptedModel([{ text: 'done' }]), hooks: { Stop: [{ hooks: [hangingHook(reached.resolve)] }] } }).session();
    expectTrace(await abortedAt(session, reached.promise), [
      'agent.start', 'turn.start 1', 'message.start', 'text.delta*', 'message.end end_turn',
      'hook.start Stop js:js#0', 'hook.end Stop js:js#0 continue failure=ABORTED/fail-open', 'turn.end 1 aborted calls=0',
      'agent.end aborted',
    ]);
  });

  it('abort inside a sub-agent: it winds down first, so subagent.end comes before the agent call\'s tool.output', async () => {
    const reached = deferred();
    const model = scriptedModel([
      { toolCalls: [{ name: 'agent', id: 'ag', input: { subagent_type: 'r', prompt: 'read b' } }] },
      { toolCalls: [{ name: 'Read', id: 'inner', input: { file_path: 'b' } }] },
    ]);
    const agents = { r: { description: 'reads', systemPrompt: 'read', tools: ['Read'] } };
    const hooks = { PreToolUse: [{ matcher: 'Read', hooks: [hangingHook(reached.resolve)] }], PostToolUseFailure: [{ hooks: [noop()] }] };
    const session = host({ model, agents, hooks, permissionMode: 'bypassPermissions' }).session();
    const sub = (l: string) => `[r@ag] ${l}`;
    expectTrace(await abortedAt(session, reached.promise), [
      'agent.start', 'turn.start 1', 'message.start', 'tool.input.delta*', 'tool.call agent ag', 'message.end tool_use',
      'permission.resolved ag allow mode',
      ...['subagent.start r', 'turn.start 1', 'message.start', 'tool.input.delta*', 'tool.call Read inner', 'message.end tool_use'].map(sub),
      ...['hook.start PreToolUse js:js#0', 'hook.end PreToolUse js:js#0 deny failure=ABORTED/fail-closed', 'tool.denied inner aborted', 'turn.end 1 aborted calls=1'].map(sub),
      sub('subagent.end r aborted isError'),
      'tool.output ag error', 'turn.end 1 aborted calls=1', 'agent.end aborted',
    ]);
  });

  it('abort while an app\'s compactor ignores the signal: the prompt still ends at once', async () => {
    const reached = deferred();
    let calls = 0;
    // The first prompt's compaction keeps the conversation; the second's never answers.
    const compactor = async (req: { messages: readonly Message[] }) => {
      if (++calls === 1) return [...req.messages];
      reached.resolve();
      return new Promise<never>(() => {});
    };
    const model = scriptedModel([{ text: 'first answer' }, { text: 'never' }]);
    const session = host({ model, compactor, contextWindow: 200, autoCompact: 0.5, keepTurns: 1 }).session();
    expect((await session.prompt('x'.repeat(600))).subtype).toBe('success');
    const events = await abortedAt(session, reached.promise);
    expect(brokenInvariants(events)).toEqual([]);
    expect(trace(events).slice(-2)).toEqual(['turn.end 1 aborted calls=0', 'agent.end aborted']);
    expect(session.state).toBe('idle');
  });

  it('an IterationStart stop ends the prompt before its model call: the result counts no model call', async () => {
    const model = scriptedModel([{ text: 'never' }]);
    const events = await collect(host({ model, hooks: { IterationStart: [{ hooks: [async () => ({ decision: 'stop', reason: 'budget' })] }] } }).session(), 'go');
    expectTrace(events, ['agent.start', 'turn.start 1', 'hook.start IterationStart js:js#0', 'hook.end IterationStart js:js#0 stop', 'turn.end 1 end_turn calls=0', 'agent.end success stoppedBy=IterationStart:js#0']);
    expect(model.requests).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: 'agent.end', result: { turns: 0 } });
  });

  it('abort in an IterationStart hook: the open turn still ends (turn.end aborted) before agent.end', async () => {
    const reached = deferred();
    const session = host({ model: scriptedModel([{ text: 'never' }]), hooks: { IterationStart: [{ hooks: [hangingHook(reached.resolve)] }] } }).session();
    expectTrace(await abortedAt(session, reached.promise), [
      'agent.start', 'turn.start 1', 'hook.start IterationStart js:js#0', 'hook.end IterationStart js:js#0 continue failure=ABORTED/fail-open',
      'turn.end 1 aborted calls=0', 'agent.end aborted',
    ]);
  });

  it('abort in auto-compaction (a PreCompact hook): turn.end aborted before agent.end', async () => {
    const reached = deferred();
    const model = scriptedModel([{ text: 'first answer' }, { text: 'never' }]);
    const session = host({ model, contextWindow: 200, autoCompact: 0.5, keepTurns: 1, hooks: { PreCompact: [{ hooks: [hangingHook(reached.resolve)] }] } }).session();
    // The first prompt fills the window; the second's first turn compacts it (the first prompt is older than the kept turn).
    expect((await session.prompt('x'.repeat(600))).subtype).toBe('success');
    const events = await abortedAt(session, reached.promise);
    expect(brokenInvariants(events)).toEqual([]);
    expect(trace(events).slice(-4)).toEqual(['hook.start PreCompact js:js#0', 'hook.end PreCompact js:js#0 continue failure=ABORTED/fail-open', 'turn.end 1 aborted calls=0', 'agent.end aborted']);
  });
});
