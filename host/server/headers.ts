/**
 * Response headers that keep other pages from embedding what this server
 * answers. The console at `/` shows "allow" buttons for pending tool calls:
 * a page that could frame it (even invisibly, under its own buttons) could
 * make the user approve a Write they never saw (clickjacking). So every
 * response forbids framing and MIME sniffing and is readable only by this
 * origin in no-cors requests (`<img>`, `<script>`), and leaves no window
 * handle to a page that opened it; the console page also
 * runs only its own script, and may only talk to this origin.
 */
import type { MiddlewareHandler } from 'hono';

const EVERY_RESPONSE: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  // A page that opened the console (window.open, a link with target) keeps no handle on it: it cannot navigate
  // the console's window elsewhere later (a look-alike asking for approvals) nor count its frames.
  'cross-origin-opener-policy': 'same-origin',
};

/** `frame-ancestors` is the modern form of `X-Frame-Options`; API responses need nothing else. */
const API_CSP = "frame-ancestors 'none'";

/** Sets the headers on one response's headers (for routes answered ahead of the app too). */
export function applySecurityHeaders(headers: Headers): void {
  for (const [name, value] of Object.entries(EVERY_RESPONSE)) headers.set(name, value);
  if (!headers.has('content-security-policy')) headers.set('content-security-policy', API_CSP);
}

/** Sets the headers on whatever the app answers (errors and not-found included), HEAD's too. */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  applySecurityHeaders(c.res.headers);
  // hono answers HEAD with `new Response(null, <the GET route's response>)`. On Node, @hono/node-server's Response
  // built that way takes the other one's original init and drops every header set since (these, CORS'): the
  // answer is rebuilt here from its headers as they are now, as an init of plain values that survives the copy.
  if (c.req.method === 'HEAD') c.res = new Response(null, { status: c.res.status, headers: new Headers(c.res.headers) });
};

/**
 * The console page's policy: its one inline script, by hash (no other
 * script, no `eval`), its inline styles, API calls to this origin only, no
 * framing, no forms posted elsewhere.
 */
export async function consoleCsp(script: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(script)));
  let binary = '';
  for (const b of digest) binary += String.fromCharCode(b);
  return [
    "default-src 'none'",
    `script-src 'sha256-${btoa(binary)}'`,
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
