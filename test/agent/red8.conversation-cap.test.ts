// Red review (red8), class "a session grows without bound": a tool (a plugin, an MCP server) that
// answers with all it may, turn after turn, grew the conversation (memory, the store's transcript,
// every model request) without limit. maxMessages and maxConversationChars cap it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import { conversationChars } from '../../host/agent/conversation-cap.js';
import { collect, endResult, ofType } from './helpers.js';

/** A model that calls Big on every turn, forever (only the caps end it; maxTurns is large). */
const greedy = () => scriptedModel(Array.from({ length: 400 }, () => ({ toolCalls: [{ name: 'Big', input: {} }] })));
const big = (chars: number) => tool('Big', 'answers a lot', z.object({}), () => 'x'.repeat(chars));

describe('the conversation cap', () => {
  it('maxConversationChars: outputs past it are dropped as they arrive, then the prompt ends with CONVERSATION_TOO_LARGE', async () => {
    const host = createHost({ model: greedy(), tools: [big(100_000)], permissionMode: 'bypassPermissions', maxTurns: 300, maxConversationChars: 350_000 });
    const session = host.session();
    const events = await collect(session, 'go');
    const result = endResult(events);
    expect(result.subtype).toBe('error_during_execution');
    expect(result.error).toMatchObject({ code: 'CONVERSATION_TOO_LARGE', message: expect.stringMatching(/maxConversationChars \(350000\).*compact/) });
    const outputs = ofType(events, 'tool.output');
    expect(outputs.length).toBe(4); // three fit, the fourth is a note; the old code ran all 300 turns (30 MB)
    expect(outputs[3]).toMatchObject({ isError: true, content: expect.stringMatching(/^\[output dropped/) });
    expect(conversationChars(session.messages)).toBeLessThan(350_000 + 1_000);
    expect(ofType(events, 'error').map((e) => e.code)).toEqual(['CONVERSATION_TOO_LARGE']);
  });

  it('maxMessages: the prompt ends before the model call that would exceed it', async () => {
    const host = createHost({ model: greedy(), tools: [big(10)], permissionMode: 'bypassPermissions', maxTurns: 300, maxMessages: 20 });
    const session = host.session();
    const result = await session.prompt('go');
    expect(result.error?.code).toBe('CONVERSATION_TOO_LARGE');
    expect(result.error?.message).toMatch(/maxMessages \(20\)/);
    expect(session.messages.length).toBeLessThanOrEqual(22);
    // The way out it names: a compacted (or new) session goes on.
    const next = createHost({ model: scriptedModel([{ text: 'ok' }]), maxMessages: 20 }).session();
    expect((await next.prompt('hi')).subtype).toBe('success');
  });

  it('a session may set its own cap; a history already past it fails the first prompt with the typed error', async () => {
    const host = createHost({ model: scriptedModel([{ text: 'never' }]) });
    const history = Array.from({ length: 6 }, (_, i) => ({ role: 'user' as const, content: `m${i}` }));
    const result = await host.session({ history, maxMessages: 5 }).prompt('one more');
    expect(result.error?.code).toBe('CONVERSATION_TOO_LARGE');
  });

  it('impossible caps are refused with INVALID_OPTIONS', () => {
    expect(() => createHost({ maxMessages: 0 })).toThrow(/maxMessages/);
    expect(() => createHost({ maxConversationChars: -1 })).toThrow(/maxConversationChars/);
    expect(() => createHost().session({ maxConversationChars: 1.5 })).toThrow(/maxConversationChars/);
  });

  it('measures incrementally and again after the array is rewritten', () => {
    const messages = [{ role: 'user' as const, content: 'abc' }];
    expect(conversationChars(messages)).toBe(3);
    messages.push({ role: 'user', content: 'de' });
    expect(conversationChars(messages)).toBe(5);
    messages.splice(0, 2, { role: 'user', content: 'z' });
    expect(conversationChars(messages)).toBe(1);
  });
});

describe('the cap and compaction', () => {
  it('a session that filled up goes on once compacted', async () => {
    const replies = [
      { toolCalls: [{ name: 'Big', input: {} }] },
      { toolCalls: [{ name: 'Big', input: {} }] },
      { text: 'Summary: big outputs.' }, // the compactor's model call
      { text: 'done' },
    ];
    const host = createHost({ model: scriptedModel(replies), tools: [big(100_000)], permissionMode: 'bypassPermissions', maxConversationChars: 150_000, keepTurns: 1 });
    const session = host.session();
    expect((await session.prompt('go')).error?.code).toBe('CONVERSATION_TOO_LARGE');
    const compactedResult = await session.compact();
    expect(compactedResult.compacted).toBe(true);
    expect((await session.prompt('again')).subtype).toBe('success');
  });
});

describe('hook context counts toward the cap', () => {
  it('context past the cap reaches the model as a note; the conversation is then full', async () => {
    // Under the hook answer cap (262,144, host/hooks/caps.ts), over the conversation's.
    const huge = 'y'.repeat(250_000);
    const host = createHost({
      model: scriptedModel([{ text: 'one' }, { text: 'two' }]),
      maxConversationChars: 100_000,
      hooks: { UserPromptSubmit: [{ hooks: [async () => ({ additionalContext: huge })] }] },
    });
    const session = host.session();
    expect((await session.prompt('go')).subtype).toBe('success');
    expect(JSON.stringify(session.messages)).not.toContain(huge);
    expect(JSON.stringify(session.messages)).toMatch(/\[hook context dropped/);
    expect((await session.prompt('again')).error?.code).toBe('CONVERSATION_TOO_LARGE');
  });
});
