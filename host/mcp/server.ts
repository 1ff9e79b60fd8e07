/**
 * The host's tools served over MCP: WASM tool plugins (and any other tool in
 * the registry) to any MCP client, with every loaded guard applied around
 * every call. Each `tools/call` runs as a one-call session of the ordinary
 * agent loop, driven by `relayModel()`, so PreToolUse, permission rules,
 * PostToolUse rewrites, limits and failure policies are exactly the loop's:
 * there is no second tool-call pipeline to drift from it.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Session } from '../agent/session.js';
import type { Model, ModelEvent } from '../models/types.js';
import type { ToolDefinition } from '../models/types.js';
import { WasmhooksError } from '../errors.js';
import { Turns } from '../turns.js';
import { nestsDeeper, tooDeep } from '../json.js';
import { resultOf } from './result.js';

/** What the MCP server needs of a host (a `Host` built with `model: relayModel()`). */
export interface McpToolHost {
  readonly tools: { definitions(): ToolDefinition[] };
  session(): Session;
  /** Starts lazily started tool sources (the host's own MCP servers) before a listing. */
  ready?(): Promise<void>;
}

interface RelayedCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

const ZERO = { inputTokens: 0, outputTokens: 0 };

/**
 * A model that makes exactly the tool call its prompt names (JSON
 * `{ id, name, input }`, written by the MCP server) and then ends the turn.
 * Hooks on UserPromptSubmit see that JSON as the prompt.
 */
export function relayModel(): Model {
  return {
    id: 'mcp-relay',
    async *stream(request): AsyncIterable<ModelEvent> {
      yield { type: 'message.start', model: 'mcp-relay' };
      const first = request.messages[0];
      if (first?.role === 'user' && !request.messages.some((m) => m.role === 'assistant')) {
        const call = JSON.parse(first.content) as RelayedCall;
        yield { type: 'tool.call', id: call.id, name: call.name, input: call.input };
        yield { type: 'message.end', stopReason: 'tool_use', usage: ZERO };
        return;
      }
      yield { type: 'message.end', stopReason: 'end_turn', usage: ZERO };
    },
  };
}

let calls = 0;

/**
 * `tools/call`s run at once by one server (over HTTP: by the whole endpoint), as the loop's `maxParallelTools`
 * default. Each is a session of the agent loop with its tool running: a JSON-RPC batch of 100 calls (the SDK's
 * limit) ran 100 tools at once, and N requests N batches.
 */
export const DEFAULT_MCP_CONCURRENT_CALLS = 8;
/** Calls waiting for a turn behind them; past it a call is refused at once (a JSON-RPC error), never queued without end. */
const MCP_CALLS_WAITING = 256;

/** The turns tool calls take (one per stdio server; one per HTTP endpoint, shared by its requests). */
export function mcpCallTurns(maxConcurrentCalls?: number): Turns {
  const running = maxConcurrentCalls ?? DEFAULT_MCP_CONCURRENT_CALLS;
  if (!Number.isInteger(running) || running < 1 || running > 1024) {
    throw new WasmhooksError('INVALID_OPTIONS', `maxConcurrentCalls must be a whole number from 1 to 1024, not ${String(running)}`);
  }
  return new Turns(running, MCP_CALLS_WAITING, () => new McpError(ErrorCode.InternalError, `${running} tool calls are running and ${MCP_CALLS_WAITING} are waiting (maxConcurrentCalls); retry shortly`));
}

export interface McpServerOptions {
  name?: string;
  version?: string;
  /** Tool calls run at once (default `DEFAULT_MCP_CONCURRENT_CALLS`, 8); more wait their turn. */
  maxConcurrentCalls?: number;
}

/**
 * @example
 * const host = createHost({ model: relayModel(), plugins: [calc, guard], permissionMode: 'bypassPermissions' });
 * await createMcpServer(host).connect(new StdioServerTransport());
 */
export function createMcpServer(host: McpToolHost, info: McpServerOptions = {}, turns: Turns = mcpCallTurns(info.maxConcurrentCalls)): Server {
  const server = new Server({ name: info.name ?? 'wasmhooks', version: info.version ?? '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    // One page, no nextCursor: any cursor is one we never gave ("invalid cursors SHOULD" be -32602).
    if (request.params?.cursor !== undefined) throw new McpError(ErrorCode.InvalidParams, 'unknown cursor: this server lists every tool in one page');
    await host.ready?.();
    const tools = host.tools.definitions().map((d) => ({
      name: d.name,
      description: d.description,
      inputSchema: { type: 'object' as const, ...d.inputSchema },
    }));
    return { tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // The SDK parsed the request at any depth; the relayed call is written out as JSON below.
    if (nestsDeeper(request.params.arguments)) return resultOf({ content: `the call did not run: ${tooDeep('its arguments object')}`, isError: true });
    const release = await turns.take(extra.signal);
    const call: RelayedCall = { id: `mcp_call_${++calls}`, name: request.params.name, input: request.params.arguments ?? {} };
    const token = request.params._meta?.progressToken;
    const session = host.session();
    let result: CallToolResult | undefined;
    // Whether the model made the relayed call: a host built with another model answers the prompt in words, and
    // "did not run (success)" would hide why.
    let made = false;
    // The spec: "the progress value MUST increase with each notification"; the tool's text is the message.
    let step = 0;
    try {
      for await (const e of session.stream(JSON.stringify(call), { signal: extra.signal })) {
        if (e.type === 'tool.call' && e.toolUseId === call.id) made = true;
        else if (e.type === 'tool.output' && e.toolUseId === call.id) result = resultOf(e);
        else if (e.type === 'tool.denied' && e.toolUseId === call.id) result = resultOf({ content: `denied (${e.source}): ${e.reason}`, isError: true });
        else if (e.type === 'tool.progress' && e.toolUseId === call.id && token !== undefined) {
          void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++step, message: e.progress } }).catch(() => {});
        } else if (e.type === 'agent.end' && !result && !made && e.result.subtype === 'success') {
          result = resultOf({ content: `the call did not run: the host's model did not make it (an MCP server's host is built with model: relayModel())`, isError: true });
        } else if (e.type === 'agent.end' && !result) {
          result = resultOf({ content: `the call did not run (${e.result.subtype}${e.result.error ? `: ${e.result.error.message}` : ''})`, isError: true });
        }
      }
    } finally {
      release();
      await session.close();
    }
    return result ?? resultOf({ content: 'the call did not run', isError: true });
  });
  return server;
}
