// createHost: validated options, plugins as contributions, live hook add/remove, compaction.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import type { HookHandler } from '../../host/hooks/types.js';
import type { PluginContribution, ToolHandler } from '../../host/tools/types.js';
import { collect, endResult, host, ofType, recorder } from './helpers.js';

const wasmish = (id: string, over: Partial<HookHandler> = {}): HookHandler => ({
  id, name: 'guard', kind: 'wasm', plugin: 'guard', event: 'PreToolUse', failurePolicy: 'fail-closed', timeoutMs: 100,
  run: async () => ({ ok: true, output: { decision: 'deny', reason: 'wasm says no' }, fuelUsed: 42 }),
  ...over,
});
const plugin = (hooks: HookHandler[], tools: ToolHandler[] = []): PluginContribution => ({ name: 'guard', hooks: () => hooks, tools: () => tools });

describe('createHost', () => {
  it('defaults to the scripted model and rejects bad options with INVALID_OPTIONS', () => {
    expect(createHost().model.id).toBe('scripted');
    expect(() => createHost({ maxTurns: 0 })).toThrowError(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/maxTurns/) }));
    expect(() => createHost({ permissionMode: 'yolo' as never })).toThrowError(/permissionMode/);
    expect(() => createHost({ bogus: 1 } as never)).toThrowError(/bogus/);
    expect(() => createHost({ model: {} as never })).toThrowError(/Model/);
    expect(() => createHost({ hooks: { SubagentStopp: [{ hooks: [async () => ({})] }] } } as never)).toThrowError(expect.objectContaining({ code: 'UNKNOWN_HOOK_EVENT' }));
    expect(() => createHost().session({ maxTurns: -1 })).toThrowError(/session options/);
    expect(() => createHost({ hooks: { Stop: [{ timeOut: 30, hooks: [async () => ({})] }] } } as never)).toThrowError(/timeOut/);
    expect(() => createHost({ hooks: { Stop: [{ timeout: 30, timeoutMs: 5, hooks: [async () => ({})] }] } })).toThrowError(/not both/);
  });

  it('use(plugin) adds its hooks and tools; hook.end shows plugin, kind and fuel', async () => {
    const echo: ToolHandler = { ...tool('Echo', 'e', z.object({ text: z.string() }), ({ text }) => text), kind: 'wasm', plugin: 'guard' };
    const model = scriptedModel([{ toolCalls: [{ name: 'Echo', input: { text: 'hi' } }, { name: 'Read', input: { file_path: 'a' } }] }, { text: '.' }]);
    const h = host({ model, permissionMode: 'bypassPermissions' });
    h.use(plugin([wasmish('g1', { matcher: /^Read$/ })], [echo]));
    const events = await collect(h.session(), 'x');
    expect(ofType(events, 'tool.output').map((e) => e.content)).toEqual(['hi']);
    expect(ofType(events, 'tool.denied')[0]).toMatchObject({ name: 'Read', reason: 'wasm says no' });
    expect(ofType(events, 'hook.end')[0]).toMatchObject({ kind: 'wasm', plugin: 'guard', fuelUsed: 42, decision: 'deny' });
  });

  it('use(plugin) is all-or-nothing: a tool name clash or bad hook leaves the host unchanged', () => {
    const h = host();
    const clash: ToolHandler = tool('Read', 'dup', z.object({}), () => '');
    expect(() => h.use(plugin([wasmish('a')], [tool('New', 'n', z.object({}), () => ''), clash]))).toThrowError(expect.objectContaining({ code: 'INVALID_CONFIG' }));
    expect(h.tools.get('New')).toBeUndefined();
    expect(() => h.use(plugin([wasmish('b'), wasmish('c', { event: 'SubagentBegin' as never })]))).toThrowError(expect.objectContaining({ code: 'UNKNOWN_HOOK_EVENT' }));
    expect(h.hooks.list()).toHaveLength(0);
  });

  it('hooks added or removed on the host apply to running sessions from the next hook point', async () => {
    const model = scriptedModel({ rules: [{ when: () => true, reply: { text: 'ok' } }] });
    const h = host({ model });
    const session = h.session();
    const r = recorder();
    const [id] = h.hooks.add('UserPromptSubmit', { hooks: [r.fn] });
    await session.prompt('one');
    h.hooks.remove(id as string);
    await session.prompt('two');
    expect(r.calls.map((c) => 'prompt' in c && c.prompt)).toEqual(['one']);
  });

  it('SessionStart fires once before the first prompt; SessionEnd on close; a closed session refuses prompts', async () => {
    const start = recorder({ additionalContext: 'repo uses pnpm' });
    const end = recorder();
    const model = scriptedModel([{ text: 'a' }, { text: 'b' }]);
    const session = host({ model, hooks: { SessionStart: [{ hooks: [start.fn] }], SessionEnd: [{ hooks: [end.fn] }] } }).session();
    await session.prompt('1');
    await session.prompt('2');
    expect(start.calls).toHaveLength(1);
    expect(JSON.stringify(model.requests[0]?.messages)).toContain('repo uses pnpm');
    await session.close();
    expect(end.calls[0]).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'other' });
    expect(() => session.stream('3')).toThrowError(/closed/);
  });

  it('compact() summarises the conversation; PreCompact stop skips it', async () => {
    const post = recorder();
    const model = scriptedModel([{ text: 'first answer with many words in it to make it long' }, { text: 'SUMMARY' }]);
    const h = host({ model, hooks: { PostCompact: [{ hooks: [post.fn] }] } });
    const session = h.session();
    await session.prompt('question one, which is rather long too');
    const states: string[] = [];
    session.subscribe((e) => void (e.type === 'state.change' && states.push(e.to)));
    const r = await session.compact();
    expect(r).toMatchObject({ compacted: true });
    // The question is summarised; the latest turn (the answer) is kept.
    expect(session.messages).toEqual([
      { role: 'user', content: 'Summary of the conversation so far:\nSUMMARY' },
      { role: 'assistant', content: [{ type: 'text', text: 'first answer with many words in it to make it long' }] },
    ]);
    expect(post.calls[0]).toMatchObject({ trigger: 'manual' });
    await new Promise((res) => setTimeout(res, 0));
    expect(states).toEqual(['compacting', 'idle']);
    const [id] = h.hooks.add('PreCompact', { hooks: [async () => ({ decision: 'stop', reason: 'keep it' })] });
    expect(await session.compact()).toEqual({ compacted: false, reason: 'keep it' });
    h.hooks.remove(id as string);
  });
});

