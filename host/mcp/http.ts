/**
 * The MCP server over Streamable HTTP (stateless: one MCP server object per
 * request), as a hono app behind the control plane's own guards
 * (server/stack.ts): loopback unless a token is set, the bearer token on
 * every request, this machine's Host and no foreign Origin on loopback (DNS
 * rebinding), no request embedded by another site (fetch metadata), POSTs
 * that say `application/json` in UTF-8 (the SDK checks the media type, not
 * the charset), bodies read one way (UTF-8, unique keys, bounded depth), a
 * body limit and deadline, and the security headers on every answer.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Hono } from 'hono';
import type { Served } from '../runtime/serve.js';
import { ApiError } from '../server/errors.js';
import { appFetch, listenApp } from '../server/listen.js';
import { resolveServerOptions, type ServerOptions } from '../server/options.js';
import { guardedApp } from '../server/stack.js';
import { bodyJson } from '../server/validate.js';
import { createMcpServer, mcpCallTurns, type McpServerOptions, type McpToolHost } from './server.js';

export type McpHttpOptions = Pick<ServerOptions, 'hostname' | 'port' | 'token' | 'bodyLimit' | 'bodyTimeoutMs' | 'bodyBytesInFlight' | 'headersTimeoutMs' | 'maxConnections' | 'idleTimeoutMs' | 'corsOrigins' | 'allowedHosts'> &
  Pick<McpServerOptions, 'maxConcurrentCalls'>;

/**
 * @example
 * const { url } = await (await mcpHttpApp(host, { port: 0 })).listen();  // POST `${url}/mcp`
 */
export function mcpHttpApp(host: McpToolHost, options: McpHttpOptions = {}): { app: Hono; listen(): Promise<Served> } {
  const { maxConcurrentCalls, ...serverOptions } = options;
  const o = resolveServerOptions(serverOptions);
  // One line of turns for the endpoint: each request gets a server of its own (stateless), its calls share these.
  const turns = mcpCallTurns(maxConcurrentCalls);
  const app = guardedApp(o, {
    corsHeaders: ['Mcp-Session-Id', 'Mcp-Protocol-Version', 'Last-Event-ID'],
    exposeHeaders: ['Mcp-Session-Id'],
    notFound: () => 'the MCP endpoint is /mcp',
  });
  app.all('/mcp', async (c) => {
    // A POST's body is read as every body of ours is (UTF-8 or refused, unique keys, bounded depth: the SDK's own
    // JSON.parse takes a message nested 200,000 deep and overflows the stack on it later) and handed over parsed.
    // Stateless (a server per request): a GET's stream could never carry a message (no server outlives its POST),
    // yet the SDK held it open for ever, uncounted, on every runtime; DELETE has no session to end. Streamable HTTP
    // lets such a server answer 405.
    if (c.req.method !== 'POST') {
      const message = `${c.req.method} is not served here: this MCP endpoint is stateless, send each JSON-RPC message with POST`;
      return c.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, 405, { allow: 'POST' });
    }
    let parsedBody: unknown;
    try {
      // Held: the message (up to bodyLimit of tool arguments) lives through the whole tool call, counted (rv9).
      parsedBody = bodyJson(c, false, true);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return c.json({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${error.message}` }, id: null }, error.status);
    }
    const server = createMcpServer(host, {}, turns);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw, { parsedBody });
  });
  return { app, listen: () => listenApp(appFetch(app), { hostname: o.hostname, port: o.port, headersTimeoutMs: o.headersTimeoutMs, maxConnections: o.maxConnections, idleTimeoutMs: o.idleTimeoutMs }) };
}
