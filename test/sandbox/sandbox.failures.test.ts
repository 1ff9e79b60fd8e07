// One table of failure properties (host/sandbox/failures.ts) and the table in
// docs/sandbox.md say the same, and the health tracker follows it: BAD_OUTPUT
// from the protocol layer counts toward quarantine like any plugin failure.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadPlugin } from '../../host/plugins/index.js';
import { encodePluginInfo } from '../../host/protocol/pb-codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { FAILURE_RULES } from '../../host/sandbox/failures.js';
import { HealthTracker } from '../../host/sandbox/health.js';
import type { FailureCode } from '../../host/failure.js';
import type { HookInput } from '../../host/hooks/types.js';
import { cannedPlugin } from '../fixtures/canned.js';
import { preToolUse as preToolUseInput } from '../plugins-firstparty/wasm.js';

const codes = Object.keys(FAILURE_RULES) as FailureCode[];

describe('the failure table', () => {
  it('docs/sandbox.md has one row per code, saying what FAILURE_RULES says', async () => {
    const doc = await readFile(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
    const rows = new Map<string, [rebuilt: string, health: string]>();
    for (const line of doc.split('\n')) {
      const cells = line.split('|').map((c) => c.trim());
      const code = /^`([A-Z_]+)`$/.exec(cells[1] ?? '')?.[1];
      if (code && cells.length >= 6 && codes.includes(code as FailureCode)) rows.set(code, [cells[3]!, cells[4]!]);
    }
    expect([...rows.keys()].sort()).toEqual([...codes].sort());
    for (const code of codes) {
      const { rebuild, health } = FAILURE_RULES[code];
      const [rebuilt, counts] = rows.get(code)!;
      expect([code, rebuilt.startsWith('yes')]).toEqual([code, rebuild]);
      expect([code, counts.split(' ')[0]]).toEqual([code, { counts: 'yes', resets: 'resets', neutral: 'no' }[health]]);
    }
  });

  it.each(codes)('%s: the tracker counts it as the table says', (code) => {
    const tracker = new HealthTracker({ maxConsecutiveFailures: 2, backoffMs: 1_000, maxBackoffMs: 1_000 });
    const fail = { ok: false as const, failure: { code, message: '' }, fuelUsed: 0, durationMs: 0 };
    tracker.record(fail);
    tracker.record(fail);
    const expected = { counts: 'quarantined', resets: 'healthy', neutral: 'healthy' }[FAILURE_RULES[code].health];
    expect(tracker.health).toBe(expected);
  });
});

describe('BAD_OUTPUT quarantines', () => {
  const preToolUse = preToolUseInput('Bash', { command: 'ls' }, { cwd: '/work' });

  it('a plugin answering garbage five times in a row is quarantined after three', async () => {
    const info = encodePluginInfo({
      name: 'garbage',
      version: '0.1.0',
      protocolVersion: 1,
      hooks: [{ event: wasmhooks.v1.HookEvent.HOOK_EVENT_PRE_TOOL_USE, matcher: 'Bash' }],
    });
    const plugin = await loadPlugin({ bytes: cannedPlugin({ describe: info, hook: new Uint8Array([0x0a, 0xff, 0xff, 0xff]) }) });
    const events: string[] = [];
    plugin.onHealth((e) => events.push(e.status));
    const [handler] = plugin.hooks();
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await handler!.run(preToolUse, { signal: new AbortController().signal });
      codes.push(result.ok ? 'ok' : result.failure.code);
    }
    expect(codes).toEqual(['BAD_OUTPUT', 'BAD_OUTPUT', 'BAD_OUTPUT', 'QUARANTINED', 'QUARANTINED']);
    expect(events).toEqual(['degraded', 'quarantined']);
    expect(plugin.sandbox.health).toBe('quarantined');
    await plugin.close();
  });

  it('so does a decision the event does not allow (deny on PostToolBatch)', async () => {
    const info = encodePluginInfo({
      name: 'illegal',
      version: '0.1.0',
      protocolVersion: 1,
      hooks: [{ event: wasmhooks.v1.HookEvent.HOOK_EVENT_POST_TOOL_BATCH }],
    });
    const deny = wasmhooks.v1.HookResponse.encode({ decision: wasmhooks.v1.Decision.DECISION_DENY, reason: 'no' }).finish();
    const plugin = await loadPlugin({ bytes: cannedPlugin({ describe: info, hook: deny }) });
    const [handler] = plugin.hooks();
    const input: HookInput = { hook_event_name: 'PostToolBatch', session_id: 's1', cwd: '/work', turn: 1, iteration: 1, permission_mode: 'default', tool_calls: [] };
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const result = await handler!.run(input, { signal: new AbortController().signal });
      codes.push(result.ok ? 'ok' : result.failure.code);
    }
    expect(codes).toEqual(['BAD_OUTPUT', 'BAD_OUTPUT', 'BAD_OUTPUT', 'QUARANTINED']);
    await plugin.close();
  });
});
