/**
 * Serving a hono app of ours through the runtime adapter: the same handler
 * wrapper and the same JSON errors for requests refused before the app, for
 * the control plane and the MCP endpoint alike.
 */
import type { Hono } from 'hono';
import { serve, type Connection, type Served } from '../runtime/serve.js';
import { ApiError, errorJson, errorResponse, type ApiErrorCode } from './errors.js';
import { isLoopbackHost } from './guards.js';
import { applySecurityHeaders } from './headers.js';

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
  if (status === 503) return 'unavailable';
  return status >= 500 ? 'internal' : 'bad_request';
}

/** `host[:port]` of an absolute URL, as written. */
function authorityOf(url: string): string {
  const start = url.indexOf('//') + 2;
  const end = url.indexOf('/', start);
  return url.slice(start, end < 0 ? undefined : end);
}

/**
 * A request target in absolute form (`POST http://other.example/session HTTP/1.1`, what a client sends to a
 * proxy) names its own host, which HTTP says wins over `Host`: Node and Deno build the request's URL from it
 * while the browser checks (guards.ts) read `Host`. One that names another host than `Host` is refused here, at
 * the network's edge (an app's `fetch` called in-process may be given any URL): this server is no proxy, and a
 * proxy in front would route by the one the checks did not read. Bun drops the target's authority itself.
 */
function targetMismatch(request: Request, bindHostname: string): Response | undefined {
  if (request.url.startsWith('/')) return undefined;
  const host = request.headers.get('host');
  const named = authorityOf(request.url);
  // Userinfo in a request target is an error (RFC 9110 4.2.4); Node's Request refused it later, as a 500.
  const userinfo = named.includes('@');
  if (!userinfo && (host === null || host === '' ? namesThisServer(request.url, bindHostname) : sameAuthority(request.url, named, host))) return undefined;
  const shown = JSON.stringify(named.slice(0, 100));
  const response = errorResponse(
    new ApiError(
      'bad_request',
      `${userinfo ? `the request target carries userinfo (${shown})` : `the request target names host ${shown} but Host says ${host === null ? 'nothing (absent)' : JSON.stringify(host.slice(0, 100))}`}: this server is not a proxy; send the path only`,
      undefined,
      true,
    ),
  );
  applySecurityHeaders(response.headers);
  return response;
}

/** Whether a target's authority is the one `Host` names, however spelled (a default port written out, an IPv6 form). */
function sameAuthority(url: string, named: string, host: string): boolean {
  if (named.toLowerCase() === host.toLowerCase()) return true;
  try {
    return new URL(url).host === new URL(`http://${host}`).host;
  } catch {
    return true; // a malformed Host is the guards' 400
  }
}

/**
 * With `Host` absent or empty (HTTP/1.0, or a client that sends `Host:`), the runtime builds the URL from
 * the request target when it is in absolute form, and from the bound name (Node: the bind hostname; Deno:
 * `localhost:<port>`) when it is not. Only a URL that names this server is let through: an absolute target
 * naming any other host is the mismatch above, whatever `Host` was left out. The guards let a request
 * without `Host` pass as a non-browser's, so nothing else would have read the host it names.
 */
function namesThisServer(url: string, bindHostname: string): boolean {
  let name: string;
  try {
    name = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  const bound = bindHostname.toLowerCase().replace(/^\[|\]$/g, '');
  return isLoopbackHost(name) || name.replace(/^\[|\]$/g, '') === bound;
}

/** Listens with this runtime's adapter; errors the runtime lets us answer are in the API's JSON shape. */
export function listenApp(fetch: AppFetch, options: { hostname: string; port: number; headersTimeoutMs: number; maxConnections: number; idleTimeoutMs: number }): Promise<Served> {
  const checked: AppFetch = (request, connection) => targetMismatch(request, options.hostname) ?? fetch(request, connection);
  return serve(checked, { ...options, errorBody: (status, message) => errorJson(codeOf(status), message) });
}
