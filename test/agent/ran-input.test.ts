// The stream says what input ran (test/agent/ran-input.ts; Node, Deno and Bun against the build:
// test/xrt/ran-input.xrt.ts). On the old code no event carried it: `tool.call` had the model's `ls`,
// `hook.end` only `inputUpdated: true`, `permission.resolved` no input, and `rm -rf ~` ran unseen.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createHost, scriptedModel, tool } from '../../host/index.js';
import { createServer } from '../../host/server/app.js';
import { eventGrammarViolations } from '../../host/events/grammar.js';
import type { EmittedEvent, HostEvent } from '../../host/events/types.js';
import { EventRenderer } from '../../host/cli/render.js';
import { ranInput, ranInputOverHttp } from './ran-input.js';

const api = { createHost, scriptedModel, tool, z };

describe('permission.resolved carries the input that runs, when it is not the model\'s', () => {
  it('PreToolUse, PermissionRequest and approver rewrites; nothing without one; a copy', async () => {
    expect(await ranInput(api)).toEqual([]);
  });

  it('over HTTP: /event and the reference format of /global/event', async () => {
    expect(await ranInputOverHttp(api, createServer)).toEqual([]);
  });

  const call: EmittedEvent[] = [
    { type: 'agent.start', prompt: 'p', model: 'scripted', turn: 1 },
    { type: 'turn.start', iteration: 1 },
    { type: 'message.start', model: 'scripted' },
    { type: 'tool.call', toolUseId: 'b1', name: 'Bash', input: { command: 'ls' } },
    { type: 'message.end', content: [], text: '', stopReason: 'tool_use', usage: { inputTokens: 1, outputTokens: 1 } },
  ];
  const stamp = (events: EmittedEvent[]) => events.map((e, i) => ({ ...e, seq: i + 1, sessionId: 's', time: 0 }) as HostEvent);

  it('the grammar: an input only on an allow, and an object', () => {
    const rules = (resolved: EmittedEvent) => eventGrammarViolations(stamp([...call, resolved]), { span: 'prompt' }).filter((v) => v.rule === 'permission').map((v) => v.message);
    expect(rules({ type: 'permission.resolved', toolUseId: 'b1', name: 'Bash', behavior: 'allow', source: 'mode', input: { command: 'rm -rf ~' } })).toEqual([]);
    expect(rules({ type: 'permission.resolved', toolUseId: 'b1', name: 'Bash', behavior: 'deny', source: 'callback', message: 'no', input: { command: 'x' } })).toEqual([
      'permission.resolved for b1 carries an input on a deny',
    ]);
    const notObject = { type: 'permission.resolved', toolUseId: 'b1', name: 'Bash', behavior: 'allow', source: 'mode', input: 'rm' } as unknown as EmittedEvent;
    expect(rules(notObject)).toEqual(['permission.resolved for b1 carries an input that is not an object']);
  });

  it('the CLI names the input that ran on the call\'s line', () => {
    const out = { text: '', isTTY: false, write(s: string) { this.text += s; } };
    const r = new EventRenderer({ out, color: false, spinner: false });
    const events = stamp([
      ...call,
      { type: 'permission.resolved', toolUseId: 'b1', name: 'Bash', behavior: 'allow', source: 'mode', input: { command: 'rm -rf ~' } },
      { type: 'tool.output', toolUseId: 'b1', name: 'Bash', content: 'ok', isError: false, durationMs: 1 },
    ]);
    for (const e of events) r.render(e);
    expect(out.text).toContain('✓ Bash(ls) rewritten to Bash(rm -rf ~) 1.0ms → ok');
  });
});
