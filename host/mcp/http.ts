/**
 * The MCP server over Streamable HTTP (stateless: one MCP server object per
 * request), as a hono app with the control plane's rules: loopback unless a
 * token is set, the bearer token on every request, a body limit and deadline, and only
 * this machine's Host and no foreign Origin on loopback (DNS rebinding).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import type { Served } from '../runtime/serve.js';
import { bearerAuth } from '../server/auth.js';
import { closeUnread, readBody } from '../server/body-read.js';
import { ApiError, errorResponse } from '../server/errors.js';
import { hostAndOrigin } from '../server/guards.js';
import { appFetch, listenApp } from '../server/listen.js';
import { isLoopback, resolveServerOptions, type ServerOptions } from '../server/options.js';
import { createMcpServer, type McpToolHost } from './server.js';

export type McpHttpOptions = Pick<ServerOptions, 'hostname' | 'port' | 'token' | 'bodyLimit' | 'bodyTimeoutMs' | 'corsOrigins' | 'allowedHosts'>;

/**
 * @example
 * const { url } = await (await mcpHttpApp(host, { port: 0 })).listen();  // POST `${url}/mcp`
 */
export function mcpHttpApp(host: McpToolHost, options: McpHttpOptions = {}): { app: Hono; listen(): Promise<Served> } {
  const o = resolveServerOptions(options);
  const app = new Hono();
  app.onError((error) => errorResponse(error));
  app.notFound(() => errorResponse(new ApiError('not_found', 'the MCP endpoint is /mcp')));
  app.use('*', closeUnread);
  // The control plane's own Host/Origin checks (DNS rebinding, cross-site requests): one implementation.
  app.use('*', hostAndOrigin({ loopback: isLoopback(o.hostname), allowedHosts: o.allowedHosts, corsOrigins: o.corsOrigins }));
  if (o.token) app.use('*', bearerAuth(o.token));
  // The same bounded body read (size and time: slowloris) as the control plane.
  app.use('*', readBody(o.bodyLimit, o.bodyTimeoutMs));
  app.all('/mcp', async (c) => {
    const server = createMcpServer(host);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw);
  });
  return { app, listen: () => listenApp(appFetch(app), { hostname: o.hostname, port: o.port }) };
}
