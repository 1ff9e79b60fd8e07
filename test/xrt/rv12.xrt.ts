// Hostile review of red11 (rv12) on Node, Deno and Bun, through the built ESM: each scenario is a
// hole red11's changes left open, now closed. Vitest twins that fail on the old code:
// test/sandbox/rv12.host-throw.test.ts, test/plugins/rv12.health-numbers.test.ts,
// test/store/rv12.redis-count.test.ts, test/sandbox/rv12.kernel-set.test.ts, test/mcp/rv12.ambient.test.ts,
// test/agent/rv12.progress-sessions.test.ts, test/sandbox/rv12.exit-final.test.ts.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createHost, createSandbox, loadPlugin, openStore, scriptedModel, tool } from '../../dist/index.js';
import type { HookHandler, HostEvent } from '../../dist/index.js';
import { HOW_TO_INSTALL, haveRedis, startRedis } from '../store/redis-server.ts';

const { CATCHER, KERNEL_CALLS, STOLEN, askingPlugin, exitCatcher, kernelCatcher, wat } = (await import(new URL('../fixtures/rv12-plugins.ts', import.meta.url).href)) as typeof import('../fixtures/rv12-plugins.js');

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

  'Redis: an over-limit replay missing 60,000 events of 1 KB counts them in short scripts (none runs 100 ms: Redis serves no one while one runs)': async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    const opened = await openStore({ kind: 'redis', url: redis.url, prefix: 'rv12:', replayWindow: 100_000 });
    const { default: Redis } = await import('ioredis');
    const admin = new Redis(redis.url);
    try {
      const log = opened.eventLog!;
      const ids: string[] = [];
      log.subscribe((entry) => ids.push(entry.id));
      const event = (i: number, title = 'x') => ({ type: 'session.created', time: i, sessionId: `s${i}`, title }) as never;
      log.append(event(0));
      await log.drain();
      for (let i = 0; i < 300 && ids.length < 1; i++) await new Promise((r) => setTimeout(r, 10));
      await admin.eval(`for i = 1, tonumber(ARGV[1]) do redis.call('XADD', KEYS[1], '*', 'u', 'other.' .. i, 'd', ARGV[2]) end return 0`, 1, 'rv12:events', '60000', JSON.stringify(event(1, 'y'.repeat(1000))));
      log.append(event(2));
      await log.drain();
      for (let i = 0; i < 300 && ids.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
      await admin.config('SET', 'slowlog-log-slower-than', '100000');
      await admin.slowlog('RESET');
      const since = await log.since(ids[0]!, 50_000);
      const slow = ((await admin.slowlog('GET', 100)) as unknown[][]).filter((e) => String((e[3] as unknown[])[0]).toLowerCase().startsWith('eval'));
      assert.equal(since.kind === 'gap' && since.reason, 'over-limit');
      assert.equal(since.kind === 'gap' && since.missed, 60_001 - since.entries.length);
      assert.deepEqual(slow.map((e) => `${e[2]} µs`), []);
    } finally {
      admin.disconnect();
      await opened.close();
      await redis.dispose();
    }
  },

  'Extism refusing output_set/error_set (missing block, length past it), caught by catch_all 20,000 times, is one final TRAP (in-thread and in a worker)': async () => {
    for (const [what, call] of Object.entries(KERNEL_CALLS)) {
      const bytes = await wat(kernelCatcher(call));
      for (const isolation of ['in-thread', 'worker'] as const) {
        const sandbox = await createSandbox(bytes, { allowExceptions: true, isolation, limits: { timeoutMs: 10_000, fuel: 1e12 } });
        try {
          const out = await sandbox.call('run', new Uint8Array());
          assert.equal(out.ok ? 'ok' : out.failure.code, 'TRAP', `${what} ${isolation}`);
          assert.ok(out.fuelUsed < 10_000, `${what} ${isolation}: ${out.fuelUsed} fuel`);
        } finally {
          await sandbox.close();
        }
      }
    }
  },

  'an MCP server that prints and dies mid-call: mcp.server.* (every live session) quote none of its stderr; the tool result does': async () => {
    const fixture = fileURLToPath(new URL('../fixtures/mcp/server.mjs', import.meta.url));
    const host = createHost({
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'mcp__demo__crash', input: {} }] }, { text: 'done' }] }),
      permissionMode: 'bypassPermissions',
      mcpServers: { demo: { command: 'node', args: [fixture] } },
    });
    try {
      const events: HostEvent[] = [];
      for await (const e of host.session().stream('go')) events.push(e);
      const output = events.find((e) => e.type === 'tool.output');
      assert.match(output?.type === 'tool.output' ? output.content : '', /crashing now/);
      const ambient = events.filter((e) => e.type.startsWith('mcp.server.'));
      assert.ok(ambient.some((e) => e.type === 'mcp.server.error' || e.type === 'mcp.server.closed'), JSON.stringify(ambient));
      assert.ok(!JSON.stringify(ambient).includes('crashing now'), JSON.stringify(ambient));
    } finally {
      await host.close();
    }
  },

  'a redactor whose sessions set grows to take in the session mid-call withholds the progress after it': async () => {
    const SECRET = 'sk-live-0123456789abcdef';
    const sessions = new Set<string>();
    const redactor: HookHandler = {
      id: 'redactor', name: 'redactor', kind: 'js', event: 'PostToolUse', sessions, failurePolicy: 'fail-open', timeoutMs: 5_000,
      run: async (input) => ({ ok: true, output: { updatedOutput: String((input as { tool_response?: string }).tool_response ?? '').replaceAll(SECRET, '[redacted]') } }),
    };
    const model = scriptedModel([{ toolCalls: [{ name: 'Leak', input: {} }] }, { text: '.' }]);
    let id = '';
    const leak = tool('Leak', 'leaks', z.object({}), (_i, ctx) => (ctx.onProgress('before'), sessions.add(id), ctx.onProgress(SECRET), `out ${SECRET}`));
    const host = createHost({ model, permissionMode: 'bypassPermissions', tools: [leak] });
    host.hooks.addHandler(redactor);
    const session = host.session();
    id = session.id;
    const events: HostEvent[] = [];
    for await (const e of session.stream('go')) events.push(e);
    assert.deepEqual(events.flatMap((e) => (e.type === 'tool.progress' ? [e.progress] : [])), ['before', '[progress withheld: a PostToolUse hook reviews this tool\'s output]']);
    assert.ok(!JSON.stringify(events).includes(SECRET));
  },

  'a plugin\'s own exit, caught by catch_all 20,000 times, is final: exit 0 a finished call with no output, exit 3 PLUGIN_ERROR (in-thread and in a worker)': async () => {
    for (const code of [0, 3]) {
      const bytes = await wat(exitCatcher(code));
      for (const isolation of ['in-thread', 'worker'] as const) {
        const sandbox = await createSandbox(bytes, { wasi: true, allowExceptions: true, isolation, limits: { timeoutMs: 10_000, fuel: 1e12 } });
        try {
          const out = await sandbox.call('run', new Uint8Array());
          assert.equal(out.ok ? `ok ${out.output.length}` : out.failure.code, code === 0 ? 'ok 0' : 'PLUGIN_ERROR', `${code} ${isolation}`);
          assert.ok(out.fuelUsed < 100_000, `${code} ${isolation}: ${out.fuelUsed} fuel`);
        } finally {
          await sandbox.close();
        }
      }
    }
  },
};
