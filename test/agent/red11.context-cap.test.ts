// red11, class "the conversation cap is off by one": hook context enters the conversation as its own
// message just before the model call (config.ts flushContext), after the turn's cap check, so a
// conversation at exactly maxMessages went to the model (and the store) with maxMessages + 1. The
// check now counts pending context, and context gathered after it (IterationStart) into a full
// conversation is dropped and the conversation counts as full. Fails on the old code.
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import type { HooksConfig } from '../../host/hooks/types.js';
import type { Message } from '../../host/models/types.js';

const history = (n: number): Message[] => Array.from({ length: n }, (_, i): Message => (i % 2 ? { role: 'assistant', content: [{ type: 'text', text: `a${i}` }] } : { role: 'user', content: `u${i}` }));

async function largestRequest(hooks: HooksConfig, historyLength: number, maxMessages: number) {
  const model = scriptedModel([{ text: 'one' }, { text: 'two' }]);
  const host = createHost({ model, hooks });
  const result = await host.session({ history: history(historyLength), maxMessages }).prompt('go');
  return { result, sent: Math.max(0, ...model.requests.map((r) => r.messages.length)) };
}

describe('the conversation cap counts hook context (red11)', () => {
  it('UserPromptSubmit context into a conversation one short of the cap: refused, never sent as maxMessages + 1', async () => {
    const context: HooksConfig = { UserPromptSubmit: [{ hooks: [async () => ({ additionalContext: 'remember the rules' })] }] };
    const { result, sent } = await largestRequest(context, 9, 10);
    expect(sent).toBeLessThanOrEqual(10);
    expect(result.error?.code).toBe('CONVERSATION_TOO_LARGE');
    expect(result.error?.message).toMatch(/and hook context, more than maxMessages \(10\)/);
  });

  it('IterationStart context into a full conversation is dropped: the model gets at most maxMessages, and the next turn is refused', async () => {
    const context: HooksConfig = { IterationStart: [{ hooks: [async () => ({ additionalContext: 'late context' })] }] };
    const { sent } = await largestRequest(context, 9, 10);
    expect(sent).toBeLessThanOrEqual(10);
  });

  it('without context, a conversation at the cap still gets its turn', async () => {
    const { result, sent } = await largestRequest({}, 9, 10);
    expect(result.subtype).toBe('success');
    expect(sent).toBe(10);
  });
});
