/**
 * Serving a hono app of ours through the runtime adapter: the same handler
 * wrapper and the same JSON errors for requests refused before the app, for
 * the control plane and the MCP endpoint alike.
 */
import type { Hono } from 'hono';
import { serve, type Connection, type Served } from '../runtime/serve.js';
import { errorJson, type ApiErrorCode } from './errors.js';

export type AppFetch = (request: Request, connection?: Connection) => Response | Promise<Response>;

/** The app's handler. Bun hands a path-only URL over when `Host` is absent or malformed; routing needs an absolute one. */
export function appFetch(app: Hono): AppFetch {
  return (request, connection) =>
    app.fetch(request.url.startsWith('/') ? new Request(`http://localhost${request.url}`, request) : request, connection);
}

function codeOf(status: number): ApiErrorCode {
  if (status === 431) return 'headers_too_large';
  if (status === 413) return 'payload_too_large';
  if (status === 408) return 'request_timeout';
  return status >= 500 ? 'internal' : 'bad_request';
}

/** Listens with this runtime's adapter; errors the runtime lets us answer are in the API's JSON shape. */
export function listenApp(fetch: AppFetch, options: { hostname: string; port: number; headersTimeoutMs: number; maxConnections: number; idleTimeoutMs: number }): Promise<Served> {
  return serve(fetch, { ...options, errorBody: (status, message) => errorJson(codeOf(status), message) });
}
