// Hostile review of red11 (rv12) on Node, Deno and Bun, through the built ESM: each scenario is a
// hole red11's changes left open, now closed. Vitest twins that fail on the old code:
// test/sandbox/rv12.host-throw.test.ts, test/plugins/rv12.health-numbers.test.ts,
// test/store/rv12.redis-count.test.ts.
import assert from 'node:assert/strict';
import { createSandbox, loadPlugin } from '../../dist/index.js';

const { CATCHER, STOLEN, askingPlugin, wat } = (await import(new URL('../fixtures/rv12-plugins.ts', import.meta.url).href)) as typeof import('../fixtures/rv12-plugins.js');

export const scenarios: Record<string, () => Promise<void>> = {
  'an embedder host function throwing a value that is not an Error (string, undefined, object) is a final TRAP, caught by catch_all or not': async () => {
    const bytes = await wat(CATCHER);
    // The embedder's functions run on the caller's thread (a worker cannot take them).
    for (const isolation of ['in-thread'] as const) {
      for (const thrown of ['no such user', undefined, null, 7, { code: 404 }]) {
        let calls = 0;
        const boom = {
          params: [],
          results: [],
          fn: () => {
            calls++;
            throw thrown;
          },
        };
        const sandbox = await createSandbox(bytes, { allowExceptions: true, isolation, hostFunctions: { boom }, limits: { timeoutMs: 10_000, fuel: 1e12 } });
        try {
          const out = await sandbox.call('run', new Uint8Array());
          assert.equal(out.ok ? 'ok' : out.failure.code, 'TRAP', `${isolation} ${String(thrown)}`);
          assert.equal(calls, 1, `${isolation} ${String(thrown)}`);
        } finally {
          await sandbox.close();
        }
      }
    }
  },

  'plugin.health, sent to every session, quotes no number the plugin chose (alloc of 8 stolen bytes as a size)': async () => {
    const plugin = await loadPlugin({ bytes: await askingPlugin() });
    const messages: string[] = [];
    plugin.onHealth((change) => messages.push(change.message ?? ''));
    try {
      const input = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default', tool_name: 'Bash', tool_input: {}, tool_use_id: 't' } as const;
      const result = await plugin.callHook(input);
      assert.ok(!result.ok && result.failure.code === 'MEMORY_LIMIT', JSON.stringify(result));
      // The call's own failure keeps the detail (it goes to the session that made the call).
      assert.ok(result.failure.message.includes(String(STOLEN)));
      assert.equal(messages.length, 1);
      assert.match(messages[0]!, /^MEMORY_LIMIT/);
      assert.ok(!messages[0]!.includes(String(STOLEN)), messages[0]);
      assert.ok(!/\d{4,}/.test(messages[0]!), messages[0]);
    } finally {
      await plugin.close();
    }
  },
};
