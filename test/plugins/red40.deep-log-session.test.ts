// red40, through a real agent session: a plugin tool that recurses to just short of the stack limit
// and logs there. Its lines went, inside the host call, through the session's whole listener chain
// (the tool's sink, the progress gate, the session's emit, the event bus): on the few KB left the
// chain threw a RangeError that was swallowed, so the session's watchers missed lines, and the bus
// could be left frozen, after which a subscriber (the prompt's own stream among them) heard nothing
// more, not even the prompt's end. Lines are now delivered after the call, off the plugin's stack.
// Fails on the old code (lines missing at the deepest depths, then a session whose stream never ends).
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { loadPlugin } from '../../host/plugins/index.js';
import type { HostEvent } from '../../host/events/types.js';
import { probeDeep, unheard, type DeepCall } from '../fixtures/deep-log.js';
import { hostile } from '../xrt/wat.ts';

describe('a plugin tool that logs just short of the stack limit, in a session (red40)', () => {
  it('every line reaches the session\'s subscriber and its stream, in order, and so does every later event', async () => {
    const plugin = await loadPlugin({ bytes: await hostile('deep-log') }, { isolation: 'in-thread', limits: { timeoutMs: 10_000 } });
    let depth = 0;
    const model = scriptedModel({
      rules: [
        // The tool recurses as deep as its input has "~" (deep-log.wat).
        { when: { lastUser: 'go' }, reply: () => ({ toolCalls: [{ name: 'Deep', input: { pad: '~'.repeat(depth) } }] }) },
        { when: { lastToolName: 'Deep' }, reply: { text: 'done' } },
      ],
    });
    const host = createHost({ model, plugins: [plugin], permissionMode: 'bypassPermissions' });
    const session = host.session({ sessionId: 'deep' });
    // A subscriber of the session's own, besides each prompt's stream.
    const seen: HostEvent[] = [];
    session.subscribe((e) => void seen.push(e));
    let prompts = 0;
    try {
      const call: DeepCall = async (d) => {
        depth = d;
        prompts++;
        const events: HostEvent[] = [];
        for await (const e of session.stream('go')) events.push(e);
        const output = events.find((e) => e.type === 'tool.output');
        const content = output?.type === 'tool.output' ? output.content : 'no tool.output';
        const code = output?.type === 'tool.output' && !output.isError ? 'ok' : /STACK_OVERFLOW/.test(content) ? 'STACK_OVERFLOW' : content;
        return { code, heard: events.flatMap((e) => (e.type === 'plugin.log' ? [e.message] : [])) };
      };
      const probes = await probeDeep(call);
      expect(probes.some((p) => p.code === 'STACK_OVERFLOW')).toBe(true);
      expect(unheard(probes)).toEqual([]);
      // The session's subscriber heard every line its streams did, and the end of every prompt.
      await new Promise((r) => setTimeout(r, 0));
      const lines = seen.flatMap((e) => (e.type === 'plugin.log' ? [e.message] : []));
      expect(lines).toEqual(probes.flatMap((p) => p.heard));
      expect(seen.filter((e) => e.type === 'agent.end')).toHaveLength(prompts);
    } finally {
      await plugin.close();
    }
  }, 120_000);
});
