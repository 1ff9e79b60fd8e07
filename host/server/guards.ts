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
 * - **Fetch metadata** (cross-site embedding): `<img>`, `<script>`,
 *   `<iframe>` and `fetch(…, { mode: 'no-cors' })` GETs carry no `Origin`,
 *   but every current browser says where they come from in
 *   `Sec-Fetch-Site`. One from another site (`cross-site`, or `same-site`:
 *   another port of the same host) is refused unless it is a top-level
 *   navigation (the user following a link to the console), so no other
 *   page can frame the console (clickjacking an "allow") or open streams
 *   here. Older browsers are held off by the headers in `headers.ts`.
 * - **Content type**: every POST must say `application/json`, empty bodies
 *   included, so that no "simple" cross-site request (text/plain, a form)
 *   can carry out an action even where `Origin` is missing; in UTF-8 and
 *   uncompressed, as the body is read.
 */
import type { MiddlewareHandler } from 'hono';
import { v4Number } from '../plugins/ip-address.js';
import { UPGRADE_REFUSED } from '../runtime/serve-types.js';
import { ApiError } from './errors.js';
import { isLoopback, type ResolvedServerOptions } from './options.js';

interface GuardOptions {
  /** Loopback bind: only loopback Host values and `allowedHosts`. */
  loopback: boolean;
  /** Lowercase host names (no port) accepted besides loopback ones. */
  allowedHosts: readonly string[];
  corsOrigins: readonly string[];
}

// name or [IPv6], then an optional port. Anything else (spaces, %, userinfo, paths) is malformed.
const HOST = /^(?:(\[[0-9a-f:.]+\])|([a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?\.?))(?::(\d{1,5}))?$/i;

/** The host name of a `Host` header value (lowercase, no trailing dot), or undefined when malformed. */
function hostName(value: string): string | undefined {
  const m = HOST.exec(value);
  if (!m) return undefined;
  if (m[3] !== undefined && (Number(m[3]) > 65535 || Number(m[3]) === 0)) return undefined;
  return (m[1] ?? (m[2] as string)).toLowerCase().replace(/\.$/, '');
}

/** `localhost`, `127.x.y.z` or `[::1]`: names a browser can only resolve to this machine. */
export function isLoopbackHost(name: string): boolean {
  if (name === 'localhost' || name === '[::1]') return true;
  const v4 = v4Number(name);
  return v4 !== undefined && v4 >>> 24 === 127;
}

/** The Host and Origin checks (before auth, and before the console page): throws the API's refusal. */
function hostAndOriginCheck(options: GuardOptions): (host: string | undefined, origin: string | undefined) => void {
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

/**
 * Every POST says `application/json` (after auth, so a stranger learns
 * nothing but 401), in UTF-8 and with no content coding: a body declared in
 * another charset or compressed would be read as plain UTF-8 all the same,
 * i.e. not as its sender meant it.
 */
export const jsonPosts: MiddlewareHandler = async (c, next) => {
  if (c.req.method === 'POST') {
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/json\s*(?:;|$)/i.test(type)) {
      throw new ApiError('unsupported_media_type', 'POST bodies must be JSON: send "Content-Type: application/json" (with {} for an empty body)');
    }
    // Every charset parameter, not the first: `charset=utf-8;charset=utf-16` means one thing to us and another to a reader that takes the last.
    const charsets = [...type.matchAll(/;\s*charset\s*=\s*"?([^";\s]*)/gi)].map((m) => m[1] as string);
    if (charsets.length > 1) {
      throw new ApiError('unsupported_media_type', 'the Content-Type names its charset more than once; send one charset=utf-8, or none');
    }
    const charset = charsets[0];
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
      throw new ApiError('unsupported_media_type', `POST bodies are read as UTF-8; charset ${JSON.stringify(charset.slice(0, 40))} is not accepted (send charset=utf-8 or none)`);
    }
    contentCodingCheck(c.req.header('content-encoding'));
  }
  await next();
};

/**
 * A body declared compressed (`Content-Encoding: gzip`, `br`, `deflate`, several): no runtime here decodes a
 * request body, so it was read as sent (review rhttp). Plain JSON labelled gzip was taken as JSON, while a proxy
 * or filter in front that decodes by the label (and lets through what does not decode) saw something else; gzip
 * bytes were "not valid UTF-8". As with another charset: 415, saying what to send (RFC 9110 8.4.1).
 */
function contentCodingCheck(coding: string | undefined): void {
  if (coding === undefined || /^\s*(?:identity\s*)?$/i.test(coding)) return;
  throw new ApiError(
    'unsupported_media_type',
    `POST bodies are read as sent; Content-Encoding ${JSON.stringify(coding.slice(0, 40))} is not accepted (send the JSON uncompressed, without Content-Encoding)`,
  );
}

function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  const m = /^https?:\/\/([^/]+)$/i.exec(origin);
  return m !== null && (m[1] as string).toLowerCase() === host.toLowerCase();
}

/**
 * The fetch-metadata check (see the top of this file): throws the API's
 * 403 for a request another site embeds.
 */
