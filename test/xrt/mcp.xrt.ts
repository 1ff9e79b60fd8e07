// MCP both ways on every runtime, through the built ESM: an MCP server process
// (the SDK's server class, run by node) as a tool source under our hooks, and
// our WASM tools served to the SDK's Client, in memory and over Streamable HTTP.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createHost, loadPlugin, scriptedModel } from '../../dist/index.js';
import { createMcpServer, mcpHttpApp, relayModel } from '../../dist/mcp.js';
import type { HostEvent } from '../../dist/index.js';

const fixture = fileURLToPath(new URL('../fixtures/mcp/server.mjs', import.meta.url));
const calcPath = new URL('../../plugins/calc/build/calc.wasm', import.meta.url);
const demo = { demo: { command: 'node', args: [fixture] } };
const text = (r: unknown) => (r as { content: { text: string }[] }).content[0]?.text ?? '';

async function run(turns: { toolCalls?: { name: string; input: Record<string, unknown> }[]; text?: string }[], options: Record<string, unknown> = {}) {
  const host = createHost({ model: scriptedModel({ turns: [...turns, { text: 'done' }] }), permissionMode: 'bypassPermissions', mcpServers: demo, ...options });
  const events: HostEvent[] = [];
  try {
    for await (const e of host.session().stream('go')) events.push(e);
  } finally {
    await host.close();
  }
  return events;
}

export const scenarios: Record<string, () => Promise<void>> = {
  'an MCP server\'s tools run under our hooks (mcp__demo__echo), a guard denies by name': async () => {
    const ok = await run([{ toolCalls: [{ name: 'mcp__demo__echo', input: { text: 'hi' } }] }]);
    const out = ok.find((e) => e.type === 'tool.output');
    assert.ok(out && out.type === 'tool.output' && out.content === 'echo: hi', JSON.stringify(out));
    const denied = await run([{ toolCalls: [{ name: 'mcp__demo__echo', input: { text: 'x' } }] }], {
      hooks: { PreToolUse: [{ matcher: 'mcp__demo__.*', hooks: [async () => ({ decision: 'deny', reason: 'not here' })] }] },
    });
    assert.ok(denied.some((e) => e.type === 'tool.denied' && e.reason === 'not here'));
  },
  'a crashing MCP server gives a typed tool error, never a hang': async () => {
    const events = await run([{ toolCalls: [{ name: 'mcp__demo__crash', input: {} }] }]);
    const out = events.find((e) => e.type === 'tool.output');
    assert.ok(out && out.type === 'tool.output' && out.isError && /MCP_CLOSED/.test(out.content), JSON.stringify(out));
    // mcp.server.error reaches every live session: it names the failure, never the server's stderr
    for (const e of events) if (e.type === 'mcp.server.error') assert.ok(!e.message.includes('crashing now'), e.message);
  },
  'our WASM tool served to the SDK Client (in memory and over HTTP): calc 17*25+3 = 428': async () => {
    const calc = await loadPlugin({ bytes: new Uint8Array(await readFile(calcPath)) });
    const host = createHost({ model: relayModel(), plugins: [calc], permissionMode: 'bypassPermissions' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await createMcpServer(host).connect(a);
    const client = new Client({ name: 'xrt', version: '1' });
    await client.connect(b);
    const served = await mcpHttpApp(host, { port: 0 }).listen();
    const http = new Client({ name: 'xrt', version: '1' });
    try {
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'calc'));
      assert.equal(text(await client.callTool({ name: 'calc', arguments: { expression: '17*25+3' } })), '428');
      await http.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`)));
      assert.equal(text(await http.callTool({ name: 'calc', arguments: { expression: '6*7' } })), '42');
    } finally {
      await client.close();
      await http.close();
      await served.close();
      await calc.close();
    }
  },
};
