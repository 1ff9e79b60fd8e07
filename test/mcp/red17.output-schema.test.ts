// Red review (red17): a tool's outputSchema is a stranger's, as its inputSchema is. The SDK's Ajv ran its
// patterns as JavaScript RegExps on the server's structuredContent (backtracking: the event loop held for
// seconds), and one output schema Ajv could not read failed the whole listing (the server did not start).
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { collect, ofType } from '../agent/helpers.js';

const fixture = fileURLToPath(new URL('../fixtures/mcp/hostile.mjs', import.meta.url));
const hosts: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
});

function host(tool: string, env: Record<string, string> = {}) {
  const h = createHost({
    model: scriptedModel({ turns: [{ toolCalls: [{ name: `mcp__o__${tool}`, input: {} }] }, { text: 'done' }] }),
    permissionMode: 'bypassPermissions',
    mcpServers: { o: { command: process.execPath, args: [fixture, 'outschema'], env } },
  });
  hosts.push(h);
  return h;
}

describe('MCP output schemas (red17)', () => {
  it('a backtracking outputSchema pattern cannot hold the event loop: structuredContent is checked on RE2', async () => {
    let longest = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      longest = Math.max(longest, performance.now() - last);
      last = performance.now();
    }, 10);
    const events = await collect(host('shape').session(), 'go');
    clearInterval(tick);
    const out = ofType(events, 'tool.output')[0];
    // The content does not match the schema (the '!'): a typed tool error naming why, as before, but found in µs.
    expect(out).toMatchObject({ name: 'mcp__o__shape', isError: true });
    expect(out?.content).toMatch(/MCP_ERROR.*output schema/);
    // Before: Ajv's RegExp took ~10 s on 28 a's, the event loop held the whole time.
    expect(longest).toBeLessThan(2_000);
  }, 60_000);

  it('matching structuredContent passes; an output schema nobody can read no longer fails the server\'s start', async () => {
    const events = await collect(host('odd', { ODD: '1' }).session(), 'go');
    expect(ofType(events, 'mcp.server.error')).toEqual([]);
    expect(ofType(events, 'mcp.server.connected')[0]?.tools).toEqual(['mcp__o__shape', 'mcp__o__odd']);
    expect(ofType(events, 'tool.output')[0]).toMatchObject({ name: 'mcp__o__odd', isError: false, content: 'shaped' });
  }, 30_000);
});
