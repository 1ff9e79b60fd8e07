// Review (rv7) of red8's conversation cap: it was checked before the turn's auto-compaction, so a
// session that compacts by itself was refused (CONVERSATION_TOO_LARGE) at maxMessages instead of
// compacting, the very way out the error names.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
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