function crossSiteCheck(options: Pick<GuardOptions, 'corsOrigins'>): RequestCheck {
  const any = options.corsOrigins.includes('*');
  return (method, header) => {
    const site = header('sec-fetch-site');
    // Fail closed: only the two values that mean "not another site" pass. A value a browser never sends
    // (`same-origin, cross-site`, two headers joined) counts as cross-site, not as unknown and harmless.
    if (any || site === undefined || site === 'same-origin' || site === 'none' || header('origin') !== undefined) return;
    const dest = header('sec-fetch-dest') ?? '';
    if ((method === 'GET' || method === 'HEAD') && header('sec-fetch-mode') === 'navigate' && dest === 'document') return;
    throw new ApiError(
      'forbidden',
      `a request embedded by another site (Sec-Fetch-Site: ${site}, Sec-Fetch-Dest: ${JSON.stringify(dest.slice(0, 40))}) is refused;` +
        ' open this server directly, or call it with fetch from an origin listed in corsOrigins',
    );
  };
}

/**
 * A GET, HEAD or TRACE that declares a body: nothing here reads it (fetch
 * gives such a request no body), but the runtime would, as slowly as it is
 * sent, to reuse the connection (a slowloris past `bodyTimeoutMs`; TRACE on
 * Bun until review red10). Refused, and the connection closed.
 */
function bodylessCheck(method: string, header: (name: string) => string | undefined): void {
  if (method !== 'GET' && method !== 'HEAD' && method !== 'TRACE') return;
  if (header('transfer-encoding') === undefined && !(Number(header('content-length') ?? 0) > 0)) return;
  throw new ApiError('bad_request', `a ${method} request carries no body: send it without Content-Length or Transfer-Encoding`, undefined, true);
}

/**
 * A request asking to switch protocols (`Connection: upgrade` with `Upgrade`: a WebSocket or h2c attempt). Nothing
 * here speaks another protocol, and Node's parser stops reading the connection at such a request: the requests
 * pipelined behind it were never answered and the socket was held open (review red18). Refused on every runtime,
 * and the connection closed, so a client learns why on each.
 */
function upgradeCheck(header: (name: string) => string | undefined): void {
  if (header('upgrade') === undefined || !/(?:^|,)\s*upgrade\s*(?:,|$)/i.test(header('connection') ?? '')) return;
  throw new ApiError('bad_request', UPGRADE_REFUSED, undefined, true);
}

/** A check of a request, by its method and a reader of its headers by name; throws the API's refusal. */
type RequestCheck = (method: string, header: (name: string) => string | undefined) => void;

/** The longest request target (path and query) served, in characters: far past any route's, Node's own cut is 16 KiB of head. */
export const MAX_TARGET_CHARS = 8192;
/** The most query parameters a request may carry: a route reads at most four. */
export const MAX_QUERY_PARAMS = 64;

/**
 * The request target's size (review red18): each runtime bounded it differently (Node 16 KiB of head, Bun 431
 * without a body, Deno 64 KiB), and every query parameter read parsed the whole query again. A longer target is
 * `414 uri_too_long`, more parameters `400`, on every runtime, before anything reads them.
 */
export function targetCheck(url: string): void {
  const start = url.startsWith('/') ? 0 : url.indexOf('/', url.indexOf('//') + 2);
  const length = start < 0 ? 0 : url.length - start;
  if (length > MAX_TARGET_CHARS) {
    throw new ApiError('uri_too_long', `the request target is ${length} characters, over the ${MAX_TARGET_CHARS} served: send data in a POST body`);
  }
  const query = url.indexOf('?', start);
  if (query < 0) return;
  let params = 1;
  for (let at = url.indexOf('&', query); at >= 0; at = url.indexOf('&', at + 1)) params++;
  if (params > MAX_QUERY_PARAMS) throw new ApiError('validation', `the query holds ${params} parameters, over the ${MAX_QUERY_PARAMS} accepted`, 'query');
}

/**
 * The browser checks of the control plane, in their order: Host and Origin,
 * then fetch metadata (which relies on `Origin` having been judged), then
 * no body on a GET or HEAD. One
 * function for the app's middleware (`browserGuards`) and the SSE route
 * answered ahead of the app (sse.ts), so the two cannot drift apart.
 */
export function browserChecks(options: Pick<ResolvedServerOptions, 'hostname' | 'allowedHosts' | 'corsOrigins'>): RequestCheck {
  const hostAndOrigin = hostAndOriginCheck({ loopback: isLoopback(options.hostname), allowedHosts: options.allowedHosts, corsOrigins: options.corsOrigins });
  const crossSite = crossSiteCheck(options);
  return (method, header) => {
    hostAndOrigin(header('host'), header('origin'));
    crossSite(method, header);
    bodylessCheck(method, header);
    upgradeCheck(header);
  };
}

/** `browserChecks` as the middleware every route of the app passes (before auth, and before the console page). */
export function browserGuards(options: Pick<ResolvedServerOptions, 'hostname' | 'allowedHosts' | 'corsOrigins'>): MiddlewareHandler {
  const check = browserChecks(options);
  return async (c, next) => {
    targetCheck(c.req.url);
    check(c.req.method, (name) => c.req.header(name));
    await next();
  };
}
