/**
 * Server options, validated once with zod. The security rules live here so a
 * server that would be unsafe never starts: binding beyond loopback needs a
 * token, and so does letting every origin in (`corsOrigins: ['*']`, or
 * `['null']`: any sandboxed frame).
 */
import { z } from 'zod';
import { WasmhooksError } from '../errors.js';
import { ipAddressSchema } from '../plugins/ip-address.js';
import type { EventLog, SessionStore } from '../store/types.js';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

/** True for names that only this machine can reach. */
export function isLoopback(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

const serverOptionsSchema = z
  .object({
    /** Bearer token every API request must carry. Required off loopback. */
    token: z
      .string()
      .min(16, 'token must be at least 16 characters')
      .refine((t) => t.trim() === t, 'token must not start or end with whitespace (clients trim the header, so it could never match)')
      .optional(),
    hostname: z.string().min(1).default('127.0.0.1'),
    /** 0 picks a free port. */
    port: z.number().int().min(0).max(65535).default(4096),
    /** Origins allowed by CORS; empty (the default) sends no CORS headers. Requests from any other origin are refused. `*` (any origin) and `null` (any sandboxed frame) need a token. */
    corsOrigins: z.array(z.string().min(1)).default([]),
    /** Host names (no port) a loopback server answers besides localhost, 127.x.x.x and [::1] (e.g. behind a proxy). */
    allowedHosts: z
      .array(z.string().regex(/^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/i, 'allowedHosts entries are host names without port'))
      .default([]),
    /** Shape of `/global/event` frames unless the client asks with `?format=`: ours, or the reference runtime API's. */
    globalEventFormat: z.enum(['wasmhooks', 'reference']).default('wasmhooks'),
    /** Largest accepted request body, in bytes. */
    bodyLimit: z.number().int().positive().default(1024 * 1024),
    /** Bytes of request bodies held at once over all requests (each reserves its Content-Length, or bodyLimit when chunked); past it a request is answered 503 at once. At least bodyLimit. */
    bodyBytesInFlight: z.number().int().positive().default(64 * 1024 * 1024),
    /** Time for a request body to arrive whole, ms; past it the request is answered 408 and its connection closed (slow senders). */
    bodyTimeoutMs: z.number().int().positive().max(600_000).default(30_000),
    /** Time for a request's line and headers to arrive whole, ms (Node: 408 and the connection closed; Bun has its own ~10 s, Deno none). */
    headersTimeoutMs: z.number().int().min(100).max(600_000).default(10_000),
    /**
     * Connections open at once, idle keep-alive and SSE included (Node: one more is closed as it is accepted, before
     * a byte is read). Bun and Deno give no hook on accepted connections: there the process's file limit (ulimit -n)
     * or a proxy in front bounds them.
     */
    maxConnections: z.number().int().positive().max(1_000_000).default(10_000),
    /**
     * Bun: how long a connection may stay idle after a non-stream answer, ms (keep-alive; Bun counts it from the
     * answer, so it also bounds writing a large one). Node closes idle keep-alive connections after its own 5 s;
     * Deno never (a proxy in front).
     */
    idleTimeoutMs: z.number().int().min(1000).max(600_000).default(30_000),
    /** Events kept for `Last-Event-ID` replay. */
    replayBufferSize: z.number().int().min(1).max(1_000_000).default(4096),
    /** Reconnect delay suggested to SSE clients (the `retry:` field), ms. */
    retryMs: z.number().int().min(0).max(600_000).default(1000),
    /** Interval of SSE comment heartbeats, ms. */
    heartbeatMs: z.number().int().min(100).default(15_000),
    /** Sessions the store may hold; `POST /session` past it is refused (429) until one is deleted. Bounds what clients can make the server keep. */
    maxSessions: z.number().int().positive().default(10_000),
    /** SSE streams served at once (`/event` and `/global/event`); one more is refused (503 too_many_streams) until one closes. */
    maxSseClients: z.number().int().positive().default(1000),
    /** SSE streams one remote address may hold open; one more is refused (429 too_many_requests). Behind a proxy every client shares its address. */
    maxSseClientsPerAddress: z.number().int().positive().default(256),
    /** Sessions one remote address may have created (on this replica, not yet deleted); `POST /session` past it is refused (429 too_many_requests). */
    maxSessionsPerAddress: z.number().int().positive().default(1000),
    /** Whether `POST /plugins` may load plugins from a path or URL. */
    allowPluginLoading: z.boolean().default(false),
    /**
     * How `POST /plugins` resolves a URL's name to IP addresses (default: the system resolver, every address).
     * Every address must be public (or in `pluginUrlAllow`); the download then connects to the first of them and
     * resolves nothing again (DNS rebinding). For a custom resolver (DNS over HTTPS) or tests.
     */
    pluginUrlResolve: z
      .custom<(hostname: string) => Promise<readonly string[]>>((f) => typeof f === 'function', 'pluginUrlResolve must be a function (hostname) => Promise<string[]>')
      .optional(),
    /** IP addresses outside the public internet that `POST /plugins` may still download from (an internal registry); exact addresses, no ranges. */
    pluginUrlAllow: z.array(ipAddressSchema).max(1000).default([]),
    /** How long a control request waits for an answer before it is denied, ms. */
    controlTimeoutMs: z.number().int().positive().default(5 * 60_000),
    /** Frames (events and heartbeats) queued for one slow SSE client before it is disconnected (it may reconnect and replay). */
    clientQueueLimit: z.number().int().positive().default(10_000),
    /** Bytes queued for one slow SSE client before it is disconnected; whichever limit is reached first counts. */
    clientQueueBytes: z.number().int().positive().default(8 * 1024 * 1024),
    /** Where sessions live (see `openStore`); default: this process's memory. The caller closes it. */
    store: z.custom<SessionStore>((s) => typeof (s as SessionStore | undefined)?.acquire === 'function', 'store must be a SessionStore (see openStore())').optional(),
    /** Where events are logged for replay; default: a ring of `replayBufferSize` in memory. The caller closes it. */
    eventLog: z.custom<EventLog>((l) => typeof (l as EventLog | undefined)?.since === 'function', 'eventLog must be an EventLog (see openStore())').optional(),
    /** This process's name among replicas (in leases and `prompt.interrupted`); default: random. */
    replica: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/).optional(),
    /** How long a prompt's lease lasts without a heartbeat: a replica that dies is noticed after about this long, ms. */
    leaseMs: z.number().int().min(100).max(600_000).default(10_000),
  })
  .strict();

