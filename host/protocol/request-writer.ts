/**
 * The protobuf writer the HookRequest encoder (hook-request.ts) writes with:
 * one module-wide buffer reused call after call, and a function per field
 * kind that writes a tag and its value straight into it. One encode at a
 * time: `startWrite`, the fields, then `written` (a view of the bytes) and
 * `endWrite` (which drops an outsized buffer).
 */
import { writeJson, writeUtf8 } from './json-bytes.js';

const utf8Encoder = new TextEncoder();
/** Kept between calls; a request larger than this gets a buffer of its own that is dropped after. */
const KEEP = 16 * 1024;
let buf = new Uint8Array(1024);
let pos = 0;

/**
 * Views of `buf` by length, made once each (a subarray costs about as much
 * as encoding a short field): requests of a session come in a few lengths.
 * Only for requests that fit the first kilobyte; dropped with their buffer.
 */
let views: Uint8Array[] = [];
let viewed: ArrayBufferLike = buf.buffer;
const VIEWED = 1024;

function view(length: number): Uint8Array {
  if (length >= VIEWED) return buf.subarray(0, length);
  if (viewed !== buf.buffer) {
    views = [];
    viewed = buf.buffer;
  }
  return (views[length] ??= buf.subarray(0, length));
}

function ensure(extra: number): void {
  if (pos + extra <= buf.length) return;
  let size = buf.length * 2;
  while (size < pos + extra) size *= 2;
  const next = new Uint8Array(size);
  next.set(buf.subarray(0, pos));
  buf = next;
}

function varint(v: number): void {
  // v is a uint32 (callers pass `x >>> 0` or a length).
  while (v > 127) {
    buf[pos++] = (v & 127) | 128;
    v >>>= 7;
  }
  buf[pos++] = v;
}

const varintSize = (v: number): number => (v < 1 << 7 ? 1 : v < 1 << 14 ? 2 : v < 1 << 21 ? 3 : v < 1 << 28 ? 4 : 5);

/**
 * Strings up to this many UTF-16 units are encoded by hand: TextEncoder.encodeInto
 * costs ~0.5 µs a call in Node, most of it crossing into C++; longer ones go to it.
 */
const BY_HAND = 1024;

/** A string field; omitted when empty (proto3 default). */
export function str(tag: number, s: string | undefined): void {
  if (s === undefined || s === '') return;
  const n = s.length;
  // Most fields (ids, names, paths): short ASCII, so a one-byte length and one byte per unit.
  if (n < 128 && pos + 2 + n <= buf.length) {
    const b = buf;
    const at = pos + 2;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 127) break;
      b[at + i] = c;
    }
    if (i === n) {
      b[pos] = tag;
      b[pos + 1] = n;
      pos = at + n;
      return;
    }
  }
  const max = n * 3;
  ensure(1 + 5 + max);
  buf[pos++] = tag;
  const lenAt = pos;
  // Room for the length as if the string were ASCII (the common case): moved only if it is not.
  const reserve = varintSize(s.length);
  const written = s.length <= BY_HAND ? writeUtf8(s, buf, lenAt + reserve) - lenAt - reserve : utf8Encoder.encodeInto(s, buf.subarray(lenAt + reserve)).written;
  const need = varintSize(written);
  if (need !== reserve) buf.copyWithin(lenAt + need, lenAt + reserve, lenAt + reserve + written);
  pos = lenAt;
  varint(written);
  pos += written;
}

/** A uint32 field (protobufjs semantics: omitted when `=== 0`, written as `v >>> 0`). */
export function u32(tag: number, v: number | undefined): void {
  if (v === undefined || v === 0) return;
  ensure(6);
  buf[pos++] = tag;
  varint(v >>> 0);
}

export function bool(tag: number, v: boolean | undefined): void {
  if (!v) return;
  ensure(2);
  buf[pos++] = tag;
  buf[pos++] = 1;
}

/**
 * Opens a length-delimited sub-message (written even when empty; our tags
 * take one or two bytes): one byte is reserved for its length, and `end`
 * moves the body right in the rare case the length needs more. No closure.
 */
export function begin(tag: number): number {
  ensure(3);
  if (tag > 127) {
    buf[pos++] = (tag & 127) | 128;
    buf[pos++] = tag >>> 7;
  } else buf[pos++] = tag;
  return pos++;
}

export function finish(lenAt: number): void {
  const len = pos - lenAt - 1;
  const need = varintSize(len);
  if (need > 1) {
    ensure(need - 1);
    buf.copyWithin(lenAt + need, lenAt + 1, pos);
  }
  const after = pos + need - 1;
  pos = lenAt;
  varint(len);
  pos = after;
}

/**
 * A JSON field (`JSON.stringify(value ?? null)` as UTF-8), written straight
 * into the buffer when the value is plain data that fits in the room left
 * (json-bytes.ts); else from JSON.stringify's string, which also omits the
 * field when it gives undefined, and throws on a BigInt or a cycle, as this
 * encoder always did.
 */
export function json(tag: number, value: unknown): void {
  const v = value ?? null;
  const start = pos;
  const at = begin(tag);
  const end = writeJson(v, buf, pos);
  if (end >= 0) {
    pos = end;
    return finish(at);
  }
  pos = start;
  str(tag, JSON.stringify(v));
}


/** Starts a message at the front of the buffer. */
export function startWrite(): void {
  pos = 0;
}

/** The bytes written since `startWrite`: a view of the buffer, valid until the next write. */
export function written(): Uint8Array {
  return view(pos);
}

/** After an encode: the view keeps an outsized buffer alive only as long as its caller holds it. */
export function endWrite(): void {
  if (buf.length > KEEP) buf = new Uint8Array(1024);
}
