// Loop conformance on every runtime, through the built ESM: read-only tools
// overlap with hooks in the model's order, sub-agents fire neither
// UserPromptSubmit nor Stop, Claude-style timeouts, message.end text, and a
// burst beyond a subscriber's buffer.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createHost, EventBus, scriptedModel, tool } from '../../dist/index.js';
import type { HookInput, HostEvent } from '../../dist/index.js';

async function collect(stream: AsyncIterable<HostEvent>): Promise<HostEvent[]> {
  const out: HostEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

export const scenarios: Record<string, () => Promise<void>> = {
  'read-only tools overlap; hooks and outputs keep the model\'s order': async () => {
    let inFlight = 0;
    let peak = 0;
    const look = tool('Look', 'sleeps', z.object({ ms: z.number(), tag: z.string() }), async ({ ms, tag }) => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setTimeout(r, ms));
      inFlight--;
      return tag;
    }, { readOnly: true });
    const seen: string[] = [];
    const rec = async (i: HookInput) => (seen.push(`${i.hook_event_name}:${'tool_input' in i ? String(i.tool_input.tag) : ''}`), {});
    const model = scriptedModel([{ toolCalls: ['a', 'b', 'c'].map((tag, i) => ({ name: 'Look', id: `t${i}`, input: { ms: 120 - i * 50, tag } })) }, { text: 'done' }]);
    const host = createHost({ model, tools: [look], permissionMode: 'bypassPermissions', hooks: { PreToolUse: [{ hooks: [rec] }], PostToolUse: [{ hooks: [rec] }] } });
    const events = await collect(host.session().stream('go'));
    assert.equal(peak, 3);
    assert.deepEqual(seen, ['PreToolUse:a', 'PreToolUse:b', 'PreToolUse:c', 'PostToolUse:a', 'PostToolUse:b', 'PostToolUse:c']);
    assert.deepEqual(events.filter((e) => e.type === 'tool.output').map((e) => (e.type === 'tool.output' ? e.content : '')), ['a', 'b', 'c']);
  },
  'a sub-agent fires neither UserPromptSubmit nor Stop; SubagentStop continues it': async () => {
    const read = tool('Read', 'reads', z.object({ file_path: z.string() }), ({ file_path }) => `contents of ${file_path}`);
    const seen: string[] = [];
    let blocked = false;
    const rec = async (i: HookInput) => {
      seen.push(`${i.hook_event_name}${i.agent_id ? '@sub' : ''}`);
      if (i.hook_event_name === 'SubagentStop' && !blocked) return (blocked = true), { decision: 'block' as const, reason: 'again' };
      return {};
    };
    const hooks = Object.fromEntries(['UserPromptSubmit', 'Stop', 'SubagentStart', 'SubagentStop'].map((e) => [e, [{ hooks: [rec] }]]));
    const model = scriptedModel([
      { toolCalls: [{ name: 'agent', id: 'p', input: { subagent_type: 'r', prompt: 'read a' } }] },
      { toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] },
      { text: 'first' },
      { text: 'second' },
      { text: 'done' },
    ]);
    const host = createHost({ model, tools: [read], permissionMode: 'bypassPermissions', agents: { r: { description: 'reads', systemPrompt: 'read' } }, hooks });
    const events = await collect(host.session().stream('go'));
    assert.deepEqual(seen, ['UserPromptSubmit', 'SubagentStart@sub', 'SubagentStop@sub', 'SubagentStop@sub', 'Stop']);
    const out = events.find((e) => e.type === 'tool.output' && e.name === 'agent');
    assert.ok(out && out.type === 'tool.output' && out.content === 'second', JSON.stringify(out));
  },
  'matcher timeout in seconds; message.end has the text': async () => {
    const slow = () => new Promise<Record<string, never>>((r) => setTimeout(() => r({}), 300));
    const model = scriptedModel([{ text: 'Hi there', toolCalls: [{ name: 'Nope', input: {} }] }, { text: 'done' }]);
    const host = createHost({ model, permissionMode: 'bypassPermissions', hooks: { PreToolUse: [{ timeout: 0.05, hooks: [slow] }] } });
    const events = await collect(host.session().stream('go'));
    const end = events.find((e) => e.type === 'hook.end');
    assert.ok(end && end.type === 'hook.end' && end.failure?.code === 'TIMEOUT' && end.decision === 'deny', JSON.stringify(end));
    assert.deepEqual(events.filter((e) => e.type === 'message.end').map((e) => (e.type === 'message.end' ? e.text : '')), ['Hi there', 'done']);
  },
  'a synchronous burst beyond the buffer loses nothing for a subscriber that keeps up': async () => {
    const bus = new EventBus();
    const got: number[] = [];
    bus.subscribe((e) => void got.push(e.seq), { buffer: 8 });
    for (let seq = 1; seq <= 5000; seq++) bus.publish({ type: 'text.delta', text: 'x', seq, sessionId: 's', time: 0 });
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(got.length, 5000);
    assert.equal(got[4999], 5000);
  },
};
