/**
 * Connecting to Redis with `ioredis` (works on Node, Deno and Bun): commands
 * fail at once while the connection is down (no offline queue), so a request
 * gets a clear `STORE_UNAVAILABLE` instead of hanging, and the client keeps
 * reconnecting in the background.
 */
// The default export: ioredis is CommonJS, and the default is what every runtime's interop agrees on.
import IORedis, { type Redis } from 'ioredis';
import { WasmhooksError, messageOf } from '../errors.js';

/**
 * The URL as messages show it (to operators, and to HTTP clients in 503
 * bodies): scheme, host, port and database only. Credentials go wherever
 * ioredis reads them from — the user info (up to the last `@`, so a
 * password may hold an `@`) or the query (`?password=`) — so both are
 * left out rather than redacted piece by piece.
 */
export function describeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(a URL that does not parse)';
  }
  const credentials = parsed.username !== '' || parsed.password !== '' ? '***@' : '';
  const db = /^\/\d+$/.test(parsed.pathname) ? parsed.pathname : '';
  return `${parsed.protocol}//${credentials}${parsed.host}${db}${parsed.search !== '' ? '?…' : ''}`;
}

/**
 * Longest wait for one command's answer. A Redis that stops answering on an open connection (stopped,
 * swapped out, a partition that drops packets rather than resetting) held every command, so every request
 * needing the store, and each lease renewal, whose failure is what stops a prompt when its lease may be
 * gone: a stall never failed, so it never stopped. Blocking reads block 1 s (redis-log.ts), within this.
 */
const REDIS_COMMAND_TIMEOUT_MS = 5_000;

/** Connects to `url` (checked by openStore's schema, spec.ts). */
export async function connectRedis(url: string): Promise<Redis> {
  const client = new IORedis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(50 * attempt, 1000),
  });
  // ioredis reports connection errors as events too; they are handled per command.
  client.on('error', () => {});
  try {
    await client.connect();
    // A server that refuses INFO (some managed ones rename it) is let through: its streams answer for themselves.
    const version = redisVersion(await client.info('server').catch(() => ''));
    if (version !== undefined && version.major < MIN_REDIS_MAJOR) {
      throw new WasmhooksError(
        'STORE_UNAVAILABLE',
        `the session store ${describeUrl(url)} is Redis ${version.text}; wasmhooks needs Redis ${MIN_REDIS_MAJOR} or later ` +
          '(before 7 a stream does not say what was trimmed from it, so a client resuming from an evicted event would miss events with no replay.gap)',
      );
    }
  } catch (error) {
    client.disconnect();
    throw unavailable(url, error);
  }
  return client;
}

/** The oldest Redis the event log can tell a trimmed replay on (XINFO STREAM's max-deleted-entry-id, redis-log.ts). */
const MIN_REDIS_MAJOR = 7;

/**
 * The server's version from `INFO server` (`redis_version:7.0.15`); undefined when it says none (a compatible
 * server that hides it: its streams are checked as they answer).
 */
export function redisVersion(info: string): { major: number; text: string } | undefined {
  const match = /^redis_version:(\d+)\.(\S*)/m.exec(info);
  return match ? { major: Number(match[1]), text: `${match[1]}.${match[2]}` } : undefined;
}

/** A second connection to the same server (blocking reads and pub/sub need their own); `retries`: resends of a command cut by a reconnect. */
export async function duplicate(client: Redis, url: string, retries = 1): Promise<Redis> {
  const other = client.duplicate({ lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: retries, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  other.on('error', () => {});
  try {
    await other.connect();
  } catch (error) {
    other.disconnect();
    throw unavailable(url, error);
  }
  return other;
}

function unavailable(url: string, error: unknown): WasmhooksError {
  if (error instanceof WasmhooksError) return error;
  return new WasmhooksError(
    'STORE_UNAVAILABLE',
    `the session store ${describeUrl(url)} is unreachable (${messageOf(error)}); nothing was changed, retry once Redis is back`,
  );
}

/** Runs a Redis call, turning connection failures into `STORE_UNAVAILABLE`. */
export async function guarded<T>(url: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw unavailable(url, error);
  }
}
