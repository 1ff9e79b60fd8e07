// Red review (red17): a stdio MCP server that stops reading its stdin while it floods the host with requests
// (pings). Each answer of ours was buffered for ever, and each request's handler state held until the answer
// drained: memory grew by hundreds of MB a second for the whole call's timeout, then on.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { collect, ofType } from '../agent/helpers.js';

const fixture = fileURLToPath(new URL('../fixtures/mcp/hostile.mjs', import.meta.url));

describe('a stdio MCP server that does not read (red17)', () => {
  it('is stopped once 1 MiB of ours is unread: its call fails at once, with a typed event saying why', async () => {
    const host = createHost({
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'mcp__p__flood', input: {} }] }, { text: 'done' }] }),
      permissionMode: 'bypassPermissions',
      mcpServers: { p: { command: process.execPath, args: [fixture, 'pingflood'], timeoutMs: 20_000 } },
    });
    try {
      const started = performance.now();
      const events = await collect(host.session(), 'go');
      const out = ofType(events, 'tool.output')[0];
      expect(out).toMatchObject({ name: 'mcp__p__flood', isError: true });
      expect(out?.content).toMatch(/MCP_CLOSED/);
      expect(ofType(events, 'mcp.server.error').find((e) => e.code === 'MCP_PROTOCOL')?.message).toMatch(/not reading what the host sends \(over 1048576 bytes unread while it sends requests\)/);
      // Before: the call waited its whole timeoutMs (MCP_TIMEOUT) while the host's memory grew.
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      await host.close();
    }
  }, 40_000);
});
