// hk4: our MCP server ran every tools/call it was sent at once: a JSON-RPC batch of 100 calls (the SDK's
// batch limit) ran 100 tools, and N requests N batches. Calls now take turns: at most maxConcurrentCalls
// (default 8) run, 256 more wait (giving their place up when the client leaves), past that a call is a
// JSON-RPC error at once. Over HTTP the turns belong to the endpoint, shared by its requests.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHost } from '../../host/host.js';
import { mcpHttpApp } from '../../host/mcp/http.js';
import { createMcpServer, relayModel } from '../../host/mcp/server.js';
import { tool } from '../../host/tools/define.js';

const closers: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c.close().catch(() => {});
});

/** A tool that counts how many of it run at once; each holds until `open` resolves (or `ms` passes). */
function counted(ms: number) {
  const state = { now: 0, most: 0, runs: 0 };
  let opened!: () => void;
  const open = new Promise<void>((r) => (opened = r));
  const slow = tool('slow', 'holds a while', z.object({}), async () => {
    state.now++;
    state.runs++;
    state.most = Math.max(state.most, state.now);
    await Promise.race([open, new Promise((r) => setTimeout(r, ms))]);
    state.now--;
    return 'done';
  });
  return { state, opened, host: createHost({ model: relayModel(), tools: [slow], permissionMode: 'bypassPermissions' }) };
}

describe('MCP tool calls take turns', () => {
  it('a JSON-RPC batch of 40 calls over HTTP runs at most 8 at once, every call answered', async () => {
    const { state, host } = counted(60);
    const served = await mcpHttpApp(host, { port: 0 }).listen();
    closers.push(served);
    const batch = Array.from({ length: 40 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'slow', arguments: {} } }));
    const res = await fetch(`${served.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-03-26' },
      body: JSON.stringify(batch),
    });
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { id: number; result?: { content: { text: string }[] } }[];
    expect(answers).toHaveLength(40);
    expect(answers.every((a) => a.result?.content[0]?.text === 'done')).toBe(true);
    expect(state.runs).toBe(40);
    expect(state.most).toBe(8);
  });

  it('maxConcurrentCalls bounds a client sending calls without waiting; past 256 waiting a call is refused', async () => {
    const { state, opened, host } = counted(60_000);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await createMcpServer(host, { maxConcurrentCalls: 2 }).connect(a);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(b);
    closers.push(client);
    const calls = Array.from({ length: 260 }, () => client.callTool({ name: 'slow', arguments: {} }, undefined, { timeout: 30_000 }).then((r) => r, (e: Error) => e));
    await new Promise((r) => setTimeout(r, 300));
    expect(state.now).toBe(2);
    opened();
    const results = await Promise.all(calls);
    const refused = results.filter((r) => r instanceof Error) as Error[];
    expect(refused).toHaveLength(2);
    expect(refused[0]!.message).toMatch(/2 tool calls are running and 256 are waiting \(maxConcurrentCalls\); retry shortly/);
    expect(state.runs).toBe(258);
    expect(state.most).toBe(2);
  });

  it('refuses a maxConcurrentCalls that is no whole number from 1 to 1024', () => {
    const { host } = counted(1);
    expect(() => mcpHttpApp(host, { maxConcurrentCalls: 0 })).toThrow(/maxConcurrentCalls must be a whole number from 1 to 1024, not 0/);
    expect(() => createMcpServer(host, { maxConcurrentCalls: 2.5 })).toThrow(/INVALID_OPTIONS|maxConcurrentCalls/);
  });
});

describe('wasmhooks mcp --max-concurrent-calls', () => {
  it('reaches the server: a value past 1024 is refused naming the option', async () => {
    const { cli } = await import('../cli/helpers.js');
    const r = await cli(['mcp', '--max-concurrent-calls', '2000']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/maxConcurrentCalls must be a whole number from 1 to 1024, not 2000/);
  });
});