describe('sub-agent stamps', () => {
  it('agentId and parentToolUseId are on every event and agent_id on hook inputs', async () => {
    const r = recorder();
    const h = host({ model: scriptedModel([{ text: 'sub' }]), hooks: { UserPromptSubmit: [{ hooks: [r.fn] }] } });
    const events = await collect(h.session({ agentId: 'a1', parentToolUseId: 'toolu_9' }), 'x');
    expect(events.every((e) => e.agentId === 'a1' && e.parentToolUseId === 'toolu_9')).toBe(true);
    expect(r.calls[0]?.agent_id).toBe('a1');
  });
});

describe('auto-compaction', () => {
  it('compacts before a model call once the last input reached the threshold of the context window', async () => {
    const pre = recorder();
    const model = scriptedModel({
      contextWindow: 100,
      turns: [
        { toolCalls: [{ name: 'Read', input: { file_path: 'a' } }], usage: { inputTokens: 90 } },
        { text: 'SUMMARY' },
        { text: 'final', usage: { inputTokens: 10 } },
      ],
    });
    const session = host({ model, allowedTools: ['Read'], hooks: { PreCompact: [{ hooks: [pre.fn] }] } }).session();
    const events = await collect(session, 'go');
    expect(pre.calls[0]).toMatchObject({ trigger: 'auto' });
    expect(ofType(events, 'state.change').map((e) => e.to)).toEqual(['thinking', 'executing', 'thinking', 'compacting', 'thinking', 'idle']);
    expect(model.requests[2]?.messages[0]).toEqual({ role: 'user', content: 'Summary of the conversation so far:\nSUMMARY' });
    expect(endResult(events).text).toBe('final');
  });

  it('autoCompact: false never compacts', async () => {
    const model = scriptedModel({ contextWindow: 100, turns: [{ toolCalls: [{ name: 'Read', input: { file_path: 'a' } }], usage: { inputTokens: 99 } }, { text: 'final' }] });
    const result = await host({ model, allowedTools: ['Read'], autoCompact: false }).session().prompt('go');
    expect(result.text).toBe('final');
    expect(model.requests).toHaveLength(2);
  });
});
