// Review (rv8) of red9's HTTP server changes and the lead's conversation cap on Node, Deno and Bun,
// through the built ESM: each scenario is a hole or a regression left on `main` (its vitest twin
// fails on the code before the fix).
import assert from 'node:assert/strict';
import { createHost, scriptedModel } from '../../dist/index.js';
import type { HostEvent, Message } from '../../dist/index.js';

export const scenarios: Record<string, () => Promise<void>> = {
  'a prompt that alone passes maxConversationChars is refused without compacting the session away': async () => {
    const history: Message[] = Array.from({ length: 8 }, (_, i): Message => (i % 2 ? { role: 'assistant', content: [{ type: 'text', text: `a${i}` }] } : { role: 'user', content: `q${i}` }));
    const model = scriptedModel({ turns: [{ text: 'Summary: it was all questions.' }, { text: 'answered' }], contextWindow: 1_000_000 });
    const session = createHost({ model, maxConversationChars: 1_000, keepTurns: 1 }).session({ history });
    const events: HostEvent[] = [];
    for await (const e of session.stream('x'.repeat(1_001))) events.push(e);
    const end = events.find((e) => e.type === 'agent.end');
    assert.ok(end && end.type === 'agent.end');
    assert.equal(end.result.error?.code, 'CONVERSATION_TOO_LARGE');
    assert.match(end.result.error?.message ?? '', /the prompt alone holds 1001 characters/);
    assert.equal(events.filter((e) => e.type === 'context.compacted').length, 0);
    assert.equal(session.messages.length, history.length);
    await session.idle();
    assert.equal((await session.prompt('short')).text, 'Summary: it was all questions.');
  },
};
