// Red review (red17): what a server may ask of the host. No client capability is offered, so sampling (the
// user's model and key), elicitation (a question that could pose as a permission prompt) and roots (the
// user's paths) are each "method not found", and the call goes on.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { collect, ofType } from '../agent/helpers.js';

const fixture = fileURLToPath(new URL('../fixtures/mcp/hostile.mjs', import.meta.url));

describe('requests from an MCP server to the host (red17)', () => {
  it('sampling/createMessage, elicitation/create and roots/list are refused (-32601); no model call, no question', async () => {
    let modelCalls = 0;
    const model = scriptedModel({ turns: [{ toolCalls: [{ name: 'mcp__a__ask', input: {} }] }, { text: 'done' }] });
    const counted = { ...model, stream: (r: Parameters<typeof model.stream>[0]) => (modelCalls++, model.stream(r)) };
    const asked: string[] = [];
    const host = createHost({ model: counted, canUseTool: async (name) => (asked.push(name), { behavior: 'allow' }), mcpServers: { a: { command: process.execPath, args: [fixture, 'asks'] } } });
    try {
      const events = await collect(host.session(), 'go');
      const out = ofType(events, 'tool.output')[0]?.content ?? '';
      for (const id of ['ask-sampling', 'ask-elicit', 'ask-roots']) expect(out).toMatch(new RegExp(`${id}: \\{"code":-32601`));
      expect(out).not.toMatch(/\/work|\/tmp|file:/);
      expect(modelCalls).toBe(2);
      expect(asked).toEqual(['mcp__a__ask']);
    } finally {
      await host.close();
    }
  }, 30_000);
});
