/**
 * Text written straight into a byte buffer as UTF-8 (`writeUtf8`), and the
 * JSON text of plain data the same way (`writeJson`):
 * the bytes `TextEncoder` gives for `JSON.stringify(value)`, without the
 * string in between. Every WASM hook call on a tool event sends its tool
 * input (and output) as JSON; stringifying and then copying the string cost
 * more than the rest of the request's encoding together.
 *
 * Plain data only, which is what tool inputs and outputs are (parsed JSON):
 * null, booleans, numbers, strings, arrays, and objects whose prototype is
 * `Object.prototype` or null. Anything else (a `toJSON` method, a class
 * instance, a Map, a boxed primitive, a BigInt, a function or symbol at the
 * top, nesting deeper than `MAX_DEPTH`, which a cycle reaches) is declined,
 * and the caller falls back to `JSON.stringify`, whose output or error is
 * then the answer. test/protocol/json-bytes.test.ts holds the two to each
 * other, byte for byte.
 */

/** The value is not plain data (see above): use JSON.stringify. */
export const DECLINED = -1;
/** The buffer has no room left (the caller writes it another way, or again into a larger buffer). */
export const FULL = -2;
/** Deeper than this is declined (JSON.stringify then finds a cycle, or writes what we would have). */
const MAX_DEPTH = 64;

const HEX = '0123456789abcdef';
/** The short escapes JSON.stringify uses for control characters (b t n f r); 0: the others are \u00xx. */
const SHORT_ESCAPE = new Uint8Array(32);
SHORT_ESCAPE.set([98, 116, 110], 8);
SHORT_ESCAPE.set([102, 114], 12);

/**
 * Writes `value`'s JSON at `buf[pos]` and returns the end position, or
 * `DECLINED` or `FULL`. Undefined (the caller's `value ?? null` aside),
 * functions and symbols inside arrays become `null` and inside objects drop
 * their key, as in JSON.stringify. Reads each property once per attempt (a
 * getter runs again only if the write is retried, or declined midway).
 */
export function writeJson(value: unknown, buf: Uint8Array, pos: number): number {
  return write(value, buf, pos, 0);
}

function write(value: unknown, buf: Uint8Array, pos: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return writeString(value, buf, pos);
    case 'number':
      return writeNumber(value, buf, pos);
    case 'boolean':
      return value ? ascii('true', buf, pos) : ascii('false', buf, pos);
    case 'object':
      if (value === null) return ascii('null', buf, pos);
      if (depth >= MAX_DEPTH) return DECLINED;
      if (Array.isArray(value)) return writeArray(value, buf, pos, depth);
      return writeObject(value, buf, pos, depth);
    default:
      // undefined, a function or a symbol at the top (JSON.stringify gives undefined), a BigInt (it throws).
      return DECLINED;
  }
}

function writeArray(list: unknown[], buf: Uint8Array, pos: number, depth: number): number {
  if (typeof (list as { toJSON?: unknown }).toJSON === 'function' || Object.getPrototypeOf(list) !== Array.prototype) return DECLINED;
  if (pos >= buf.length) return FULL;
  buf[pos++] = 0x5b; // [
  for (let i = 0; i < list.length; i++) {
    if (i > 0) {
      if (pos >= buf.length) return FULL;
      buf[pos++] = 0x2c; // ,
    }
    const item = list[i];
    const t = typeof item;
    pos = item === undefined || t === 'function' || t === 'symbol' ? ascii('null', buf, pos) : write(item, buf, pos, depth + 1);
    if (pos < 0) return pos;
  }
  if (pos >= buf.length) return FULL;
  buf[pos++] = 0x5d; // ]
  return pos;
}

function writeObject(object: object, buf: Uint8Array, pos: number, depth: number): number {
  const proto: unknown = Object.getPrototypeOf(object);
  if ((proto !== Object.prototype && proto !== null) || typeof (object as { toJSON?: unknown }).toJSON === 'function') return DECLINED;
  if (pos >= buf.length) return FULL;
  buf[pos++] = 0x7b; // {
  let first = true;
  const keys = Object.keys(object);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = (object as Record<string, unknown>)[key];
    const t = typeof item;
    if (item === undefined || t === 'function' || t === 'symbol') continue;
    if (!first) {
      if (pos >= buf.length) return FULL;
      buf[pos++] = 0x2c; // ,
    }
    first = false;
    pos = writeString(key, buf, pos);
    if (pos < 0) return pos;
    if (pos >= buf.length) return FULL;
    buf[pos++] = 0x3a; // :
    pos = write(item, buf, pos, depth + 1);
    if (pos < 0) return pos;
  }
  if (pos >= buf.length) return FULL;
  buf[pos++] = 0x7d; // }
  return pos;
}

