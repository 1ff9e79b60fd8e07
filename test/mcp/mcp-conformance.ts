// MCP conformance (conf3), written against an `Api` (the sources under vitest: mcp-conformance.test.ts;
// dist/ under Node, Deno and Bun: test/xrt/conf3.xrt.ts), so only type imports from host/ here.
// - Our client against a server written straight on JSON-RPC (test/fixtures/mcp/raw-server.mjs), not
//   the SDK's own server: a paged tools/list with a string cursor, an older protocol version, one it
//   cannot speak, a notification kind it does not know, a ping from the server, every content type,
//   structuredContent alone, a legacy `toolResult`, isError, a JSON-RPC error, progress.
// - Our server against the SDK's Client and raw JSON-RPC: progress that increases (the spec's MUST),
//   version negotiation, request ids of both types, a call cancelled by notifications/cancelled.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { createHost as CreateHost, scriptedModel as ScriptedModel, HostEvent, ToolHandler } from '../../host/index.js';
import type { createMcpServer as CreateMcpServer, relayModel as RelayModel } from '../../host/entries/mcp.js';

export interface Api {
  createHost: typeof CreateHost;
  scriptedModel: typeof ScriptedModel;
  createMcpServer: typeof CreateMcpServer;
  relayModel: typeof RelayModel;
}

const raw = fileURLToPath(new URL('../fixtures/mcp/raw-server.mjs', import.meta.url));

/** One prompt calling each named tool of the raw server (in one batch); its events. */
export async function rawClientRun(api: Api, tools: string[], args: string[] = []): Promise<HostEvent[]> {
  const host = api.createHost({
    model: api.scriptedModel({ turns: [{ toolCalls: tools.map((t) => ({ name: `mcp__raw__${t}`, input: {} })) }, { text: 'done' }] }),
    permissionMode: 'bypassPermissions',
    mcpServers: { raw: { command: 'node', args: [raw, ...args], startTimeoutMs: 20_000 } },
  });
  const events: HostEvent[] = [];
  try {
    for await (const e of host.session().stream('go')) events.push(e);
  } finally {
    await host.close();
  }
  return events;
}

/** What each call of `rawClientRun` gave the model, by tool: `content` (isError). */
export function outputsByTool(events: HostEvent[]): Record<string, string> {
  const names = new Map<string, string>();
  const out: Record<string, string> = {};
  for (const e of events) {
    if (e.type === 'tool.call') names.set(e.toolUseId, e.name.replace('mcp__raw__', ''));
    if (e.type === 'tool.output') out[names.get(e.toolUseId) ?? e.toolUseId] = `${e.content}${e.isError ? ' (isError)' : ''}`;
    if (e.type === 'tool.denied') out[names.get(e.toolUseId) ?? e.toolUseId] = `denied: ${e.reason}`;
  }
  return out;
}

export const RAW_EXPECTED: Record<string, string> = {
  first: '',
  mixed: 'one\n[image: image/png]\n[audio: audio/wav]\nembedded text\n[resource: file:///blob.bin]\n[resource link: file:///linked.md]',
  structured: '{"temperature":21.5}',
  legacy: '{"answer":42}',
  fails: 'disk on fire (isError)',
  progress: 'progress token given',
};

/** A host serving one JS tool that reports progress three times, over MCP in memory; `send` writes raw JSON-RPC. */
async function servedHost(api: Api) {
  const steps: ToolHandler = {
    name: 'steps',
    description: 'Reports progress three times',
    inputSchema: { type: 'object', properties: {} },
    kind: 'js',
    run: async (_input, ctx) => {
      for (const p of ['a', 'b', 'c']) {
        ctx.onProgress(p);
        await new Promise((r) => setTimeout(r, 5));
      }
      return { content: 'stepped', isError: false };
    },
  };
  const seen: string[] = [];
  const waits: ToolHandler = {
    name: 'waits',
    description: 'Waits until its call is cancelled',
    inputSchema: { type: 'object', properties: {} },
    kind: 'js',
    run: (_input, ctx) =>
      new Promise((resolve) => {
        seen.push('started');
        ctx.signal.addEventListener('abort', () => {
          seen.push('aborted');
          resolve({ content: 'cancelled', isError: true });
        });
      }),
  };
  const host = api.createHost({ model: api.relayModel(), tools: [steps, waits], allowedTools: ['steps', 'waits'], permissionMode: 'bypassPermissions' });
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await api.createMcpServer(host).connect(ours);
  return { host, theirs, seen };
}

/** The SDK's Client cancels a running call (notifications/cancelled): what the tool saw, in order. */
export async function cancelSeen(api: Api): Promise<string[]> {
  const { host, theirs, seen } = await servedHost(api);
  const client = new Client({ name: 'conf3', version: '1' });
  try {
    await client.connect(theirs);
    const abort = new AbortController();
    const call = client.callTool({ name: 'waits', arguments: {} }, undefined, { signal: abort.signal }).then(() => 'client: answered', () => 'client: rejected');
    for (let i = 0; i < 200 && !seen.includes('started'); i++) await new Promise((r) => setTimeout(r, 10));
    abort.abort();
    seen.push(String(await call));
    for (let i = 0; i < 200 && !seen.includes('aborted'); i++) await new Promise((r) => setTimeout(r, 10));
    return seen;
  } finally {
    await client.close();
    await host.close();
  }
}

/** The SDK's Client calls `steps` with a progress handler: the progress values it saw, and the result text. */
export async function progressSeen(api: Api): Promise<{ progress: number[]; messages: string[]; text: string }> {
  const { host, theirs } = await servedHost(api);
  const client = new Client({ name: 'conf3', version: '1' });
  try {
    await client.connect(theirs);
    const progress: number[] = [];
    const messages: string[] = [];
    const result = await client.callTool({ name: 'steps', arguments: {} }, undefined, {
      onprogress: (p) => {
        progress.push(p.progress);
        messages.push(p.message ?? '');
      },
    });
    const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
    return { progress, messages, text };
  } finally {
    await client.close();
    await host.close();
  }
}

/** Raw JSON-RPC to our server: initialize asking for `version`, tools/list under a string id and a number id, then with a cursor it never gave. */
export async function rawServerExchange(api: Api, version: string): Promise<{ negotiated: unknown; ids: unknown[]; listed: unknown[]; badCursor: unknown }> {
  const { host, theirs } = await servedHost(api);
  const replies: Array<{ id?: unknown; result?: Record<string, unknown> }> = [];
  const waiters: Array<() => void> = [];
  theirs.onmessage = (m) => {
    replies.push(m as (typeof replies)[number]);
    waiters.shift()?.();
  };
  await theirs.start();
  const ask = async (message: Record<string, unknown>) => {
    const got = new Promise<void>((r) => waiters.push(r));
    await theirs.send({ jsonrpc: '2.0', ...message } as never);
    await got;
  };
  try {
    await ask({ id: 'init-α', method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await theirs.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as never);
    await ask({ id: 'list-1', method: 'tools/list', params: {} });
    await ask({ id: 0, method: 'tools/list' });
    await ask({ id: -1, method: 'tools/list', params: { cursor: 'made-up' } });
    return {
      negotiated: replies[0]?.result?.protocolVersion,
      ids: replies.map((r) => r.id),
      listed: replies.slice(1, 3).map((r) => (r.result?.tools as Array<{ name: string }> | undefined)?.map((t) => t.name)),
      badCursor: (replies[3] as { error?: { code?: number } } | undefined)?.error?.code,
    };
  } finally {
    await theirs.close();
    await host.close();
  }
}

export { LATEST_PROTOCOL_VERSION };
