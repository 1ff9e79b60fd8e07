// What each hook decision does in the loop, and the loop's own bookkeeping.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import type { HookInputOf } from '../../host/hooks/types.js';
import { collect, endResult, host, ofType, recorder } from './helpers.js';

const readCall = (file_path: string) => ({ name: 'Read', input: { file_path } });

describe('the loop', () => {
  it('streams text, keeps the conversation across prompts and reports usage, turns and duration', async () => {
    const model = scriptedModel([{ text: 'Hello there, friend.' }, { text: 'Again.' }]);
    const session = host({ model }).session();
    const events = await collect(session, 'hi');
    expect(ofType(events, 'text.delta').map((e) => e.text).join('')).toBe('Hello there, friend.');
    expect(ofType(events, 'text.delta').length).toBeGreaterThan(1);
    const first = endResult(events);
    expect(first).toMatchObject({ subtype: 'success', text: 'Hello there, friend.', turns: 1 });
    expect(first.usage.outputTokens).toBeGreaterThan(0);
    expect(first.durationMs).toBeGreaterThanOrEqual(0);
    const second = await session.prompt('again');
    expect(second.text).toBe('Again.');
    expect(model.requests[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(session.messages).toHaveLength(4);
  });

  it('every event has seq (strictly increasing), sessionId and time; state changes Idle → Thinking → Executing → Thinking → Idle', async () => {
    const model = scriptedModel([{ toolCalls: [readCall('a')] }, { text: 'ok' }]);
    const session = host({ model, allowedTools: ['Read'] }).session({ sessionId: 'S1' });
    const events = await collect(session, 'go');
    events.forEach((e, i) => {
      expect(e.sessionId).toBe('S1');
      expect(typeof e.time).toBe('number');
      if (i > 0) expect(e.seq).toBe((events[i - 1]?.seq ?? 0) + 1);
    });
    expect(ofType(events, 'state.change').map((e) => `${e.from}>${e.to}`)).toEqual([
      'idle>thinking', 'thinking>executing', 'executing>thinking', 'thinking>idle',
    ]);
    expect(events.at(-1)?.type).toBe('agent.end');
    expect(session.state).toBe('idle');
  });

  it('a second prompt while one runs is refused with SESSION_BUSY; idle() resolves after', async () => {
    const model = scriptedModel({ turns: [{ text: 'slow answer here' }, { text: 'b' }], delayMs: 5 });
    const session = host({ model }).session();
    const p = session.prompt('a');
    expect(session.state).toBe('thinking');
    expect(() => session.stream('b')).toThrowError(expect.objectContaining({ code: 'SESSION_BUSY' }));
    await session.idle();
    expect(session.state).toBe('idle');
    expect((await p).subtype).toBe('success');
  });

  it('a closed session refuses prompts with SESSION_CLOSED', async () => {
    const session = host({ model: scriptedModel({ turns: [{ text: 'a' }] }) }).session();
    await session.close();
    expect(() => session.stream('b')).toThrowError(expect.objectContaining({ code: 'SESSION_CLOSED', message: expect.stringMatching(/is closed; create a new one/) }));
  });

  it('streams tool input as partial JSON and reports tool.call with the whole input', async () => {
    const model = scriptedModel({ turns: [{ toolCalls: [{ name: 'Write', input: { file_path: 'x.txt', content: 'a long piece of content' } }] }, { text: '.' }], jsonPieceSize: 5 });
    const events = await collect(host({ model, permissionMode: 'bypassPermissions' }).session(), 'w');
    const deltas = ofType(events, 'tool.input.delta');
    expect(deltas.length).toBeGreaterThan(3);
    expect(JSON.parse(deltas.map((d) => d.partialJson).join(''))).toEqual({ file_path: 'x.txt', content: 'a long piece of content' });
    expect(ofType(events, 'tool.call')[0]).toMatchObject({ name: 'Write', input: { file_path: 'x.txt' } });
  });

  it('maxTurns ends with error_max_turns', async () => {
    const model = scriptedModel({ rules: [{ when: () => true, reply: { toolCalls: [readCall('a')] } }] });
    const result = await host({ model, allowedTools: ['Read'], maxTurns: 3 }).session().prompt('loop');
    expect(result).toMatchObject({ subtype: 'error_max_turns', turns: 3 });
  });

  it('a model error ends with error_during_execution, an error event, StopFailure and Error hooks', async () => {
    const stopFailure = recorder();
    const err = recorder();
    const model = scriptedModel([]); // exhausted at once
    const h = host({ model, hooks: { StopFailure: [{ hooks: [stopFailure.fn] }], Error: [{ hooks: [err.fn] }] } });
    const events = await collect(h.session(), 'x');
    expect(endResult(events)).toMatchObject({ subtype: 'error_during_execution', error: { code: 'SCRIPT_EXHAUSTED' } });
    expect(ofType(events, 'error')[0]?.code).toBe('SCRIPT_EXHAUSTED');
    expect(stopFailure.calls[0]).toMatchObject({ hook_event_name: 'StopFailure', error: expect.stringMatching(/no turn left/) });
    expect(err.calls[0]).toMatchObject({ hook_event_name: 'Error', code: 'SCRIPT_EXHAUSTED' });
  });

  it('hook input carries resolved absolute paths, the tool use id correlating Pre and Post, turn and iteration', async () => {
    const pre = recorder();
    const post = recorder();
    const seen: string[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'Read', input: { file_path: '../etc/./x' }, id: 'call-1' }] }, { text: '.' }]);
    const h = host({
      model,
      allowedTools: ['Read'],
      hooks: { PreToolUse: [{ hooks: [pre.fn] }], PostToolUse: [{ hooks: [post.fn] }] },
    });
    h.tools.remove('Read');
    h.tools.add(tool('Read', 'read', z.object({ file_path: z.string() }), ({ file_path }) => (seen.push(file_path), 'x')));
    await h.session({ cwd: '/proj/sub' }).prompt('read');
    expect(pre.calls[0]).toMatchObject({ tool_input: { file_path: '/proj/etc/x' }, tool_use_id: 'call-1', cwd: '/proj/sub', turn: 1, iteration: 1, permission_mode: 'default' });
    expect((post.calls[0] as HookInputOf<'PostToolUse'>).tool_use_id).toBe('call-1');
    expect(seen).toEqual(['/proj/etc/x']); // the tool runs what the hooks approved
  });

  it('a bad tool input goes back to the model as an error result and fires PostToolUseFailure, not PostToolUse', async () => {
    const post = recorder();
    const failure = recorder();
    const model = scriptedModel([{ toolCalls: [{ name: 'Read', input: { file_path: 42 } }] }, { text: '.' }]);
    const h = host({ model, allowedTools: ['Read'], hooks: { PostToolUse: [{ hooks: [post.fn] }], PostToolUseFailure: [{ hooks: [failure.fn] }] } });
    const session = h.session();
    await session.prompt('x');
    expect(post.calls).toHaveLength(0);
    expect(failure.calls[0]).toMatchObject({ error: expect.stringMatching(/invalid input for Read/) });
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', isError: true });
  });

  it('a tool that throws, and an unknown tool, are failures', async () => {
    const failure = recorder();
    const model = scriptedModel([{ toolCalls: [{ name: 'Boom', input: {} }, { name: 'Nope', input: {} }] }, { text: '.' }]);
    const h = host({ model, permissionMode: 'bypassPermissions', hooks: { PostToolUseFailure: [{ hooks: [failure.fn] }] } });
    h.tools.add(tool('Boom', 'throws', z.object({}), () => { throw new Error('kaput'); }));
    await h.session().prompt('x');
    expect(failure.calls.map((c) => (c as HookInputOf<'PostToolUseFailure'>).error)).toEqual([
      'tool Boom failed: kaput',
      'no tool named "Nope" is available',
    ]);
  });

  it('tools report progress as tool.progress events', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'Work', input: {} }] }, { text: '.' }]);
    const h = host({ model, permissionMode: 'bypassPermissions' });
    h.tools.add(tool('Work', 'work', z.object({}), (_i, ctx) => (ctx.onProgress('half'), ctx.onProgress('all'), 'done')));
    const events = await collect(h.session(), 'x');
    expect(ofType(events, 'tool.progress').map((e) => e.progress)).toEqual(['half', 'all']);
  });

  it('PostToolBatch fires once per batch, after the last call settles', async () => {
    const order: string[] = [];
    const model = scriptedModel([{ toolCalls: [readCall('a'), readCall('missing'), readCall('b')] }, { text: '.' }]);
    const mark = (name: string) => [{ hooks: [async () => (order.push(name), {})] }];
    await host({ model, allowedTools: ['Read'], hooks: { PostToolUse: mark('post'), PostToolUseFailure: mark('fail'), PostToolBatch: mark('batch'), PreToolBatch: mark('prebatch') } })
      .session()
      .prompt('x');
    expect(order).toEqual(['prebatch', 'post', 'fail', 'post', 'batch']);
  });
});
