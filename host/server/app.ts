/**
 * `createServer(host, options)`: the hono app of the HTTP control plane,
 * embeddable as `fetch` in any runtime, or served with `listen()`.
 */
import type { Hono } from 'hono';
import type { Connection, Served } from '../runtime/serve.js';
import { consoleHtml } from './console.js';
import { consoleScript } from './console-script.js';
import { ControlBroker } from './control.js';
import { elicit, type ElicitationOutcome, type ElicitationRequest } from './elicit.js';
import { consoleCsp } from './headers.js';
import { EventHub } from './hub.js';
import { appFetch, listenApp, type AppFetch } from './listen.js';
import { resolveServerOptions, type ResolvedServerOptions, type ServerOptions } from './options.js';
import { RemoteHooks } from './remote-hooks.js';
import { apiRoutes } from './routes.js';
import { SessionRegistry } from './sessions.js';
import { guardedApp } from './stack.js';
import { storedSink } from '../sessions/control-store.js';
import { replicaDuties } from '../sessions/replica.js';
import { MemorySessionStore } from '../store/memory.js';
import { MemoryEventLog } from '../store/memory-log.js';
import { sseHandler, sseRoute } from './sse.js';
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
  /** This process's name among replicas. */
  readonly replica: string;
  /** Resolves once the server listens for calls from other replicas (immediate for a memory store). */
  readonly ready: Promise<void>;
  /**
   * Graceful shutdown: refuses new prompts, cancels pending control requests
   * (`control.cancelled`, reason `server-closed`, delivered), aborts running
   * prompts and stores their results, ends every SSE stream with
   * `server.closing`, then stops listening. Stored sessions stay.
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
  const store = resolved.store ?? new MemorySessionStore();
  const hub = new EventHub(resolved, resolved.eventLog ?? new MemoryEventLog(resolved.replayBufferSize));
  const replica = resolved.replica ?? `r-${crypto.randomUUID().slice(0, 8)}`;
  // Pending questions are kept in the store, so every replica (and a restarted one) can list them.
  const sink = storedSink(
    {
      request: (request) => hub.emit('control.request', request),
      resolved: (r) => hub.emit('control.resolved', { id: r.id, sessionId: r.sessionId, subtype: r.subtype }),
      cancelled: (r, reason) => hub.emit('control.cancelled', { id: r.id, sessionId: r.sessionId, subtype: r.subtype, reason }),
    },
    store,
    () => {},
  );
  const broker = new ControlBroker(sink, resolved.controlTimeoutMs);
  const remoteHooks = new RemoteHooks(host, broker, resolved.controlTimeoutMs);
  // The registry and the replica's duties refer to each other: calls forwarded here are handled by the registry.
  let registry: SessionRegistry | undefined;
  const duties = replicaDuties(
    store,
    hub,
    replica,
    resolved.leaseMs,
    (call) => (registry as SessionRegistry).handleCall(call),
    (id) => registry?.runsHere(id) ?? false,
  );
  const sessions = new SessionRegistry({
    host,
    hub,
    broker,
    controlTimeoutMs: resolved.controlTimeoutMs,
    remoteHooks,
    store,
    replica,
    leaseMs: resolved.leaseMs,
    calls: duties.calls,
    maxSessions: resolved.maxSessions,
    maxSessionsPerAddress: resolved.maxSessionsPerAddress,
  });
  registry = sessions;

  // The console page holds no data; it asks for the token and sends it with each API call.
  let csp: Promise<string> | undefined;
  const app = guardedApp(resolved, {
    corsHeaders: ['Last-Event-ID'],
    notFound: (method, path) => `no route ${method} ${path}`,
    public: (a) => a.get('/', async (c) => c.html(consoleHtml, 200, { 'content-security-policy': await (csp ??= consoleCsp(consoleScript)) })),
  });
  app.get('/health', async (c) => {
    // One count, not a read of every session and its pending questions (health checks are polled).
    const count = await store.count().catch(() => undefined);
    if (count === undefined) return c.json({ ok: false, store: 'unavailable', replica, sseClients: hub.clientCount }, 503);
    return c.json({ ok: true, sessions: count, replica, sseClients: hub.clientCount });
  });
  app.get('/event', sseHandler(hub, resolved.maxSseClients, false));
  app.get('/global/event', sseHandler(hub, resolved.maxSseClients, { format: resolved.globalEventFormat }));
  app.route('/', apiRoutes({
    host,
    sessions,
    allowPluginLoading: resolved.allowPluginLoading,
    pluginNetwork: { allow: resolved.pluginUrlAllow, ...(resolved.pluginUrlResolve ? { resolve: resolved.pluginUrlResolve } : {}) },
  }));

  // The SSE routes are answered ahead of the app (same guards, no middleware chain per connection); the rest by the app.
  const sse = sseRoute(hub, resolved);
  const viaApp = appFetch(app);
  const fetch: AppFetch = (request, connection) => sse(request, connection) ?? viaApp(request, connection);
  let served: Served | undefined;
  return {
    app,
    fetch,
    options: resolved,
    hub,
    broker,
    sessions,
    elicit: async (sessionId, request, opts) =>
      (await sessions.has(sessionId)) ? elicit(broker, sessionId, request, opts) : { action: 'cancel', reason: `no session ${sessionId}` },
    async listen() {
      if (served) return served;
      served = await listenApp(fetch, { hostname: resolved.hostname, port: resolved.port, headersTimeoutMs: resolved.headersTimeoutMs, maxConnections: resolved.maxConnections, idleTimeoutMs: resolved.idleTimeoutMs });
      return served;
    },
    ready: duties.ready,
    replica,
    async close() {
      // Order matters: no new prompts; pending questions cancelled (events logged); runs stopped and stored;
      // then every stream gets what was logged and a closing event before the listener goes.
      sessions.stopAccepting();
      broker.close();
      await sessions.closeAll();
      await sink.settled();
      duties.stop();
      await hub.close();
      await served?.close();
      served = undefined;
    },
  };
}
