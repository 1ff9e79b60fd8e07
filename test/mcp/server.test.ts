// Our tools served over MCP, driven by the SDK's own Client: in memory, over
// stdio through the real `wasmhooks mcp` process, and over Streamable HTTP.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { mcpHttpApp } from '../../host/mcp/http.js';
import { createMcpServer, relayModel } from '../../host/mcp/server.js';
import { loadPlugin } from '../../host/plugins/load.js';
import { PROTOCOL_VERSION, eventToWire } from '../../host/protocol/codec.js';
import { encodePluginInfo } from '../../host/protocol/pb-codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { cannedPlugin } from '../fixtures/canned.js';
import { builtPlugin } from '../plugins-firstparty/wasm.js';
import { cli, cliBundle } from '../cli/helpers.js';

const fixture = fileURLToPath(new URL('../fixtures/mcp/server.mjs', import.meta.url));

/** A WASM guard denying whatever `matcher` matches (fixed protocol bytes). */
export const denyGuard = (matcher: string, reason: string) =>
  cannedPlugin({
    describe: encodePluginInfo({ name: 'deny-guard', version: '1.0.0', protocolVersion: PROTOCOL_VERSION, hooks: [{ event: eventToWire('PreToolUse'), matcher }] }),
    hook: wasmhooks.v1.HookResponse.encode({ decision: wasmhooks.v1.Decision.DECISION_DENY, reason }).finish(),
  });

const text = (r: unknown) => ((r as { content: { text: string }[] }).content[0]?.text ?? '');
const closers: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c.close().catch(() => {});
});

async function inMemory(guardMatcher?: string) {
  const calc = await loadPlugin({ path: builtPlugin('calc') });
  const guard = guardMatcher ? await loadPlugin({ bytes: denyGuard(guardMatcher, 'calc is off limits here') }) : undefined;
  closers.push(calc, ...(guard ? [guard] : []));
  const host = createHost({ model: relayModel(), plugins: guard ? [calc, guard] : [calc], permissionMode: 'bypassPermissions' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer(host).connect(a);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
  closers.push(client);
  return client;
}

describe('MCP server (our tools to MCP clients)', () => {
  it('lists and calls a WASM tool plugin', async () => {
    const client = await inMemory();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('calc');
    expect(tools.find((t) => t.name === 'calc')?.inputSchema.type).toBe('object');
    const r = await client.callTool({ name: 'calc', arguments: { expression: '17*25+3' } });
    expect(r.isError).toBe(false);
    expect(text(r)).toBe('428');
  });

  it('a guard plugin\'s deny comes back as a tool error; bad input and unknown tools too', async () => {
    const client = await inMemory('calc');
    const denied = await client.callTool({ name: 'calc', arguments: { expression: '1+1' } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain('calc is off limits here');
    const open = await inMemory();
    const bad = await open.callTool({ name: 'calc', arguments: { nope: 1 } });
    expect(bad.isError).toBe(true);
    const unknown = await open.callTool({ name: 'rm', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/no tool named "rm"/);
  });

  it('`wasmhooks mcp` over stdio: plugins, the config\'s MCP servers proxied, guards applied', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-mcp-'));
    await writeFile(join(dir, 'guard.wasm'), denyGuard('mcp__demo__.*', 'no demo tools'));
    await writeFile(
      join(dir, 'wasmhooks.json'),
      JSON.stringify({
        plugins: [{ path: builtPlugin('calc') }, { path: 'guard.wasm' }],
        mcpServers: { demo: { command: process.execPath, args: [fixture] } },
      }),
    );
    // The config starts an MCP server's command: it needs the user's trust first (test/cli/rv14.trust.test.ts).
    const env = { WASMHOOKS_CONFIG_DIR: join(dir, '.user-config') };
    expect((await cli(['trust'], { cwd: dir, env })).code).toBe(0);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--disable-warning=ExperimentalWarning', await cliBundle(), 'mcp'],
      cwd: dir,
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    closers.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['calc', 'mcp__demo__echo']));
    const calc = await client.callTool({ name: 'calc', arguments: { expression: '17*25+3' } });
    expect(text(calc)).toBe('428');
    const denied = await client.callTool({ name: 'mcp__demo__echo', arguments: { text: 'hi' } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain('no demo tools');
  });

  it('Streamable HTTP on loopback, with the Host and token rules', async () => {
    const calc = await loadPlugin({ path: builtPlugin('calc') });
    closers.push(calc);
    const host = createHost({ model: relayModel(), plugins: [calc], permissionMode: 'bypassPermissions' });
    const token = 'a-very-long-test-token-123';
    const served = await mcpHttpApp(host, { port: 0, token }).listen();
    closers.push(served);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    closers.push(client);
    expect(text(await client.callTool({ name: 'calc', arguments: { expression: '2*21' } }))).toBe('42');
    const noToken = await fetch(`${served.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(noToken.status).toBe(401);
    const rebinding = await mcpHttpApp(host, { port: 0 }).app.request('/mcp', { method: 'POST', headers: { host: 'evil.example:4097' } });
    expect(rebinding.status).toBe(403);
    const foreign = await mcpHttpApp(host, { port: 0 }).app.request('/mcp', { method: 'POST', headers: { host: '127.0.0.1:4097', origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(() => mcpHttpApp(host, { hostname: '0.0.0.0' })).toThrow(/token/);
  });
});
