// rv12: red11 stopped plugin.health quoting a plugin's words to every live session, but an MCP
// server's failing call was announced the same way: mcp.server.error (and mcp.server.closed) carried
// the server's error text and its stderr tail (what it printed while one session's call ran: many
// servers log their requests) to every session. Now the ambient events say the tool and the code;
// the failing call's own tool result keeps the words. Fails on red11's code.
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { collect } from '../agent/helpers.js';

const fixture = fileURLToPath(new URL('../fixtures/mcp/server.mjs', import.meta.url));
const hosts: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
});

describe('MCP events sent to every session quote no server words of one call (rv12)', () => {
  it('a server that prints and dies mid-call: its stderr is in the tool result only', async () => {
    const host = createHost({
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'mcp__demo__crash', input: {} }] }, { text: 'done' }] }),
      permissionMode: 'bypassPermissions',
      mcpServers: { demo: { command: process.execPath, args: [fixture] } },
    });
    hosts.push(host);
    const events = await collect(host.session(), 'go');
    const output = events.find((e) => e.type === 'tool.output');
    expect(output?.type === 'tool.output' && output.content).toMatch(/crashing now/);
    const ambient = events.filter((e) => e.type.startsWith('mcp.server.'));
    expect(ambient.some((e) => e.type === 'mcp.server.error' || e.type === 'mcp.server.closed')).toBe(true);
    expect(JSON.stringify(ambient)).not.toMatch(/crashing now/);
  }, 30_000);
});
