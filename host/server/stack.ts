/**
 * The middleware every HTTP app of ours runs before its routes, in one
 * order, for the control plane (app.ts) and the MCP endpoint (mcp/http.ts)
 * alike, so that neither can miss a check the other has: security headers on
 * every answer, the connection closed under an early answer, the browser
 * checks (Host, Origin, fetch metadata), CORS, then (after `public`, the
 * routes a stranger may see) the bearer token, JSON-only POSTs and the
 * bounded body read.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { bearerAuth } from './auth.js';
import { BodyBudget, closeUnread, readBody } from './body-read.js';
import { ApiError, errorResponse } from './errors.js';
import { browserGuards, jsonPosts } from './guards.js';
import { securityHeaders } from './headers.js';
import type { ResolvedServerOptions } from './options.js';

export type StackOptions = Pick<ResolvedServerOptions, 'hostname' | 'allowedHosts' | 'corsOrigins' | 'token' | 'bodyLimit' | 'bodyTimeoutMs' | 'bodyBytesInFlight'>;

export interface StackSettings {
  /** Request headers a cross-origin page may send (CORS preflight), besides Authorization and Content-Type. */
  corsHeaders?: readonly string[];
  /** Response headers a cross-origin page may read. */
  exposeHeaders?: readonly string[];
  /** What a request for an unknown path is told. */
  notFound: (method: string, path: string) => string;
  /** Routes served before the token is checked (the console page, which holds no data). */
  public?: (app: Hono) => void;
}

/** A hono app with the shared guards in place; routes added to it afterwards are guarded. */
export function guardedApp(options: StackOptions, settings: StackSettings): Hono {
  const app = new Hono();
  app.onError((error) => errorResponse(error));
  app.notFound((c) => errorResponse(new ApiError('not_found', settings.notFound(c.req.method, c.req.path.slice(0, 200)))));
  const chain: MiddlewareHandler[] = [securityHeaders, closeUnread, browserGuards(options)];
  if (options.corsOrigins.length > 0) {
    // hono reads "*" as every origin only as a string, not inside a list.
    const origin = options.corsOrigins.includes('*') ? '*' : [...options.corsOrigins];
    const allowHeaders = ['Authorization', 'Content-Type', ...(settings.corsHeaders ?? [])];
    chain.push(cors({ origin, allowHeaders, exposeHeaders: [...(settings.exposeHeaders ?? [])] }));
  }
  for (const handler of chain) app.use('*', handler);
  settings.public?.(app);
  if (options.token) app.use('*', bearerAuth(options.token));
  app.use('*', jsonPosts);
  app.use('*', readBody(options.bodyLimit, options.bodyTimeoutMs, new BodyBudget(options.bodyBytesInFlight)));
  return app;
}
