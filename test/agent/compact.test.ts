// Compaction: triggered by size, skipped by a hook, pluggable, and the conversation stays coherent.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { COMPACT_INSTRUCTION, compactionCut, defaultCompactor } from '../../host/agent/compact.js';
import { createHost } from '../../host/host.js';
import type { HostOptions } from '../../host/host-options.js';
import type { HookInput } from '../../host/hooks/types.js';
import type { Message, ModelRequest } from '../../host/models/types.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import { SMALL_WINDOW, collect, endResult, ofType } from './helpers.js';

const BIG = 'x'.repeat(800);
const read = tool('Read', 'Read a file', z.object({ file_path: z.string() }), ({ file_path }) => (file_path.endsWith('big') ? `big:${BIG}` : `contents of ${file_path}`));

/** Two tool turns, then an answer; the second tool result fills the 200-token window past 0.5. */
function longRun(extra: Partial<HostOptions> = {}, summary = 'SUMMARY: the user wants a and big read') {
  const pre: HookInput[] = [];
  const post: HookInput[] = [];
  const model = scriptedModel([
    { toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] },
    { toolCalls: [{ name: 'Read', input: { file_path: 'big' } }] },
    { text: summary },
    { text: 'final answer' },
  ]);
  const host = createHost({
    model,
    tools: [read],
    ...SMALL_WINDOW,
    hooks: {
      PreCompact: [{ hooks: [async (i) => (pre.push(i), {})] }],
      PostCompact: [{ hooks: [async (i) => (post.push(i), {})] }],
    },
    ...extra,
  });
  return { model, host, pre, post };
}

/** Every tool result follows an assistant message that asked for it. */
function coherent(messages: readonly Message[]): boolean {
  const asked = new Set<string>();
  return messages.every((m) => {
    if (m.role === 'assistant') for (const p of m.content) if (p.type === 'tool_call') asked.add(p.id);
    return m.role !== 'tool' || asked.has(m.toolUseId);
  });
}

describe('auto-compaction by size', () => {
  it('summarises the older turns with the model; the next call sees the summary, then the latest turn intact', async () => {
    const { model, host, pre, post } = longRun();
    const events = await collect(host.session(), 'read a, then big');
    expect(model.requests).toHaveLength(4);
    const summaryRequest = model.requests[2] as ModelRequest;
    // The summariser sees only the older turns, then the instruction; the tools stay defined.
    expect(summaryRequest.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(summaryRequest.messages.at(-1)).toEqual({ role: 'user', content: COMPACT_INSTRUCTION });
    expect(summaryRequest.tools.map((t) => t.name)).toEqual(['Read']);

    const next = (model.requests[3] as ModelRequest).messages;
    expect(next[0]).toEqual({ role: 'user', content: 'Summary of the conversation so far:\nSUMMARY: the user wants a and big read' });
    expect(next.slice(1)).toMatchObject([
      { role: 'assistant', content: [{ type: 'tool_call', name: 'Read', input: { file_path: 'big' } }] },
      { role: 'tool', toolName: 'Read', content: `big:${BIG}` },
    ]);
    expect(coherent(next)).toBe(true);

    expect(pre).toMatchObject([{ hook_event_name: 'PreCompact', trigger: 'auto' }]);
    const compacted = ofType(events, 'context.compacted');
    expect(compacted).toHaveLength(1);
    expect(compacted[0]).toMatchObject({ trigger: 'auto', messagesBefore: 5, messagesAfter: 3 });
    expect(compacted[0]!.tokensAfter).toBeLessThan(compacted[0]!.tokensBefore);
    expect(post[0]).toMatchObject({ tokens_before: compacted[0]!.tokensBefore, tokens_after: compacted[0]!.tokensAfter });
    // PostCompact's hook events come before context.compacted.
    const postEnd = events.findIndex((e) => e.type === 'hook.end' && e.event === 'PostCompact');
    expect(postEnd).toBeLessThan(events.findIndex((e) => e.type === 'context.compacted'));
    expect(ofType(events, 'state.change').map((e) => e.to)).toEqual(['thinking', 'executing', 'thinking', 'executing', 'thinking', 'compacting', 'thinking', 'idle']);
    // The summary call streams nothing into the conversation's events.
    expect(ofType(events, 'text.delta').map((e) => e.text).join('')).toBe('final answer');
    expect(endResult(events)).toMatchObject({ subtype: 'success', text: 'final answer', turns: 3 });
  });

  it('a model that reports its context window drives it without the contextWindow option', async () => {
    const model = scriptedModel({
      contextWindow: 200,
      turns: [{ toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] }, { toolCalls: [{ name: 'Read', input: { file_path: 'big' } }] }, { text: 'S' }, { text: 'done' }],
    });
    const events = await collect(createHost({ model, tools: [read], permissionMode: 'bypassPermissions', autoCompact: 0.5 }).session(), 'go');
    expect(ofType(events, 'context.compacted')).toHaveLength(1);
    expect(endResult(events).text).toBe('done');
  });

  it('a PreCompact deny skips this compaction; the turn goes on with the whole history', async () => {
    const { model, host } = longRun({
      hooks: { PreCompact: [{ hooks: [async () => ({ decision: 'deny', reason: 'keep everything' })] }] },
    });
    const events = await collect(host.session(), 'go');
    expect(ofType(events, 'context.compacted')).toHaveLength(0);
    expect(ofType(events, 'hook.end').filter((e) => e.event === 'PreCompact').map((e) => e.decision)).toEqual(['deny']);
    // The third call is the real next turn (it got the summary text as its answer), with all five messages.
    expect(model.requests[2]?.messages).toHaveLength(5);
    expect(model.requests[2]?.messages.at(-1)).toMatchObject({ role: 'tool', content: `big:${BIG}` });
    expect(ofType(events, 'state.change').map((e) => e.to)).toContain('compacting');
    expect(endResult(events).subtype).toBe('success');
  });
});

