/**
 * Bearer-token auth. The comparison takes the same time wherever the tokens
 * differ, so the token cannot be guessed byte by byte from response times.
 *
 * Why not `hono/bearer-auth`: it accepts only tokens of the RFC 6750
 * token68 alphabet (a configured token with other characters could never
 * match, silently), and it answers with its own plain-text bodies and
 * `WWW-Authenticate` variants; ours accepts any configured token (checked
 * once at start-up: at least 16 characters, no surrounding whitespace) and
 * answers with the API's one JSON error shape.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors.js';

const encoder = new TextEncoder();

/** Constant-time (for a given expected length) string equality. */
export function safeEqual(given: string, expected: string): boolean {
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ (b[i] as number);
  return diff === 0;
}

/** Throws the API's 401 unless `header` (the request's `Authorization`) is `Bearer <token>`. */
export function checkBearer(header: string | undefined, token: string): void {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match || !safeEqual((match[1] as string).trim(), token)) {
    throw new ApiError('unauthorized', 'missing or wrong bearer token: send "Authorization: Bearer <token>"');
  }
}

/** Requires `Authorization: Bearer <token>` on every route it guards. */
export function bearerAuth(token: string): MiddlewareHandler {
  return async (c, next) => {
    checkBearer(c.req.header('authorization'), token);
    await next();
  };
}
