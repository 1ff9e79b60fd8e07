/**
 * The MCP server over Streamable HTTP (stateless: one MCP server object per
 * request), as a hono app behind the control plane's own guards
 * (server/stack.ts): loopback unless a token is set, the bearer token on
 * every request, this machine's Host and no foreign Origin on loopback (DNS
 * rebinding), no request embedded by another site (fetch metadata), POSTs
 * that say `application/json` (the SDK only looks for the words anywhere in
 * the header, so `text/plain; x=application/json`, a "simple" cross-site
 * request, would pass it), a body limit and deadline, and the security
 * headers on every answer.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Hono } from 'hono';
import type { Served } from '../runtime/serve.js';
import { requestWithBody } from '../server/body-read.js';
import { appFetch, listenApp } from '../server/listen.js';
import { resolveServerOptions, type ServerOptions } from '../server/options.js';
import { guardedApp } from '../server/stack.js';
import { createMcpServer, type McpToolHost } from './server.js';

export type McpHttpOptions = Pick<ServerOptions, 'hostname' | 'port' | 'token' | 'bodyLimit' | 'bodyTimeoutMs' | 'headersTimeoutMs' | 'corsOrigins' | 'allowedHosts'>;

/**
 * @example
 * const { url } = await (await mcpHttpApp(host, { port: 0 })).listen();  // POST `${url}/mcp`
 */
export function mcpHttpApp(host: McpToolHost, options: McpHttpOptions = {}): { app: Hono; listen(): Promise<Served> } {
  const o = resolveServerOptions(options);
  const app = guardedApp(o, {
    corsHeaders: ['Mcp-Session-Id', 'Mcp-Protocol-Version', 'Last-Event-ID'],
    exposeHeaders: ['Mcp-Session-Id'],
    notFound: () => 'the MCP endpoint is /mcp',
  });
  app.all('/mcp', async (c) => {
    const server = createMcpServer(host);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(requestWithBody(c));
  });
  return { app, listen: () => listenApp(appFetch(app), { hostname: o.hostname, port: o.port, headersTimeoutMs: o.headersTimeoutMs }) };
}
