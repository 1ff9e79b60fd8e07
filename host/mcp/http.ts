/**
 * The MCP server over Streamable HTTP (stateless: one MCP server object per
 * request), as a hono app with the control plane's rules: loopback unless a
 * token is set, the bearer token on every request, a body limit, and only
 * this machine's Host and no foreign Origin on loopback (DNS rebinding).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { serve, type Served } from '../runtime/serve.js';
import { bearerAuth } from '../server/auth.js';
import { ApiError, errorResponse } from '../server/errors.js';
import { isLoopback, resolveServerOptions, type ServerOptions } from '../server/options.js';
import { createMcpServer, type McpToolHost } from './server.js';

export type McpHttpOptions = Pick<ServerOptions, 'hostname' | 'port' | 'token' | 'bodyLimit' | 'corsOrigins'>;

/** Host header values a loopback listener answers to (with any port). */
const LOCAL_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/i;

/**
 * @example
 * const { url } = await (await mcpHttpApp(host, { port: 0 })).listen();  // POST `${url}/mcp`
 */
export function mcpHttpApp(host: McpToolHost, options: McpHttpOptions = {}): { app: Hono; listen(): Promise<Served> } {
  const o = resolveServerOptions(options);
  const app = new Hono();
  app.onError((error) => errorResponse(error));
  app.notFound(() => errorResponse(new ApiError('not_found', 'the MCP endpoint is /mcp')));
  if (isLoopback(o.hostname)) {
    app.use('*', async (c, next) => {
      const hostHeader = c.req.header('host') ?? '';
      if (!LOCAL_HOST.test(hostHeader)) throw new ApiError('forbidden', `Host ${JSON.stringify(hostHeader)} is not this machine (DNS rebinding?)`);
      const origin = c.req.header('origin');
      if (origin && !o.corsOrigins.includes(origin) && !LOCAL_HOST.test(origin.replace(/^https?:\/\//, ''))) {
        throw new ApiError('forbidden', `Origin ${origin} is not allowed`);
      }
      await next();
    });
  }
  if (o.token) app.use('*', bearerAuth(o.token));
  app.use('*', bodyLimit({ maxSize: o.bodyLimit, onError: () => { throw new ApiError('payload_too_large', `the body is larger than ${o.bodyLimit} bytes`); } }));
  app.all('/mcp', async (c) => {
    const server = createMcpServer(host);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw);
  });
  return { app, listen: () => serve(app.fetch, { hostname: o.hostname, port: o.port }) };
}
