/**
 * Bearer-token auth. Both sides of the comparison are SHA-256 digests: the
 * work per request depends on neither the configured token's bytes nor its
 * length (review red18: the loop ran over the token's bytes, and reading past
 * a shorter guess took another path, so response times told the length), and
 * the token itself is hashed once, when the check is built.
 *
 * Why not `hono/bearer-auth`: it accepts only tokens of the RFC 6750
 * token68 alphabet (a configured token with other characters could never
 * match, silently), and it answers with its own plain-text bodies and
 * `WWW-Authenticate` variants; ours accepts any configured token (checked
 * once at start-up: at least 16 characters, no surrounding whitespace) and
 * answers with the API's one JSON error shape.
 */
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors.js';

const digest = (text: string): Uint8Array => createHash('sha256').update(text, 'utf8').digest();

/** Equality of two 32-byte digests, in the same time wherever they differ. */
function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/** String equality whose time depends on neither string's content nor on the length of `expected`. */
export function safeEqual(given: string, expected: string): boolean {
  return sameDigest(digest(given), digest(expected));
}

/** Checks an `Authorization` header against `token` (hashed here, once); throws the API's 401 unless it is `Bearer <token>`. */
export function bearerCheck(token: string): (header: string | undefined) => void {
  const expected = digest(token);
  return (header) => {
    const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
    if (!match || !sameDigest(digest((match[1] as string).trim()), expected)) {
      throw new ApiError('unauthorized', 'missing or wrong bearer token: send "Authorization: Bearer <token>"');
    }
  };
}

/** Requires `Authorization: Bearer <token>` on every route it guards. */
export function bearerAuth(token: string): MiddlewareHandler {
  const check = bearerCheck(token);
  return async (c, next) => {
    check(c.req.header('authorization'));
    await next();
  };
}
