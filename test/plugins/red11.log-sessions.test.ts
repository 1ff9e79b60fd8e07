// red11, class "a plugin's text reaches watchers it was not meant for": a plugin's log lines
// (Extism log_*, WASI stdout/stderr) were announced to every session with a prompt running, so a
// plugin shared by sessions logged one session's data (its tool input, a secret) into every other
// session's stream (SSE, the event log); and a plugin tool's lines passed a redactor like its
// progress did. A line now goes to the session whose call wrote it (CallOptions.onLog, the chain's
// and the loop's sinks), and a tool call's lines are withheld while an output hook reviews it.
// Fails on the old code (session B saw A's secret; the tool's line passed the redactor).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hostile } from '../xrt/wat.ts';
import { createHost } from '../../host/host.js';
import { loadPlugin } from '../../host/plugins/index.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import { LOG_WITHHELD } from '../../host/agent/progress-gate.js';
import type { HostEvent } from '../../host/events/types.js';
import type { HooksConfig } from '../../host/hooks/types.js';


const logs = (events: HostEvent[]) => events.flatMap((e) => (e.type === 'plugin.log' ? [e.message] : []));

async function twoSessions(isolation: 'in-thread' | 'worker', hooks: HooksConfig = {}) {
  const plugin = await loadPlugin({ bytes: await hostile('red11-logger') }, { isolation });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const model = scriptedModel({
    rules: [
      { when: { lastUser: 'peek' }, reply: { toolCalls: [{ name: 'Peek', input: { secret: 'A-SECRET-0001' } }] } },
      { when: { lastUser: 'wait' }, reply: { toolCalls: [{ name: 'Wait', input: {} }] } },
    ],
    turns: Array.from({ length: 4 }, () => ({ text: 'done' })),
  });
  const host = createHost({ model, plugins: [plugin], permissionMode: 'bypassPermissions', hooks, tools: [tool('Wait', 'waits', z.object({}), async () => (await held, 'waited'))] });
  try {
    const b: HostEvent[] = [];
    const running = (async () => {
      for await (const e of host.session({ sessionId: 'B' }).stream('wait')) b.push(e);
    })();
    while (!b.some((e) => e.type === 'tool.call')) await new Promise((r) => setTimeout(r, 5));
    const a: HostEvent[] = [];
    for await (const e of host.session({ sessionId: 'A' }).stream('peek')) a.push(e);
    release();
    await running;
    return { a, b };
  } finally {
    await plugin.close();
  }
}

describe('a plugin\'s log lines go to the session whose call wrote them (red11)', () => {
  it.each(['in-thread', 'worker'] as const)('%s: session B, running meanwhile, never sees session A\'s lines', async (isolation) => {
    const { a, b } = await twoSessions(isolation);
    // A's PreToolUse hook call and its Peek tool call both logged A's input.
    expect(logs(a).filter((m) => m.includes('A-SECRET-0001')).length).toBe(2);
    expect(JSON.stringify(b)).not.toContain('A-SECRET-0001');
    // B's own hook call logged into B.
    expect(logs(b).some((m) => m.includes('Wait'))).toBe(true);
  });

  it.each(['in-thread', 'worker'] as const)('%s: a hook call outside any session logs to the plugin\'s own listeners, named and levelled; the class has no public log()', async (isolation) => {
    const plugin = await loadPlugin({ bytes: await hostile('red11-logger') }, { isolation });
    const lines: { plugin: string; level: string; message: string }[] = [];
    const off = plugin.onLog((line) => lines.push(line));
    try {
      const input = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'NO-SESSION-77' }, tool_use_id: 't' } as const;
      expect((await plugin.callHook(input)).ok).toBe(true);
      expect(lines).toEqual([{ plugin: 'logger', level: 'info', message: expect.stringContaining('NO-SESSION-77') }]);
      expect('log' in plugin).toBe(false);
    } finally {
      off();
      await plugin.close();
    }
  });

  it('a plugin tool\'s lines are withheld while a PostToolUse hook reviews the call (after one note)', async () => {
    const redact: HooksConfig = { PostToolUse: [{ hooks: [async (i) => (i.hook_event_name === 'PostToolUse' ? { updatedOutput: '[redacted]' } : {})] }] };
    const { a } = await twoSessions('in-thread', redact);
    const lines = logs(a);
    expect(lines).toContain(LOG_WITHHELD);
    // The one line left with the secret is the PreToolUse hook's (the input, before any tool ran).
    expect(lines.filter((m) => m.includes('A-SECRET-0001')).length).toBe(1);
  });
});

describe('plugin.health quotes only what the host worded (red11)', () => {
  it('a BAD_OUTPUT carrying a piece of the plugin\'s output is named by its code, not quoted, in the event every session gets', async () => {
    const { cannedPlugin } = await import('../fixtures/canned.js');
    const { encodePluginInfo } = await import('../../host/protocol/pb-codec.js');
    const enc = new TextEncoder();
    const json = enc.encode('{"SECRET-XYZ-42":1,"SECRET-XYZ-42":2}');
    // HookResponse { updated_input_json }: a key named twice, refused; the refusal names the key.
    const hook = new Uint8Array([0x1a, json.length, ...json]);
    const describe = encodePluginInfo({ name: 'leaky', version: '1', protocolVersion: 1, hooks: [{ event: 6, matcher: '' }] });
    const plugin = await loadPlugin({ bytes: cannedPlugin({ describe, hook }) });
    const messages: string[] = [];
    plugin.onHealth((change) => messages.push(change.message ?? ''));
    try {
      const input = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default', tool_name: 'Bash', tool_input: {}, tool_use_id: 't' } as const;
      const result = await plugin.callHook(input);
      expect(result.ok ? '' : result.failure.message).toContain('SECRET-XYZ-42');
      expect(messages).toEqual([expect.stringMatching(/^BAD_OUTPUT/)]);
      expect(messages.join()).not.toContain('SECRET-XYZ-42');
    } finally {
      await plugin.close();
    }
  });
});
