/**
 * Bearer-token auth. The comparison walks the *given* bytes only, each
 * against the configured token's byte at the same place (cycling): its time
 * depends on the guess, which the client knows, never on the token's bytes
 * or length (review red18: the loop ran over the token's bytes, and reading
 * past a shorter guess took another path, so response times told the
 * length). Web-standard (no node:crypto), as the server entry must be; the
 * token is encoded once, when the check is built.
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

/** Whether `given` is `expected`, in time that depends only on `given`'s length. */
function sameBytes(given: Uint8Array, expected: Uint8Array): boolean {
  const n = expected.length || 1;
  let diff = given.length ^ expected.length;
  for (let i = 0; i < given.length; i++) diff |= (given[i] as number) ^ (expected[i % n] ?? 0);
  return diff === 0;
}

/** String equality whose time depends on neither string's content nor on the length of `expected`. */
export function safeEqual(given: string, expected: string): boolean {
  return sameBytes(encoder.encode(given), encoder.encode(expected));
}

/** Checks an `Authorization` header against `token` (hashed here, once); throws the API's 401 unless it is `Bearer <token>`. */
export function bearerCheck(token: string): (header: string | undefined) => void {
  const expected = encoder.encode(token);
  return (header) => {
    const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
    if (!match || !sameBytes(encoder.encode((match[1] as string).trim()), expected)) {
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
