/**
 * `GET /event` and `GET /global/event`: Server-Sent Events from the hub,
 * as a route of the app and, ahead of it, as the server's fast route
 * (`sseRoute`): the same guards in the same order, without the app's
 * middleware chain and, where the runtime can, without a web stream.
 */
import type { Context } from 'hono';
import { getQueryParams } from 'hono/utils/url';
import type { Connection } from '../runtime/serve-types.js';
import { EVENT_ID } from '../store/ids.js';
import { bearerCheck } from './auth.js';
import { ApiError, errorResponse } from './errors.js';
import { browserChecks, targetCheck } from './guards.js';
import { clientOf } from './per-client.js';
import { applySecurityHeaders } from './headers.js';
import type { EventHub } from './hub.js';
import type { ResolvedServerOptions } from './options.js';
import type { StreamFormat } from './ring.js';
import { sessionIdSchema } from './validate.js';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** Which stream a route serves: `/event`, or `/global/event` with its default format. */
type Stream = false | { format: 'wasmhooks' | 'reference' };

/**
 * A query parameter, read as the app reads it (`c.req.query`). Given twice it
 * is refused: the first (ours) and the last (many proxies') could differ.
 */
function query(request: Request, name: string): string | undefined {
  const values = getQueryParams(request.url, name) as string[] | undefined;
  if (values !== undefined && values.length > 1) throw new ApiError('validation', `query.${name}: give it once`, `query.${name}`);
  return values?.[0];
}

function lastEventId(request: Request): string | undefined {
  const raw = request.headers.get('last-event-id') ?? query(request, 'lastEventId');
  if (raw === undefined || raw === '') return undefined;
  // Ids of another format (a bare counter from an older server) are valid requests: they get replay.gap.
  if (!EVENT_ID.test(raw) && !/^\d{1,15}$/.test(raw)) {
    throw new ApiError('validation', 'Last-Event-ID must be an event id as sent in `id:` (<epoch>.<position>)', 'headers.last-event-id');
  }
  return raw;
}

/** `/global/event?format=wasmhooks|reference` picks the envelope; the server option is the default. */
function globalFormat(request: Request, fallback: 'wasmhooks' | 'reference'): StreamFormat {
  const raw = query(request, 'format') ?? fallback;
  if (raw === 'wasmhooks') return 'global';
  if (raw === 'reference') return 'reference';
  throw new ApiError('validation', 'format must be "wasmhooks" or "reference"', 'query.format');
}

/**
 * The stream's response, once the guards passed. `respond`: the fast
 * route's final headers, with which the connection may answer by itself;
 * through the app (undefined), middleware still adds headers, so the body is
 * only offered (`Connection.direct`).
 */
function sseResponse(
  hub: EventHub,
  maxClients: number,
  stream: Stream,
  request: Request,
  connection: Partial<Connection> | undefined,
  respond: Readonly<Record<string, string>> | undefined,
): Response {
  const session = query(request, 'session');
  if (session !== undefined && !sessionIdSchema.safeParse(session).success) {
    throw new ApiError('validation', 'session must be a session id', 'query.session');
  }
  const from = lastEventId(request);
  const format = stream ? globalFormat(request, stream.format) : 'plain';
  // HEAD is answered from this GET route with the body thrown away: no stream to open (nobody would read it).
  if (request.method === 'HEAD') return new Response(null, { headers: respond ?? SSE_HEADERS });
  // Each stream holds a socket, a queue and a place in every fan-out: their number is bounded like sessions are.
  if (hub.clientCount >= maxClients) {
    throw new ApiError(
      'too_many_streams',
      `this server already serves ${hub.clientCount} event streams (maxSseClients); close one, or retry later (a client needs one stream: /global/event carries every session)`,
    );
  }
  const address = clientOf(request, connection);
  hub.perClient.check(address);
  // Disconnects arrive as the body's cancel (or the direct connection's close) on every runtime;
  // request.signal is not used because Deno's legacy semantics fire it when a response is delivered.
  const destroy = connection?.destroy;
  const direct = connection?.direct;
  const opened = {
    format,
    ...(session !== undefined ? { session } : {}),
    ...(address !== undefined ? { address } : {}),
    ...(from !== undefined ? { lastEventId: from } : {}),
    ...(typeof destroy === 'function' ? { destroy } : {}),
    ...(connection?.printsBodyErrors === true ? { quiet: true } : {}),
  };
  if (respond && typeof connection?.respond === 'function') return connection.respond(respond, hub.openDirect(opened));
  const body = hub.open({ ...opened, ...(typeof direct === 'function' ? { direct } : {}) });
  return new Response(body, { headers: respond ?? SSE_HEADERS });
}

/** The app's routes (`app.get('/event', …)`), after its middleware. */
export function sseHandler(hub: EventHub, maxClients: number, stream: Stream) {
  return (c: Context): Response => sseResponse(hub, maxClients, stream, c.req.raw, c.env as Partial<Connection> | undefined, undefined);
}

/**
 * The path of an absolute request URL as the app routes it, or undefined
 * where the app would decode it first (`%`): those requests take the app's
 * way.
 */
function plainPath(url: string): string | undefined {
  const start = url.indexOf('/', url.indexOf(':') + 4);
  if (start < 0) return undefined;
  let end = start;
  for (; end < url.length; end++) {
    const c = url.charCodeAt(end);
    if (c === 37 /* % */) return undefined;
    if (c === 63 /* ? */ || c === 35 /* # */) break;
  }
  return url.slice(start, end);
}

/**
 * The fast route: `GET /event` and `GET /global/event` answered ahead of the
 * app, with every guard the app's chain gives these routes, in its order —
 * Host and Origin (DNS rebinding, cross-site), fetch metadata (a page of
 * another site embedding the stream), then the bearer token, then the
 * stream's own checks (session id, Last-Event-ID, format) and the hub's
 * limits — the app's JSON errors, and the security headers of every answer
 * (`headers.ts`). The chain's body steps (`closeUnread`, `readBody`) have
 * nothing to do for a GET. Returns undefined for anything else (other
 * methods and paths, HEAD, encoded paths, a path-only URL), which the app
 * answers; with CORS configured every request goes through the app, whose
 * CORS middleware adds its headers.
 */
export function sseRoute(hub: EventHub, options: ResolvedServerOptions): (request: Request, connection?: Connection) => Response | undefined {
  if (options.corsOrigins.length > 0) return () => undefined;
  const checkBrowser = browserChecks(options);
  const checkToken = options.token ? bearerCheck(options.token) : undefined;
  const global: Stream = { format: options.globalEventFormat };
  // The stream's headers with the security headers the app sets on every answer, built once.
  const secured = new Headers(SSE_HEADERS);
  applySecurityHeaders(secured);
  const headers: Record<string, string> = {};
  secured.forEach((value, name) => (headers[name] = value));
  return (request, connection) => {
    // A path-only URL (Bun, without a usable Host) is made absolute by the app's handler before it routes.
    if (request.method !== 'GET' || request.url.startsWith('/')) return undefined;
    const path = plainPath(request.url);
    const stream = path === '/event' ? false : path === '/global/event' ? global : undefined;
    if (stream === undefined) return undefined;
    try {
      const get = (name: string) => request.headers.get(name) ?? undefined;
      targetCheck(request.url);
      checkBrowser(request.method, get);
      checkToken?.(get('authorization'));
      return sseResponse(hub, options.maxSseClients, stream, request, connection, headers);
    } catch (error) {
      const response = errorResponse(error);
      applySecurityHeaders(response.headers);
      return response;
    }
  };
}