export type ServerOptions = z.input<typeof serverOptionsSchema>;
export type ResolvedServerOptions = z.output<typeof serverOptionsSchema>;

/** Validates options; throws `WasmhooksError('INVALID_OPTIONS')` with the field path. */
export function resolveServerOptions(options: ServerOptions = {}): ResolvedServerOptions {
  const parsed = serverOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') || '(options)';
    throw new WasmhooksError('INVALID_OPTIONS', `server option ${path}: ${issue?.message ?? 'invalid'}`);
  }
  const resolved = parsed.data;
  if (!resolved.token && !isLoopback(resolved.hostname)) {
    throw new WasmhooksError(
      'INVALID_OPTIONS',
      `refusing to serve on ${resolved.hostname} without a token: anything but loopback (127.0.0.1, ::1, localhost) ` +
        'requires a bearer token (option `token`, or --token / WASMHOOKS_TOKEN)',
    );
  }
  if (resolved.bodyBytesInFlight < resolved.bodyLimit) {
    throw new WasmhooksError(
      'INVALID_OPTIONS',
      `server option bodyBytesInFlight (${resolved.bodyBytesInFlight}) is below bodyLimit (${resolved.bodyLimit}): a body of the largest accepted size could never be read`,
    );
  }
  // "null" is the origin of every sandboxed frame and file: page, whatever site made it: as open as "*".
  const open = resolved.corsOrigins.find((o) => o === '*' || o === 'null');
  if (!resolved.token && open !== undefined) {
    throw new WasmhooksError(
      'INVALID_OPTIONS',
      `refusing corsOrigins ["${open}"] without a token: it lets every web page the user opens create sessions and approve tool calls ` +
        'here; list the origins of your UI instead, or require a bearer token (option `token`, or --token / WASMHOOKS_TOKEN)',
    );
  }
  return resolved;
}