describe('pluggable compactor', () => {
  it('a custom compactor replaces the summariser', async () => {
    const seen: number[] = [];
    const { model, host } = longRun({
      compactor: async (req) => (seen.push(req.messages.length), [{ role: 'user', content: 'my summary' }, ...req.messages.slice(-2)]),
    });
    const events = await collect(host.session(), 'go');
    expect(seen).toEqual([5]);
    expect(model.requests[2]?.messages[0]).toEqual({ role: 'user', content: 'my summary' });
    expect(ofType(events, 'context.compacted')[0]).toMatchObject({ messagesAfter: 3 });
  });

  it('a compactor that throws or drops an unresolved tool call is refused: error event, history kept, the turn goes on', async () => {
    const { host } = longRun({ compactor: async () => Promise.reject(new Error('out of ideas')) });
    const events = await collect(host.session(), 'go');
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'COMPACTION_FAILED', message: 'compaction failed: out of ideas' });
    expect(endResult(events).subtype).toBe('success');

    const session = createHost({ compactor: async () => [{ role: 'user', content: 'gone' }] }).session();
    const history = session.messages as Message[];
    history.push({ role: 'user', content: 'q' }, { role: 'assistant', content: [{ type: 'tool_call', id: 't1', name: 'Read', input: {} }] });
    const r = await session.compact();
    expect(r).toEqual({ compacted: false, reason: 'the compactor dropped unresolved tool calls t1' });
    expect(session.messages).toHaveLength(2);
  });
});

describe('a compactor that parts a call from its results (conf4)', () => {
  // Every provider refuses a result whose call is not just before it, or a call whose results do not
  // follow it: accepted, such an answer failed every later turn of the session.
  it.each<[string, (messages: readonly Message[]) => Message[], RegExp]>([
    ['the last n messages, cut after a call', (m) => m.slice(-1), /result for toolu_\w+ \(message 0\) without its call/],
    ['a call kept, its result dropped', (m) => [{ role: 'user', content: 'summary' }, m[3] as Message], /kept the tool calls toolu_\w+ without their results/],
  ])('is refused (%s): error event, the whole history goes on', async (_, compact, message) => {
    const { host, model } = longRun({ compactor: async (req) => compact(req.messages) });
    const events = await collect(host.session(), 'go');
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'COMPACTION_FAILED', message: expect.stringMatching(message) });
    expect(ofType(events, 'context.compacted')).toEqual([]);
    expect(model.requests[2]?.messages).toHaveLength(5);
    expect(endResult(events).subtype).toBe('success');
  });
});

