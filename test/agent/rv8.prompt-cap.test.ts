// Review (rv8) of the lead's conversation cap (a prompt to a full conversation is refused before it
// is added, after auto-compaction had its chance): a prompt that alone passes maxConversationChars
// can never fit, yet an auto-compacting session compacted first. Every such prompt (any API client
// can send one of up to 1 MB) cost a model call and summarized the session's history away, then was
// refused anyway.
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import type { Message } from '../../host/models/types.js';
import { collect, endResult, ofType } from './helpers.js';

const history: Message[] = Array.from({ length: 8 }, (_, i): Message => (i % 2 ? { role: 'assistant', content: [{ type: 'text', text: `a${i}` }] } : { role: 'user', content: `q${i}` }));

describe('a prompt that alone passes maxConversationChars', () => {
  it('is refused without compacting the conversation (no model call, the history kept)', async () => {
    const model = scriptedModel({ turns: [{ text: 'Summary: it was all questions.' }, { text: 'answered' }], contextWindow: 1_000_000 });
    const host = createHost({ model, maxConversationChars: 1_000, keepTurns: 1 });
    const session = host.session({ history });
    const events = await collect(session, 'x'.repeat(1_001));
    const result = endResult(events);
    expect(result.error?.code).toBe('CONVERSATION_TOO_LARGE');
    expect(result.error?.message).toMatch(/the prompt alone holds 1001 characters/);
    expect(ofType(events, 'context.compacted')).toHaveLength(0);
    expect(session.messages).toHaveLength(history.length);
    // The session is as it was: a prompt that fits is answered by the model's first turn.
    const next = await session.prompt('short');
    expect(next.error).toBeUndefined();
  });

  it('a prompt that fits once the conversation is compacted still compacts and goes on', async () => {
    const model = scriptedModel({ turns: [{ text: 'Summary: it was all questions.' }, { text: 'answered' }], contextWindow: 1_000_000 });
    const host = createHost({ model, maxConversationChars: 1_000, keepTurns: 1 });
    const big: Message[] = [{ role: 'user', content: 'y'.repeat(900) }, ...history];
    const events = await collect(host.session({ history: big }), 'z'.repeat(200));
    expect(endResult(events).error).toBeUndefined();
    expect(ofType(events, 'context.compacted')).toHaveLength(1);
  });
});
