// Red review (red17): a tool name is any string a server likes. One skipped for its length was quoted whole,
// twice, in an mcp.server.error to every live session (and its replay log), again at every list_changed.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { collect, ofType } from '../agent/helpers.js';

const fixture = fileURLToPath(new URL('../fixtures/mcp/hostile.mjs', import.meta.url));

describe('a server\'s tool names in events (red17)', () => {
  it('a million-character name is skipped with an event that quotes 80 characters of it and its length', async () => {
    const host = createHost({ model: scriptedModel({ turns: [{ text: 'done' }] }), mcpServers: { l: { command: process.execPath, args: [fixture, 'longname'] } } });
    try {
      const events = await collect(host.session(), 'go');
      const error = ofType(events, 'mcp.server.error')[0];
      expect(error?.code).toBe('MCP_PROTOCOL');
      // Before: 2,000,000+ characters.
      expect(error?.message.length).toBeLessThan(300);
      expect(error?.message).toMatch(/^tool "n{80}…" \(1000000 characters\) is skipped: mcp__l__<its name> is longer than 64 characters$/);
      expect(ofType(events, 'mcp.server.connected')[0]?.tools).toEqual(['mcp__l__ok']);
    } finally {
      await host.close();
    }
  }, 30_000);
});
