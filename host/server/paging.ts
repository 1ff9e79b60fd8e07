/**
 * Paging of the list routes (`GET /session`, `GET /session/:id/messages`):
 * one answer holds at most `limit` items (1000 unless the client asks for
 * fewer) and about `PAGE_BYTES` of JSON (at least one item), so a long
 * conversation, or many sessions, never becomes one response the size of
 * the store (built in memory, per request, by anyone who can ask). The
 * client follows `nextOffset` until it is absent.
 */
import type { Context } from 'hono';
import { ApiError } from './errors.js';

/** Most items on one page. */
const PAGE_LIMIT = 1000;
/** About the most JSON on one page (a single larger item still goes out alone). */
const PAGE_BYTES = 4 * 1024 * 1024;

export interface PageQuery {
  offset: number;
  limit: number;
}

function count(c: Context, name: 'offset' | 'limit', min: number, max: number, fallback: number): number {
  const all = c.req.queries(name);
  if (all !== undefined && all.length > 1) throw new ApiError('validation', `query.${name}: give it once`, `query.${name}`);
  const raw = all?.[0];
  if (raw === undefined) return fallback;
  // Digits only: no sign, exponent, hex, spaces or fractions that Number() would read.
  const value = /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new ApiError('validation', `query.${name}: must be a whole number from ${min} to ${max}`, `query.${name}`);
  }
  return value;
}

/** `?offset=` (default 0) and `?limit=` (1 to 1000, default 1000), validated. */
export function pageQuery(c: Context): PageQuery {
  return { offset: count(c, 'offset', 0, 2 ** 31 - 1, 0), limit: count(c, 'limit', 1, PAGE_LIMIT, PAGE_LIMIT) };
}

/**
 * The JSON answer `{ [key]: items on this page, total, offset, nextOffset? }`.
 * `window` holds the items from number `query.offset` on (at most `limit`
 * are looked at). Each is encoded once; the page ends at `limit` items or
 * before the one that would pass `maxBytes`.
 */
export function pageResponse(key: string, window: readonly unknown[], query: PageQuery, total: number, maxBytes = PAGE_BYTES): Response {
  const parts: string[] = [];
  let bytes = 0;
  for (let i = 0; i < window.length && parts.length < query.limit; i++) {
    const json = JSON.stringify(window[i]);
    if (parts.length > 0 && bytes + json.length > maxBytes) break;
    parts.push(json);
    bytes += json.length + 1;
  }
  const at = query.offset + parts.length;
  const next = at < total ? `,"nextOffset":${at}` : '';
  const body = `{${JSON.stringify(key)}:[${parts.join(',')}],"total":${total},"offset":${query.offset}${next}}`;
  return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
}
