// rv12: red11 quoted "host-worded" failures in plugin.health (sent to every live session), but the
// host's wording carries what the plugin chose: alloc(n) refused quotes n, 64 bits per failure a
// plugin can take from one session's input. Fails on red11's code (the message held the number).
import { describe, expect, it } from 'vitest';
import { loadPlugin } from '../../host/plugins/index.js';
import { STOLEN, askingPlugin } from '../fixtures/rv12-plugins.js';

describe('plugin.health quotes no number the plugin chose (rv12)', () => {
  it('an alloc of 8 stolen bytes as a size: MEMORY_LIMIT with a fixed sentence; the call keeps the detail', async () => {
    const plugin = await loadPlugin({ bytes: await askingPlugin() });
    const messages: string[] = [];
    plugin.onHealth((change) => messages.push(change.message ?? ''));
    try {
      const input = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default', tool_name: 'Bash', tool_input: {}, tool_use_id: 't' } as const;
      const result = await plugin.callHook(input);
      expect(result.ok ? 'ok' : result.failure.code).toBe('MEMORY_LIMIT');
      expect(!result.ok && result.failure.message).toContain(String(STOLEN));
      expect(messages).toEqual(['MEMORY_LIMIT: a call reached the memory cap']);
    } finally {
      await plugin.close();
    }
  });
});
