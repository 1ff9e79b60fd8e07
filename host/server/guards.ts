/**
 * Checks that run before any route, against the browser as an attacker:
 *
 * - **Host** (DNS rebinding): a page on `attacker.example` whose name is
 *   re-pointed at 127.0.0.1 reaches a loopback server as same-origin, but
 *   its requests still say `Host: attacker.example`. A server bound to
 *   loopback answers only loopback `Host` values and the configured
 *   `allowedHosts`; a malformed `Host` is a 400 everywhere. A request
 *   without `Host` (HTTP/1.0, `app.request()` in tests) is not a browser's
 *   and passes.
 * - **Origin** (cross-site requests): a browser names the page that sent a
 *   request in `Origin`; anything but this server's own origin or one of
 *   `corsOrigins` is refused, `null` (sandboxed frames, `file:`) included
 *   (`corsOrigins: ['*']` lets every origin through, as it does for CORS).
 * - **Content type**: every POST must say `application/json`, empty bodies
 *   included, so that no "simple" cross-site request (text/plain, a form)
 *   can carry out an action even where `Origin` is missing.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors.js';

export interface GuardOptions {
  /** Loopback bind: only loopback Host values and `allowedHosts`. */
  loopback: boolean;
  /** Lowercase host names (no port) accepted besides loopback ones. */
  allowedHosts: readonly string[];
  corsOrigins: readonly string[];
}

// name or [IPv6], then an optional port. Anything else (spaces, %, userinfo, paths) is malformed.
const HOST = /^(?:(\[[0-9a-f:.]+\])|([a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?\.?))(?::(\d{1,5}))?$/i;
const IPV4_LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The host name of a `Host` header value (lowercase, no trailing dot), or undefined when malformed. */
function hostName(value: string): string | undefined {
  const m = HOST.exec(value);
  if (!m) return undefined;
  if (m[3] !== undefined && (Number(m[3]) > 65535 || Number(m[3]) === 0)) return undefined;
  return (m[1] ?? (m[2] as string)).toLowerCase().replace(/\.$/, '');
}

/** `localhost`, `127.x.y.z` or `[::1]`: names a browser can only resolve to this machine. */
function isLoopbackHost(name: string): boolean {
  if (name === 'localhost' || name === '[::1]') return true;
  const v4 = IPV4_LOOPBACK.exec(name);
  return v4 !== null && v4.slice(1).every((octet) => Number(octet) <= 255);
}

/** The Host and Origin checks (before auth, and before the console page): throws the API's refusal. */
export function hostAndOriginCheck(options: GuardOptions): (host: string | undefined, origin: string | undefined) => void {
  const allowed = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  const origins = new Set(options.corsOrigins);
  return (host, origin) => {
    if (host !== undefined && host !== '') {
      const name = hostName(host);
      if (name === undefined) throw new ApiError('bad_request', `malformed Host header ${JSON.stringify(host.slice(0, 100))}`);
      if (options.loopback && !isLoopbackHost(name) && !allowed.has(name)) {
        throw new ApiError(
          'forbidden',
          `Host ${name} is not served here: this loopback server answers localhost, 127.0.0.1 and [::1]` +
            ' (add the name to the allowedHosts option to serve it, e.g. behind a proxy)',
        );
      }
    }
    if (origin !== undefined && !origins.has('*') && !origins.has(origin) && !sameOrigin(origin, host)) {
      throw new ApiError('forbidden', `Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed; list it in the corsOrigins option`);
    }
  };
}

/** `hostAndOriginCheck` as the middleware every route passes. */
export function hostAndOrigin(options: GuardOptions): MiddlewareHandler {
  const check = hostAndOriginCheck(options);
  return async (c, next) => {
    check(c.req.header('host'), c.req.header('origin'));
    await next();
  };
}

/** Every POST says `application/json` (after auth, so a stranger learns nothing but 401). */
export const jsonPosts: MiddlewareHandler = async (c, next) => {
  if (c.req.method === 'POST' && !/^application\/json\s*(?:;|$)/i.test(c.req.header('content-type') ?? '')) {
    throw new ApiError('unsupported_media_type', 'POST bodies must be JSON: send "Content-Type: application/json" (with {} for an empty body)');
  }
  await next();
};

function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  const m = /^https?:\/\/([^/]+)$/i.exec(origin);
  return m !== null && (m[1] as string).toLowerCase() === host.toLowerCase();
}
