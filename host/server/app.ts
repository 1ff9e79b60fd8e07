/**
 * `createServer(host, options)`: the hono app of the HTTP control plane,
 * embeddable as `fetch` in any runtime, or served with `listen()`.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { serve, type Served } from '../runtime/serve.js';
import { bearerAuth } from './auth.js';
import { consoleHtml } from './console.js';
import { ControlBroker } from './control.js';
import { ApiError, errorResponse } from './errors.js';
import { EventHub } from './hub.js';
import { RemoteHooks } from './remote-hooks.js';
import { resolveServerOptions, type ResolvedServerOptions, type ServerOptions } from './options.js';
import { apiRoutes } from './routes.js';
import { SessionRegistry } from './sessions.js';
import { sseHandler } from './sse.js';
import type { ServerHost } from './types.js';

export interface WasmhooksServer {
  readonly app: Hono;
  /** The web-standard handler, for embedding (`Deno.serve(server.fetch)`, …). */
  readonly fetch: (request: Request) => Response | Promise<Response>;
  readonly options: ResolvedServerOptions;
  readonly hub: EventHub;
  readonly broker: ControlBroker;
  readonly sessions: SessionRegistry;
  /** Serves on `options.hostname:options.port` through this runtime's adapter. */
  listen(): Promise<Served>;
  /** Ends SSE streams, cancels pending control requests, closes sessions and the listener. */
  close(): Promise<void>;
}

/**
 * @example
 * const server = createServer(host, { port: 0 });
 * const { url } = await server.listen();
 * await fetch(`${url}/session`, { method: 'POST' });
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
  app.notFound((c) => errorResponse(new ApiError('not_found', `no route ${c.req.method} ${new URL(c.req.url).pathname}`)));
  if (resolved.corsOrigins.length > 0) {
    app.use('*', cors({ origin: resolved.corsOrigins, allowHeaders: ['Authorization', 'Content-Type', 'Last-Event-ID'] }));
  }
  // The console page holds no data; it asks for the token and sends it with each API call.
  app.get('/', (c) => c.html(consoleHtml));
  if (resolved.token) app.use('*', bearerAuth(resolved.token));
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
  app.get('/global/event', sseHandler(hub, true));
  app.route('/', apiRoutes({ host, sessions, broker, allowPluginLoading: resolved.allowPluginLoading }));

  let served: Served | undefined;
  return {
    app,
    fetch: (request) => app.fetch(request),
    options: resolved,
    hub,
    broker,
    sessions,
    async listen() {
      if (served) return served;
      served = await serve(app.fetch, { hostname: resolved.hostname, port: resolved.port });
      return served;
    },
    async close() {
      broker.close();
      await sessions.closeAll();
      hub.close();
      await served?.close();
      served = undefined;
    },
  };
}
