/**
 * `createServer(host, options)`: the hono app of the HTTP control plane,
 * embeddable as `fetch` in any runtime, or served with `listen()`.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { Connection, Served } from '../runtime/serve.js';
import { bearerAuth } from './auth.js';
import { consoleHtml } from './console.js';
import { ControlBroker } from './control.js';
import { ApiError, errorResponse } from './errors.js';
import { elicit, type ElicitationOutcome, type ElicitationRequest } from './elicit.js';
import { hostAndOrigin, jsonPosts } from './guards.js';
import { EventHub } from './hub.js';
import { appFetch, listenApp } from './listen.js';
import { isLoopback, resolveServerOptions, type ResolvedServerOptions, type ServerOptions } from './options.js';
import { RemoteHooks } from './remote-hooks.js';
import { apiRoutes } from './routes.js';
import { SessionRegistry } from './sessions.js';
import { sseHandler } from './sse.js';
import type { ServerHost } from './types.js';

export interface WasmhooksServer {
  readonly app: Hono;
  /** The web-standard handler, for embedding (`Deno.serve(server.fetch)`, …). */
  readonly fetch: (request: Request, connection?: Connection) => Response | Promise<Response>;
  readonly options: ResolvedServerOptions;
  readonly hub: EventHub;
  readonly broker: ControlBroker;
  readonly sessions: SessionRegistry;
  /**
   * Asks the user of a session a question (an `elicitation` control request,
   * shown in the browser console) and waits for the answer. For tools and
   * hooks: both know their session id. Never rejects; anything but an
   * answer is `{ action: 'cancel', reason }`.
   */
  elicit(sessionId: string, request: ElicitationRequest, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<ElicitationOutcome>;
  /** Serves on `options.hostname:options.port` through this runtime's adapter. */
  listen(): Promise<Served>;
  /**
   * Cancels pending control requests (each SSE client sees `control.cancelled`),
   * closes sessions, ends every SSE stream after a final `server.closing`
   * event, then closes the listener.
   */
  close(): Promise<void>;
}

/**
 * @example
 * const server = createServer(host, { port: 0 });
 * const { url } = await server.listen();
 * await fetch(`${url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
 */
export function createServer(host: ServerHost, options: ServerOptions = {}): WasmhooksServer {
  const resolved = resolveServerOptions(options);
  const hub = new EventHub(resolved);
  const broker = new ControlBroker(
    {
      request: (request) => hub.emit('control.request', request),
      resolved: (r) => hub.emit('control.resolved', { id: r.id, sessionId: r.sessionId, subtype: r.subtype }),
      cancelled: (r, reason) => hub.emit('control.cancelled', { id: r.id, sessionId: r.sessionId, subtype: r.subtype, reason }),
    },
    resolved.controlTimeoutMs,
  );
  const remoteHooks = new RemoteHooks(host, broker, resolved.controlTimeoutMs);
  const sessions = new SessionRegistry(host, hub, broker, resolved.controlTimeoutMs, remoteHooks);

  const app = new Hono();
  app.onError((error) => errorResponse(error));
  app.notFound((c) => errorResponse(new ApiError('not_found', `no route ${c.req.method} ${c.req.path.slice(0, 200)}`)));
  app.use(
    '*',
    hostAndOrigin({ loopback: isLoopback(resolved.hostname), allowedHosts: resolved.allowedHosts, corsOrigins: resolved.corsOrigins }),
  );
  if (resolved.corsOrigins.length > 0) {
    app.use('*', cors({ origin: resolved.corsOrigins, allowHeaders: ['Authorization', 'Content-Type', 'Last-Event-ID'] }));
  }
  // The console page holds no data; it asks for the token and sends it with each API call.
  app.get('/', (c) => c.html(consoleHtml));
  if (resolved.token) app.use('*', bearerAuth(resolved.token));
  app.use('*', jsonPosts);
  app.use(
    '*',
    bodyLimit({
      maxSize: resolved.bodyLimit,
      onError: () => {
        throw new ApiError('payload_too_large', `the body is larger than ${resolved.bodyLimit} bytes`);
      },
    }),
  );
  app.get('/health', (c) => c.json({ ok: true, sessions: sessions.list().length, sseClients: hub.clientCount }));
  app.get('/event', sseHandler(hub, false));
  app.get('/global/event', sseHandler(hub, { format: resolved.globalEventFormat }));
  app.route('/', apiRoutes({ host, sessions, broker, allowPluginLoading: resolved.allowPluginLoading }));

  const fetch = appFetch(app);
  let served: Served | undefined;
  return {
    app,
    fetch,
    options: resolved,
    hub,
    broker,
    sessions,
    elicit: async (sessionId, request, opts) =>
      sessions.has(sessionId) ? elicit(broker, sessionId, request, opts) : { action: 'cancel', reason: `no session ${sessionId}` },
    async listen() {
      if (served) return served;
      served = await listenApp(fetch, { hostname: resolved.hostname, port: resolved.port });
      return served;
    },
    async close() {
      broker.close();
      await sessions.closeAll();
      await hub.close();
      await served?.close();
      served = undefined;
    },
  };
}
