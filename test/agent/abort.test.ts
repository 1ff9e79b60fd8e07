// Abort at every state: the result is "aborted", running hooks/tools see their signal fire,
// no tool starts after the abort, and the session is idle and usable again.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../host/models/scripted.js';
import type { HookCallback, HookEventName } from '../../host/hooks/types.js';
import { tool } from '../../host/tools/define.js';
import type { Session } from '../../host/agent/session.js';
import { collect, deferred, endResult, host, ofType } from './helpers.js';

const twoReads = { toolCalls: [{ name: 'Read', input: { file_path: 'a' } }, { name: 'Read', input: { file_path: 'b' } }] };

/** A hook that blocks until aborted, calling `reached` when it starts. */
function hanging(reached: () => void): { fn: HookCallback; sawAbort: () => boolean } {
  let saw = false;
  return {
    fn: (_i, _id, { signal }) => {
      reached();
      return new Promise((resolve) => signal.addEventListener('abort', () => ((saw = true), resolve({}))));
    },
    sawAbort: () => saw,
  };
}

async function expectAbortedAndReusable(session: Session, events: Awaited<ReturnType<typeof collect>>) {
  expect(endResult(events).subtype).toBe('aborted');
  const states = ofType(events, 'state.change').map((e) => e.to);
  expect(states.slice(-2)).toEqual(['aborting', 'idle']);
  expect(session.state).toBe('idle');
  // every tool call in the history has a result, so the next prompt is valid for any provider
  const calls = session.messages.flatMap((m) => (m.role === 'assistant' ? m.content.filter((p) => p.type === 'tool_call').map((p) => (p as { id: string }).id) : []));
  const results = session.messages.flatMap((m) => (m.role === 'tool' ? [m.toolUseId] : []));
  expect(results.sort()).toEqual(calls.sort());
}

describe('abort at every hook point', () => {
  const points: HookEventName[] = ['UserPromptSubmit', 'IterationStart', 'PreToolBatch', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop'];
  for (const point of points) {
    it(`during ${point}`, async () => {
      const reached = deferred();
      const hook = hanging(reached.resolve);
      const ranTools: string[] = [];
      const model = scriptedModel({ rules: [{ when: { lastUser: 'go' }, reply: twoReads, times: 1 }], turns: [{ text: 'done' }, { text: 'after' }] });
      const h = host({ model, permissionMode: point === 'PermissionRequest' ? 'default' : 'bypassPermissions', hooks: { [point]: [{ hooks: [hook.fn] }] } });
      h.tools.remove('Read');
      h.tools.add(tool('Read', 'r', z.object({ file_path: z.string() }), ({ file_path }) => (ranTools.push(file_path), 'x')));
      const session = h.session();
      const running = collect(session, 'go');
      await reached.promise;
      const ranBefore = ranTools.length;
      session.abort();
      const events = await running;
      expect(hook.sawAbort()).toBe(true);
      expect(ranTools.length).toBe(ranBefore); // no tool starts after the abort
      await expectAbortedAndReusable(session, events);
      h.hooks.list().forEach((x) => h.hooks.remove(x.id));
      expect((await session.prompt('next')).subtype).toBe('success');
    });
  }
});

describe('abort elsewhere', () => {
  it('during the model stream: the stream stops, no tool starts', async () => {
    const model = scriptedModel({ turns: [{ text: 'a b c d e f g h i j k l', ...twoReads }], delayMs: 5 });
    const session = host({ model, permissionMode: 'bypassPermissions' }).session();
    const events: Awaited<ReturnType<typeof collect>> = [];
    for await (const e of session.stream('go')) {
      events.push(e);
      if (e.type === 'text.delta') session.abort();
    }
    expect(ofType(events, 'text.delta').length).toBeLessThan(3);
    expect(ofType(events, 'tool.output')).toHaveLength(0);
    expect(ofType(events, 'turn.end')[0]?.stopReason).toBe('aborted');
    await expectAbortedAndReusable(session, events);
  });

  it('during a tool: its signal fires, the next call of the batch never starts, no PostToolUse', async () => {
    const started = deferred();
    let toolSawAbort = false;
    const ran: string[] = [];
    const post: string[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'Slow', input: {} }, { name: 'Slow', input: {} }] }]);
    const h = host({ model, permissionMode: 'bypassPermissions', hooks: { PostToolUse: [{ hooks: [async () => (post.push('x'), {})] }] } });
    h.tools.add(tool('Slow', 's', z.object({}), (_i, { signal }) => {
      ran.push('slow');
      started.resolve();
      return new Promise<string>((resolve) => signal.addEventListener('abort', () => ((toolSawAbort = true), resolve('late'))));
    }));
    const session = h.session();
    const running = collect(session, 'go');
    await started.promise;
    session.abort();
    const events = await running;
    expect(toolSawAbort).toBe(true);
    expect(ran).toEqual(['slow']);
    expect(post).toEqual([]);
    expect(ofType(events, 'tool.denied').map((e) => e.source)).toEqual(['aborted']);
    await expectAbortedAndReusable(session, events);
  });

  it('during the permission callback: its signal fires and the call is not made', async () => {
    const asked = deferred();
    let sawAbort = false;
    const model = scriptedModel([twoReads]);
    const session = host({
      model,
      canUseTool: (_n, _i, { signal }) => (asked.resolve(), new Promise(() => signal.addEventListener('abort', () => (sawAbort = true)))),
    }).session();
    const running = collect(session, 'go');
    await asked.promise;
    session.abort();
    const events = await running;
    expect(sawAbort).toBe(true);
    expect(ofType(events, 'tool.output')).toHaveLength(0);
    await expectAbortedAndReusable(session, events);
  });

  it("through the prompt's own signal, also when it is already aborted", async () => {
    const model = scriptedModel({ turns: [{ text: 'x y z' }], delayMs: 20 });
    const session = host({ model }).session();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 5);
    expect((await session.prompt('go', { signal: controller.signal })).subtype).toBe('aborted');
    const events = await collect(session, 'again', AbortSignal.abort());
    await expectAbortedAndReusable(session, events);
    expect(session.messages.filter((m) => m.role === 'user')).toHaveLength(1); // the pre-aborted prompt never entered
  });

  it('breaking out of the stream aborts the prompt', async () => {
    const model = scriptedModel({ turns: [{ text: 'a b c d e f g' }], delayMs: 5 });
    const session = host({ model }).session();
    for await (const e of session.stream('go')) if (e.type === 'text.delta') break;
    await session.idle();
    expect(session.state).toBe('idle');
    expect(model.requests).toHaveLength(1);
  });

  it('abort while idle is a no-op', async () => {
    const session = host({ model: scriptedModel([{ text: 'ok' }]) }).session();
    session.abort();
    expect((await session.prompt('x')).subtype).toBe('success');
  });
});

describe('abort during compaction', () => {
  it('session.abort() stops a manual compaction; the history is kept', async () => {
    const model = scriptedModel([{ text: 'answer' }, { text: 'a summary' }]);
    const session = host({ model }).session();
    await session.prompt('q');
    const before = [...session.messages];
    const compacting = session.compact();
    session.abort();
    expect(await compacting).toEqual({ compacted: false, reason: 'aborted' });
    expect(session.messages).toEqual(before);
    expect(session.state).toBe('idle');
  });
});
