// What a stop/deny/ask/rewrite does at each hook point, end to end with the scripted model.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import type { HookCallback, HookOutput } from '../../host/hooks/types.js';
import { collect, endResult, host, ofType, recorder } from './helpers.js';

const readCall = (file_path: string) => ({ name: 'Read', input: { file_path } });
const answer = (o: HookOutput) => [{ hooks: [async () => o] }];

describe('decisions per event', () => {
  it('UserPromptSubmit deny refuses the turn: no model call, prompt not kept', async () => {
    const model = scriptedModel([{ text: 'never' }]);
    const session = host({ model, hooks: { UserPromptSubmit: answer({ decision: 'deny', reason: 'not today' }) } }).session();
    const result = await session.prompt('secret stuff');
    expect(result).toMatchObject({ subtype: 'success', turns: 0, stoppedBy: { event: 'UserPromptSubmit', decision: 'deny', reason: 'not today' } });
    expect(model.requests).toHaveLength(0);
    expect(session.messages).toHaveLength(0);
  });

  it('IterationStart stop ends the turn before the model call', async () => {
    const model = scriptedModel([{ toolCalls: [readCall('a')] }, { text: 'never' }]);
    let n = 0;
    const h = host({ model, allowedTools: ['Read'], hooks: { IterationStart: [{ hooks: [async () => (++n === 2 ? { decision: 'stop', reason: 'enough' } : {})] }] } });
    const result = await h.session().prompt('x');
    expect(model.requests).toHaveLength(1);
    // `turns` counts model calls (docs/agent.md): the stopped second turn made none.
    expect(result).toMatchObject({ turns: 1, stoppedBy: { event: 'IterationStart', reason: 'enough' } });
  });

  it('PreToolBatch stop ends the turn: no call runs, each is denied, no PostToolBatch', async () => {
    const batch = recorder();
    const model = scriptedModel([{ toolCalls: [readCall('a'), readCall('b')] }, { text: 'never' }]);
    const h = host({ model, allowedTools: ['Read'], hooks: { PreToolBatch: answer({ decision: 'stop', reason: 'nope' }), PostToolBatch: [{ hooks: [batch.fn] }] } });
    const events = await collect(h.session(), 'x');
    expect(ofType(events, 'tool.output')).toHaveLength(0);
    expect(ofType(events, 'tool.denied').map((e) => e.source)).toEqual(['stopped', 'stopped']);
    expect(batch.calls).toHaveLength(0);
    expect(endResult(events).stoppedBy?.event).toBe('PreToolBatch');
    expect(model.requests).toHaveLength(1);
  });

  it('PreToolUse deny skips that call only; the reason goes to the model; no Post* for it', async () => {
    const post = recorder();
    const model = scriptedModel([{ toolCalls: [readCall('secret.env'), readCall('ok.txt')] }, { text: 'fine' }]);
    const guard: HookCallback = async (i) =>
      'tool_input' in i && String(i.tool_input.file_path).endsWith('.env') ? { decision: 'deny', reason: 'no secrets' } : {};
    const h = host({ model, allowedTools: ['Read'], hooks: { PreToolUse: [{ matcher: 'Read', hooks: [guard] }], PostToolUse: [{ hooks: [post.fn] }] } });
    const session = h.session();
    const events = await collect(session, 'x');
    expect(ofType(events, 'tool.denied')).toMatchObject([{ source: 'hook', reason: 'no secrets', hookName: 'guard#0' }]);
    expect(ofType(events, 'tool.output').map((e) => e.content)).toEqual(['contents of /proj/ok.txt']);
    expect(post.calls).toHaveLength(1);
    expect(model.requests[1]?.messages.filter((m) => m.role === 'tool')).toMatchObject([
      { content: 'no secrets', isError: true },
      { content: 'contents of /proj/ok.txt', isError: false },
    ]);
    expect(endResult(events).subtype).toBe('success');
  });

  it('PreToolUse stop (or Claude-style continue:false) skips the rest of the batch and ends the turn', async () => {
    for (const out of [{ decision: 'stop', reason: 'halt' }, { continue: false, stopReason: 'halt' }] as HookOutput[]) {
      const model = scriptedModel([{ toolCalls: [readCall('a'), readCall('b')] }, { text: 'never' }]);
      const h = host({ model, allowedTools: ['Read'], hooks: { PreToolUse: answer(out) } });
      const events = await collect(h.session(), 'x');
      expect(ofType(events, 'tool.denied').map((e) => e.source)).toEqual(['stopped', 'stopped']);
      expect(endResult(events)).toMatchObject({ subtype: 'success', stoppedBy: { event: 'PreToolUse', decision: 'stop', reason: 'halt' } });
      expect(model.requests).toHaveLength(1);
    }
  });

  it('PostToolUse stop ends the turn after the batch: the other calls still run', async () => {
    const model = scriptedModel([{ toolCalls: [readCall('a'), readCall('b')] }, { text: 'never' }]);
    let n = 0;
    const h = host({ model, allowedTools: ['Read'], hooks: { PostToolUse: [{ hooks: [async () => (++n === 1 ? { decision: 'stop' } : {})] }] } });
    const events = await collect(h.session(), 'x');
    expect(ofType(events, 'tool.output')).toHaveLength(2);
    expect(ofType(events, 'hook.end').map((e) => e.event)).toEqual(['PostToolUse', 'PostToolUse']);
    expect(endResult(events).stoppedBy?.event).toBe('PostToolUse');
    expect(model.requests).toHaveLength(1);
  });

  it('PostToolUse updatedOutput replaces what the model sees', async () => {
    const model = scriptedModel([{ toolCalls: [readCall('a')] }, { text: '.' }]);
    await host({ model, allowedTools: ['Read'], hooks: { PostToolUse: answer({ updatedOutput: '[redacted]' }) } }).session().prompt('x');
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', content: '[redacted]' });
  });

  it('rewrite chaining: each PreToolUse rewrite feeds the next hook and the tool runs the last one', async () => {
    const seen: unknown[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'Write', input: { file_path: 'a', content: 'x' } }] }, { text: '.' }]);
    const h = host({
      model,
      permissionMode: 'bypassPermissions',
      hooks: {
        PreToolUse: [
          { hooks: [async (i) => ({ updatedInput: { ...('tool_input' in i ? i.tool_input : {}), content: 'x1' } })] },
          { hooks: [async (i) => (seen.push('tool_input' in i && i.tool_input), { updatedInput: { ...('tool_input' in i ? i.tool_input : {}), file_path: 'b' } })] },
        ],
      },
    });
    const events = await collect(h.session(), 'x');
    // The second hook rewrote after the first had judged: both run once more on the input that runs
    // (the re-check, docs/hooks.md rule 4); each rewrite is idempotent there, so the call runs.
    expect(seen).toEqual([
      { file_path: '/proj/a', content: 'x1' },
      { file_path: '/proj/b', content: 'x1' },
    ]);
    expect(ofType(events, 'tool.output')[0]?.content).toBe('wrote 2 bytes to /proj/b');
  });

  it('ask forces the permission question even when a rule would allow', async () => {
    const asked: string[] = [];
    const model = scriptedModel([{ toolCalls: [readCall('a')] }, { text: '.' }]);
    const h = host({
      model,
      allowedTools: ['Read'],
      canUseTool: async (name) => (asked.push(name), { behavior: 'deny', message: 'user said no' }),
      hooks: { PreToolUse: answer({ decision: 'ask' }) },
    });
    const events = await collect(h.session(), 'x');
    expect(asked).toEqual(['Read']);
    expect(ofType(events, 'permission.request')[0]?.reason).toBe('hook:ask');
    expect(ofType(events, 'tool.denied')[0]).toMatchObject({ source: 'callback', reason: 'user said no' });
  });

  it('additionalContext from all hooks reaches the model on its next turn', async () => {
    const model = scriptedModel([{ toolCalls: [readCall('a')] }, { text: '.' }]);
    await host({
      model,
      allowedTools: ['Read'],
      hooks: {
        UserPromptSubmit: answer({ additionalContext: 'ctx-prompt' }),
        PreToolUse: answer({ additionalContext: 'ctx-pre' }),
        PostToolUse: answer({ additionalContext: 'ctx-post' }),
      },
    })
      .session()
      .prompt('x');
    const first = JSON.stringify(model.requests[0]?.messages);
    const second = JSON.stringify(model.requests[1]?.messages.at(-1));
    expect(first).toContain('ctx-prompt');
    expect(second).toContain('ctx-pre');
    expect(second).toContain('ctx-post');
  });

  it('observe-only events run but cannot stop: a stop there is a visible violation', async () => {
    const model = scriptedModel([{ toolCalls: [readCall('a')] }, { text: 'finished' }]);
    const events = await collect(host({ model, allowedTools: ['Read'], hooks: { PostToolBatch: answer({ decision: 'stop' }) } }).session(), 'x');
    expect(endResult(events)).toMatchObject({ subtype: 'success', text: 'finished' });
    expect(ofType(events, 'hook.end')[0]).toMatchObject({ event: 'PostToolBatch', decision: 'continue', failure: { code: 'BAD_OUTPUT' } });
  });

  it('a guard that throws fails closed: the call is denied with the hook and failure code in the reason', async () => {
    const model = scriptedModel([{ toolCalls: [readCall('a')] }, { text: '.' }]);
    const events = await collect(
      host({ model, allowedTools: ['Read'], hooks: { PreToolUse: [{ name: 'guard', hooks: [async () => { throw new Error('bug'); }] }] } }).session(),
      'x',
    );
    expect(ofType(events, 'tool.denied')[0]).toMatchObject({ source: 'hook', reason: 'hook "guard#0" failed (TRAP): hook threw: bug' });
  });
});