describe('the default cut', () => {
  const call = (id: string): Message => ({ role: 'assistant', content: [{ type: 'tool_call', id, name: 'Read', input: {} }] });
  const result = (id: string): Message => ({ role: 'tool', toolUseId: id, toolName: 'Read', content: 'r', isError: false });
  const said = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

  it('keeps the latest turns, and moves back to keep unresolved tool calls and their results together', () => {
    const plain: Message[] = [{ role: 'user', content: 'q' }, call('a'), result('a'), call('b'), result('b'), said('done')];
    expect(compactionCut(plain, 2)).toBe(3);
    expect(compactionCut(plain, 1)).toBe(5);
    // 'a' was never answered: it and everything after it stay.
    const open: Message[] = [{ role: 'user', content: 'q' }, call('a'), { role: 'user', content: 'hook context' }, call('b'), result('b'), said('x')];
    expect(compactionCut(open, 1)).toBe(1);
    // A result that sits after the cut pulls its call into the kept tail.
    const late: Message[] = [{ role: 'user', content: 'q' }, said('hm'), call('c'), said('waiting'), result('c'), said('y')];
    expect(compactionCut(late, 2)).toBe(2);
    expect(compactionCut([{ role: 'user', content: 'only' }], 2)).toBe(0);
  });

  it('manual compact() with nothing older than the kept turns says so and leaves the history alone', async () => {
    const pre: HookInput[] = [];
    const session = createHost({ model: scriptedModel([{ text: 'hi' }]), hooks: { PreCompact: [{ hooks: [async (i) => (pre.push(i), {})] }] } }).session();
    (session.messages as Message[]).push({ role: 'assistant', content: [{ type: 'text', text: 'alone' }] });
    const r = await session.compact();
    expect(r).toMatchObject({ compacted: false, reason: expect.stringMatching(/nothing to compact/) });
    expect(pre).toHaveLength(0);
  });

  it('defaultCompactor reports a model failure as MODEL_ERROR', async () => {
    const model = scriptedModel([{ error: { code: 'OVERLOADED', message: 'busy' } }]);
    const req = { messages: [{ role: 'user', content: 'q' }, said('a')] as Message[], model, tools: [], trigger: 'manual' as const, keepTurns: 1, signal: new AbortController().signal };
    await expect(defaultCompactor(req)).rejects.toMatchObject({ code: 'MODEL_ERROR', message: expect.stringMatching(/OVERLOADED/) });
  });
});

describe('compaction inside a sub-agent', () => {
  it('compacts the sub-agent conversation only; the event and hook input carry its id', async () => {
    const pre: HookInput[] = [];
    const model = scriptedModel([
      { toolCalls: [{ name: 'agent', id: 'toolu_p', input: { subagent_type: 'r', prompt: 'read a and big' } }] },
      { toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] },
      { toolCalls: [{ name: 'Read', input: { file_path: 'big' } }] },
      { text: 'SUB SUMMARY' },
      { text: 'sub done' },
      { text: 'done' },
    ]);
    const host = createHost({
      model,
      tools: [read],
      permissionMode: 'bypassPermissions',
      contextWindow: 200,
      autoCompact: 0.5,
      keepTurns: 1,
      agents: { r: { description: 'reads', systemPrompt: 'You read.', tools: ['Read'] } },
      hooks: { PreCompact: [{ hooks: [async (i) => (pre.push(i), {})] }] },
    });
    const events = await collect(host.session(), 'go');
    expect(ofType(events, 'context.compacted')).toMatchObject([{ agentId: 'r@toolu_p', parentToolUseId: 'toolu_p', trigger: 'auto' }]);
    expect(pre).toMatchObject([{ agent_id: 'r@toolu_p' }]);
    expect(model.requests[3]?.system).toBe('You read.');
    expect(model.requests[4]?.messages[0]).toEqual({ role: 'user', content: 'Summary of the conversation so far:\nSUB SUMMARY' });
    expect(model.requests[5]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(ofType(events, 'state.change').filter((e) => e.agentId).map((e) => e.to)).toContain('compacting');
    expect(endResult(events).text).toBe('done');
  });
});
