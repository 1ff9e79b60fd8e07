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
import { HOOK_EVENT_NAMES } from '../hooks/types.js';

const utf8 = new TextEncoder();
/** The protocol's HookEvent value of each event (its index in HOOK_EVENT_NAMES, plus one). */
const EVENT_WIRE = Object.fromEntries(HOOK_EVENT_NAMES.map((name, i) => [name, i + 1])) as Record<HookInput['hook_event_name'], number>;
/** Kept between calls; a request larger than this gets a buffer of its own that is dropped after. */
const KEEP = 16 * 1024;
let buf = new Uint8Array(1024);
let pos = 0;

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

/** Short strings are copied by hand when ASCII: TextEncoder.encodeInto costs ~0.5 µs a call in Node, most of it crossing into C++. */
const SHORT = 64;

/** Writes `s` at `at` if it is all ASCII; returns the bytes written, or -1. */
function ascii(s: string, at: number): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 127) return -1;
    buf[at + i] = c;
  }
  return s.length;
}

/** A string field; omitted when empty (proto3 default). */
function str(tag: number, s: string | undefined): void {
  if (s === undefined || s === '') return;
  const max = s.length * 3;
  ensure(1 + 5 + max);
  buf[pos++] = tag;
  const lenAt = pos;
  const reserve = varintSize(max);
  let written = s.length <= SHORT ? ascii(s, lenAt + reserve) : -1;
  if (written < 0) written = utf8.encodeInto(s, buf.subarray(lenAt + reserve)).written;
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

function end(lenAt: number): void {
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

const json = (value: unknown): string => JSON.stringify(value ?? null);
const wireMs = (ms: number): number => Math.min(Math.max(0, Math.round(ms)), 0xffffffff);

/** Event, context and binding index: fields 1–3, ahead of the payload. */
function head(c: HookCommon & { hook_event_name: HookInput['hook_event_name'] }, bindingIndex: number, toolUseId?: string): void {
  u32(8, EVENT_WIRE[c.hook_event_name]);
  const at = begin(18);
  str(10, c.session_id);
  u32(16, c.turn);
  u32(24, c.iteration);
  str(34, c.agent_id);
  str(42, c.cwd);
  str(50, toolUseId);
  str(58, c.permission_mode);
  str(66, c.transcript_path);
  end(at);
  u32(24, bindingIndex);
}

function toolCall(c: HookToolCall): void {
  const at = begin(10);
  str(10, c.tool_use_id);
  str(18, c.tool_name);
  str(26, json(c.tool_input));
  if (c.tool_response !== undefined) {
    str(34, json(c.tool_response));
    bool(40, c.is_error === true);
  }
  end(at);
}

function body(input: HookInput, b: number): void {
  let at: number;
  switch (input.hook_event_name) {
    case 'SessionStart':
    case 'SessionEnd':
      head(input, b);
      at = begin(82);
      str(10, input.reason);
      return end(at);
    case 'UserPromptSubmit':
      head(input, b);
      at = begin(90);
      str(10, input.prompt);
      return end(at);
    case 'IterationStart':
      return head(input, b);
    case 'PreToolBatch':
    case 'PostToolBatch':
      head(input, b);
      at = begin(114);
      for (const c of input.tool_calls) toolCall(c);
      return end(at);
    case 'PreToolUse':
    case 'PermissionRequest':
      head(input, b, input.tool_use_id);
      at = begin(98);
      str(10, input.tool_name);
      str(18, json(input.tool_input));
      return end(at);
    case 'PostToolUse':
      head(input, b, input.tool_use_id);
      at = begin(106);
      str(10, input.tool_name);
      str(18, json(input.tool_input));
      str(26, json(input.tool_response));
      u32(40, wireMs(input.duration_ms ?? 0));
      return end(at);
    case 'PostToolUseFailure':
      head(input, b, input.tool_use_id);
      at = begin(106);
      str(10, input.tool_name);
      str(18, json(input.tool_input));
      str(26, input.tool_response === undefined ? '' : json(input.tool_response));
      str(34, input.error);
      u32(40, wireMs(input.duration_ms ?? 0));
      return end(at);
    case 'Stop':
    case 'StopFailure':
      head(input, b);
      at = begin(122);
      bool(8, input.stop_hook_active);
      str(18, input.last_assistant_message);
      if (input.hook_event_name === 'StopFailure') str(26, input.error);
      return end(at);
    case 'SubagentStart':
    case 'SubagentStop':
      head(input, b);
      at = begin(130);
      str(10, input.agent_id ?? '');
      str(18, input.agent_type);
      str(26, input.prompt);
      if (input.hook_event_name === 'SubagentStop') str(34, input.result);
      return end(at);
    case 'PreCompact':
    case 'PostCompact':
      head(input, b);
      at = begin(138);
      str(10, input.trigger);
      u32(16, input.tokens_before);
      if (input.hook_event_name === 'PostCompact') u32(24, input.tokens_after);
      return end(at);
    case 'Notification':
      head(input, b);
      at = begin(146);
      str(10, input.message);
      str(18, input.level);
      return end(at);
    case 'Error':
      head(input, b);
      at = begin(154);
      str(10, input.code);
      str(18, input.message);
      return end(at);
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
    return buf.subarray(0, pos);
  } finally {
    // The view keeps an outsized buffer alive only as long as its caller holds it.
    if (buf.length > KEEP) buf = new Uint8Array(1024);
  }
}