describe('stop-handlers', () => {
  it('block adds the reason to the conversation and runs another cycle with stop_hook_active', async () => {
    const stop = recorder();
    let blocked = false;
    const model = scriptedModel([{ text: 'done?' }, { text: 'now really done' }]);
    const h = host({
      model,
      hooks: { Stop: [{ name: 'tests', hooks: [async (i) => (stop.calls.push(i), blocked ? {} : ((blocked = true), { decision: 'block', reason: 'run the tests first' }))] }] },
    });
    const result = await h.session().prompt('x');
    expect(stop.calls.map((c) => 'stop_hook_active' in c && c.stop_hook_active)).toEqual([false, true]);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('run the tests first') });
    expect(result).toMatchObject({ subtype: 'success', text: 'now really done', turns: 2 });
  });

  it('the cap ends a runaway stop loop', async () => {
    const model = scriptedModel({ rules: [{ when: () => true, reply: { text: 'again' } }] });
    const h = host({ model, stopHookCap: 2, hooks: { Stop: answer({ decision: 'block', reason: 'more' }) } });
    const result = await h.session().prompt('x');
    expect(result).toMatchObject({ subtype: 'error_during_execution', turns: 3, error: { code: 'STOP_HOOK_CAP' } });
  });

  it('a JS tool sees its validated input', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'Add', input: { a: 1, b: 2 } }] }, { text: '.' }]);
    const h = host({ model, permissionMode: 'bypassPermissions' });
    h.tools.add(tool('Add', 'adds', z.object({ a: z.number(), b: z.number() }), ({ a, b }) => String(a + b)));
    const events = await collect(h.session(), 'x');
    expect(ofType(events, 'tool.output')[0]?.content).toBe('3');
  });
});

describe('batch hooks', () => {
  it('PostToolBatch sees the inputs that ran, after rewrites', async () => {
    const after = recorder();
    const model = scriptedModel([{ toolCalls: [readCall('a'), readCall('b')] }, { text: '.' }]);
    await host({
      model,
      allowedTools: ['Read'],
      hooks: {
        PreToolUse: [{ hooks: [async (i) => ('tool_input' in i && i.tool_input.file_path === '/proj/b' ? { updatedInput: { file_path: 'c' } } : {})] }],
        PostToolBatch: [{ hooks: [after.fn] }],
      },
    })
      .session()
      .prompt('x');
    expect(after.calls[0]).toMatchObject({ tool_calls: [{ tool_input: { file_path: '/proj/a' } }, { tool_input: { file_path: '/proj/c' } }] });
  });
});