function writeNumber(n: number, buf: Uint8Array, pos: number): number {
  if (!Number.isFinite(n)) return ascii('null', buf, pos);
  // Small integers digit by digit (no string); -0 comes out as 0, as in JSON.stringify.
  if (Number.isInteger(n) && n > -0x80000000 && n < 0x80000000) {
    if (pos + 11 > buf.length) return FULL;
    let v = n;
    if (v < 0) {
      buf[pos++] = 0x2d;
      v = -v;
    }
    let digits = 1;
    for (let x = v; x >= 10; x = (x / 10) | 0) digits++;
    for (let i = pos + digits - 1; i >= pos; i--) {
      buf[i] = 0x30 + (v % 10);
      v = (v / 10) | 0;
    }
    return pos + digits;
  }
  return ascii(String(n), buf, pos);
}

/** An ASCII-only text, as is. */
function ascii(text: string, buf: Uint8Array, pos: number): number {
  if (pos + text.length > buf.length) return FULL;
  for (let i = 0; i < text.length; i++) buf[pos++] = text.charCodeAt(i);
  return pos;
}

/** A JSON string literal: the escapes JSON.stringify writes, everything else as UTF-8. */
function writeString(s: string, buf: Uint8Array, pos: number): number {
  // At most 6 bytes per UTF-16 unit (\uXXXX), plus the quotes.
  if (pos + 6 * s.length + 2 > buf.length) return FULL;
  buf[pos++] = 0x22;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
        buf[pos++] = c;
        continue;
      }
      buf[pos++] = 0x5c; // \
      if (c === 0x22 || c === 0x5c) buf[pos++] = c;
      else if (SHORT_ESCAPE[c]! !== 0) buf[pos++] = SHORT_ESCAPE[c]!;
      else pos = unicodeEscape(c, buf, pos);
    } else if (c < 0x800) {
      buf[pos++] = 0xc0 | (c >> 6);
      buf[pos++] = 0x80 | (c & 63);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        buf[pos++] = 0xf0 | (cp >> 18);
        buf[pos++] = 0x80 | ((cp >> 12) & 63);
        buf[pos++] = 0x80 | ((cp >> 6) & 63);
        buf[pos++] = 0x80 | (cp & 63);
        i++;
      } else {
        // A lone surrogate: JSON.stringify escapes it (well-formed JSON.stringify).
        buf[pos++] = 0x5c;
        pos = unicodeEscape(c, buf, pos);
      }
    } else {
      buf[pos++] = 0xe0 | (c >> 12);
      buf[pos++] = 0x80 | ((c >> 6) & 63);
      buf[pos++] = 0x80 | (c & 63);
    }
  }
  buf[pos++] = 0x22;
  return pos;
}

/** `uXXXX` (lowercase hex, as JSON.stringify writes it), after the backslash. */
function unicodeEscape(c: number, buf: Uint8Array, pos: number): number {
  buf[pos++] = 0x75;
  buf[pos++] = HEX.charCodeAt((c >> 12) & 15);
  buf[pos++] = HEX.charCodeAt((c >> 8) & 15);
  buf[pos++] = HEX.charCodeAt((c >> 4) & 15);
  buf[pos++] = HEX.charCodeAt(c & 15);
  return pos;
}

/**
 * Writes `s` as UTF-8 at `buf[at]` (the caller leaves room for 3 bytes per
 * UTF-16 unit), as TextEncoder does: a lone surrogate becomes U+FFFD.
 * Returns the end position. For short strings, where TextEncoder.encodeInto's
 * crossing into the runtime costs more than the bytes.
 */
export function writeUtf8(s: string, buf: Uint8Array, at: number): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) buf[at++] = c;
    else if (c < 0x800) {
      buf[at++] = 0xc0 | (c >> 6);
      buf[at++] = 0x80 | (c & 63);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        buf[at++] = 0xf0 | (cp >> 18);
        buf[at++] = 0x80 | ((cp >> 12) & 63);
        buf[at++] = 0x80 | ((cp >> 6) & 63);
        buf[at++] = 0x80 | (cp & 63);
        i++;
      } else {
        buf[at++] = 0xef;
        buf[at++] = 0xbf;
        buf[at++] = 0xbd;
      }
    } else {
      buf[at++] = 0xe0 | (c >> 12);
      buf[at++] = 0x80 | ((c >> 6) & 63);
      buf[at++] = 0x80 | (c & 63);
    }
  }
  return at;
}
