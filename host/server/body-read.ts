/**
 * Receiving a request body, bounded in size and in time, before any route
 * sees it. The size: `Content-Length` past `bodyLimit` is refused before a
 * byte is read, and a chunked body as soon as it passes it. The time: a
 * client that sends its headers and then trickles the body (a byte now and
 * then: slowloris) would otherwise hold the connection and a handler for as
 * long as the runtime lets it (five minutes on Node, without end on Deno and
 * Bun: measured); the whole body must arrive within `bodyTimeoutMs`, or the
 * request is answered 408.
 *
 * A request answered before its body was read whole (401, 403, 408, 413,
 * 415) leaves the rest of the body on the wire, which the runtime would
 * keep reading, as slowly as the client sends it, to reuse the connection:
 * such an answer says `Connection: close` and the body is cancelled, which
 * ends the connection on Node and Bun. Deno keeps it until the client stops
 * sending (it gives the handler no way to close it); the handler is freed.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { readCapped } from '../read-capped.js';
import type { Connection } from '../runtime/serve-types.js';
import { ApiError } from './errors.js';

/** The bodies `readBody` received whole, by request: read once, copied never (routes take them from here). */
const received = new WeakMap<Request, Uint8Array>();

const hasBody = (request: Request) => request.body !== null && request.method !== 'GET' && request.method !== 'HEAD';

/** First of all middleware: closes the connection under any answer given before the body arrived whole. */
export const closeUnread: MiddlewareHandler = async (c, next) => {
  const raw = c.req.raw;
  await next();
  if (!hasBody(raw) || received.has(raw)) return;
  c.res.headers.set('connection', 'close');
  if (!(raw.body as ReadableStream).locked) void (raw.body as ReadableStream).cancel().catch(() => {});
};

/**
 * The bytes of request bodies one app is receiving at once, over every
 * request: each body is bounded by `bodyLimit`, but not their number, so many
 * clients sending at the same time (slowly, within `bodyTimeoutMs`) would
 * hold `bodyLimit` × connections. A request reserves what its body may take
 * (its `Content-Length`, or `bodyLimit` when chunked) before a byte is read,
 * and gives it back once the body is read (or its read failed), not when the
 * route answers: a slow route (a prompt waiting on a model, a plugin load)
 * would otherwise pin the budget for bodies long received. One that does not
 * fit is answered 503 at once.
 */
export class BodyBudget {
  #free: number;
  constructor(readonly total: number) {
    this.#free = total;
  }
  take(bytes: number): boolean {
    if (bytes > this.#free) return false;
    this.#free -= bytes;
    return true;
  }
  give(bytes: number): void {
    this.#free += bytes;
  }
}

/** Reads the body whole (within `limit` bytes and `timeoutMs`, and a share of `budget`) for the routes (`bodyOf`). */
export function readBody(limit: number, timeoutMs: number, budget: BodyBudget): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    // A GET or HEAD request has no body (fetch semantics); reading one would build a full Request on Node, per SSE connection too.
    if (!hasBody(raw)) return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
    const reserved = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : limit;
    if (!budget.take(reserved)) {
      throw new ApiError(
        'unavailable',
        `the server is receiving ${budget.total} bytes of request bodies already (bodyBytesInFlight); retry shortly`,
      );
    }
    let body: Awaited<ReturnType<typeof readCapped>>;
    try {
      // Only now, past the token and the content type, is a client that waits for `100 Continue` told to send.
      (c.env as Connection | undefined)?.proceed?.();
      body = await readCapped(raw.body as ReadableStream<Uint8Array>, limit, { timeoutMs });
    } catch {
      // The runtime's parser refused the body on the way (Deno: a chunk extension past its limit, a broken
      // chunk size) or the client left: the client's fault, a 400 (was a 500, logged as the server's error).
      throw new ApiError('bad_request', 'the request body could not be read (malformed chunked encoding, or the connection ended early)');
    } finally {
      budget.give(reserved);
    }
    return route(raw, body, limit, timeoutMs, next);
  };
}

function route(raw: Request, body: Awaited<ReturnType<typeof readCapped>>, limit: number, timeoutMs: number, next: () => Promise<void>): Promise<void> {
  switch (body.end) {
    case 'done':
      received.set(raw, body.bytes);
      return next();
    case 'over':
      throw tooLarge(limit);
    case 'expired':
      throw new ApiError('request_timeout', `the request body did not arrive within ${timeoutMs} ms; send it at once`);
    case 'aborted':
    case 'failed':
      // No signal is passed and a failed read rethrows (caught above): neither reaches here.
      throw new ApiError('bad_request', 'the request body could not be read');
    default: {
      const never: never = body.end;
      return never;
    }
  }
}

/** The body `readBody` received (empty for a request without one: GET, HEAD, no body). */
export function bodyOf(c: Context): Uint8Array {
  return received.get(c.req.raw) ?? new Uint8Array(0);
}

function tooLarge(limit: number): ApiError {
  return new ApiError('payload_too_large', `the body is larger than ${limit} bytes`);
}
