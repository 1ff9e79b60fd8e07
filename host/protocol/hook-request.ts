/**
 * `HookInput` → `wasmhooks.v1.HookRequest` bytes, written straight into one
 * reused buffer: no intermediate wire object, no protobufjs writer ops. This
 * is the encoding every WASM hook call pays, so it is kept allocation-free
 * but for the returned copy (one Uint8Array of the exact size per call), or
 * the returned view (`encodeHookInputView`, the hot path).
 *
 * Bytes are identical to protobufjs's `HookRequest.encode(toWireRequest(…))`
 * (proto3: fields at their default are omitted; a present sub-message is
 * written even when empty); test/protocol/hook-request.test.ts checks that for
 * every event. Strings are UTF-8 via TextEncoder (a lone surrogate becomes
 * U+FFFD, as Node's Buffer does).
 */
import type { HookCommon, HookInput, HookToolCall } from '../hooks/types.js';
import { eventToWire } from './events.js';
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
function str(tag: number, s: string | undefined): void {
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
function u32(tag: number, v: number | undefined): void {
  if (v === undefined || v === 0) return;
  ensure(6);
  buf[pos++] = tag;
  varint(v >>> 0);
}

function bool(tag: number, v: boolean | undefined): void {
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
function begin(tag: number): number {
  ensure(3);
  if (tag > 127) {
    buf[pos++] = (tag & 127) | 128;
    buf[pos++] = tag >>> 7;
  } else buf[pos++] = tag;
  return pos++;
}

function finish(lenAt: number): void {
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
function json(tag: number, value: unknown): void {
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

const wireMs = (ms: number): number => Math.min(Math.max(0, Math.round(ms)), 0xffffffff);

/** Event, context and binding index: fields 1–3, ahead of the payload. */
function head(c: HookCommon & { hook_event_name: HookInput['hook_event_name'] }, bindingIndex: number, toolUseId?: string): void {
  u32(8, eventToWire(c.hook_event_name));
  const at = begin(18);
  str(10, c.session_id);
  u32(16, c.turn);
  u32(24, c.iteration);
  str(34, c.agent_id);
  str(42, c.cwd);
  str(50, toolUseId);
  str(58, c.permission_mode);
  str(66, c.transcript_path);
  finish(at);
  u32(24, bindingIndex);
}

function toolCall(c: HookToolCall): void {
  const at = begin(10);
  str(10, c.tool_use_id);
  str(18, c.tool_name);
  json(26, c.tool_input);
  if (c.tool_response !== undefined) {
    json(34, c.tool_response);
    bool(40, c.is_error === true);
  }
  finish(at);
}

function body(input: HookInput, b: number): void {
  let at: number;
  switch (input.hook_event_name) {
    case 'SessionStart':
    case 'SessionEnd':
      head(input, b);
      at = begin(82);
      str(10, input.reason);
      return finish(at);
    case 'UserPromptSubmit':
      head(input, b);
      at = begin(90);
      str(10, input.prompt);
      return finish(at);
    case 'IterationStart':
      return head(input, b);
    case 'PreToolBatch':
    case 'PostToolBatch':
      head(input, b);
      at = begin(114);
      for (const c of input.tool_calls) toolCall(c);
      return finish(at);
    case 'PreToolUse':
    case 'PermissionRequest':
      head(input, b, input.tool_use_id);
      at = begin(98);
      str(10, input.tool_name);
      json(18, input.tool_input);
      if (input.hook_event_name === 'PreToolUse') bool(24, input.recheck === true);
      return finish(at);
    case 'PostToolUse':
      head(input, b, input.tool_use_id);
      at = begin(106);
      str(10, input.tool_name);
      json(18, input.tool_input);
      json(26, input.tool_response);
      u32(40, wireMs(input.duration_ms ?? 0));
      return finish(at);
    case 'PostToolUseFailure':
      head(input, b, input.tool_use_id);
      at = begin(106);
      str(10, input.tool_name);
      json(18, input.tool_input);
      if (input.tool_response !== undefined) json(26, input.tool_response);
      str(34, input.error);
      u32(40, wireMs(input.duration_ms ?? 0));
      return finish(at);
    case 'Stop':
    case 'StopFailure':
      head(input, b);
      at = begin(122);
      bool(8, input.stop_hook_active);
      str(18, input.last_assistant_message);
      if (input.hook_event_name === 'StopFailure') str(26, input.error);
      return finish(at);
    case 'SubagentStart':
    case 'SubagentStop':
      head(input, b);
      at = begin(130);
      str(10, input.agent_id ?? '');
      str(18, input.agent_type);
      str(26, input.prompt);
      if (input.hook_event_name === 'SubagentStop') str(34, input.result);
      return finish(at);
    case 'PreCompact':
    case 'PostCompact':
      head(input, b);
      at = begin(138);
      str(10, input.trigger);
      u32(16, input.tokens_before);
      if (input.hook_event_name === 'PostCompact') u32(24, input.tokens_after);
      return finish(at);
    case 'Notification':
      head(input, b);
      at = begin(146);
      str(10, input.message);
      str(18, input.level);
      return finish(at);
    case 'Error':
      head(input, b);
      at = begin(154);
      str(10, input.code);
      str(18, input.message);
      return finish(at);
    default: {
      const unreachable: never = input;
      throw new Error(`unhandled hook event ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The `hook` export's input for one hook input and binding. */
export function encodeHookInput(input: HookInput, bindingIndex: number): Uint8Array {
  return encodeHookInputView(input, bindingIndex).slice();
}

/**
 * The same bytes, as a view of the encoder's own buffer: valid until the
 * next encode, so only for a caller that hands them on at once (a sandbox
 * call with `borrowed: true`, which copies them if it cannot read them
 * before returning). Saves the copy's allocation, which costs more than the
 * encoding itself.
 */
export function encodeHookInputView(input: HookInput, bindingIndex: number): Uint8Array {
  pos = 0;
  try {
    body(input, bindingIndex);
    return view(pos);
  } finally {
    // The view keeps an outsized buffer alive only as long as its caller holds it.
    if (buf.length > KEEP) buf = new Uint8Array(1024);
  }
}
