// Review (rv7) of red8's conversation cap: it was checked before the turn's auto-compaction, so a
// session that compacts by itself was refused (CONVERSATION_TOO_LARGE) at maxMessages instead of
// compacting, the very way out the error names.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import type { Message } from '../../host/models/types.js';
import { collect, endResult, ofType } from './helpers.js';

const small = tool('Small', 'answers little', z.object({}), () => 'ok');
const calls = (n: number) => Array.from({ length: n }, () => ({ toolCalls: [{ name: 'Small', input: {} }] }));

describe('the conversation cap and auto-compaction', () => {
  it('an auto-compacting session past maxMessages compacts and goes on', async () => {
    // Three small turns pass maxMessages (6) long before the window (1M tokens) asks for a compaction.
    const model = scriptedModel({ turns: [...calls(3), { text: 'Summary: three calls.' }, { text: 'done' }], contextWindow: 1_000_000 });
    const host = createHost({ model, tools: [small], permissionMode: 'bypassPermissions', maxMessages: 6, keepTurns: 1 });
    const events = await collect(host.session(), 'go');
    const result = endResult(events);
    expect(result.error).toBeUndefined();
    expect(result.subtype).toBe('success');
    expect(result.text).toBe('done');
    expect(ofType(events, 'context.compacted')).toHaveLength(1);
  });

  it('without auto-compaction (no window, or autoCompact: false) the cap still ends the prompt', async () => {
    for (const extra of [{}, { autoCompact: false as const }]) {
      const model = scriptedModel({ turns: [...calls(3), { text: 'never' }], ...('autoCompact' in extra ? { contextWindow: 1_000_000 } : {}) });
      const host = createHost({ model, tools: [small], permissionMode: 'bypassPermissions', maxMessages: 6, ...extra });
      const result = await host.session().prompt('go');
      expect(result.error?.code).toBe('CONVERSATION_TOO_LARGE');
    }
  });

  it('a compaction that cannot make room (nothing to cut) still ends the prompt with the typed error', async () => {
    const history = Array.from({ length: 8 }, (_, i) => ({ role: 'user' as const, content: `m${i}` }));
    const model = scriptedModel({ turns: [{ text: 'never' }], contextWindow: 1_000_000 });
    const result = await createHost({ model, maxMessages: 5 }).session({ history }).prompt('one more');
    expect(result.error?.code).toBe('CONVERSATION_TOO_LARGE');
  });
});

describe('the conversation cap after a compaction that keeps the array\'s length and last message', () => {
  it('a compactor that trims old messages (new objects, the same count, the last kept) makes room', async () => {
    const history = [{ role: 'user' as const, content: 'x'.repeat(100_000) }, { role: 'user' as const, content: 'q' }];
    // Trims what it may, keeps the latest messages as they are: the array's length and last message stay.
    const compactor = async ({ messages }: { messages: readonly Message[] }): Promise<Message[]> =>
      messages.map((m, i) => (i === 0 ? { role: 'user' as const, content: 'trimmed' } : m));
    const host = createHost({ model: scriptedModel([{ text: 'done' }]), maxConversationChars: 50_000, compactor });
    const session = host.session({ history });
    expect((await session.prompt('one more')).error?.code).toBe('CONVERSATION_TOO_LARGE');
    expect((await session.compact()).compacted).toBe(true);
    // The old measure took the array as unchanged (same length, same last message) and still counted 100,000.
    const result = await session.prompt('again');
    expect(result.error).toBeUndefined();
    expect(result.text).toBe('done');
  });
});
