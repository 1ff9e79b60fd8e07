/**
 * The messages that still go through protobufjs's generated code: tool calls
 * (`ToolRequest` → `ToolResponse`), and encoders for test fixtures and
 * tooling. Nothing on a guard's path (`import 'wasmhooks'` → load → hook call)
 * imports this module: a plugin loads it at its first tool call
 * (plugins/plugin.ts), so protobufjs and its ~200 KB of generated code stay
 * off the cold start. protobufjs remains the reference the hand-written
 * readers are tested against (test/protocol/*.fuzz.test.ts).
 */
import { wasmhooks } from './gen/hooks.js';
import { decodeWith, type Decoded, type ToolResponse, type WireHookRequest, type WireToolRequest } from './codec.js';

const v1 = wasmhooks.v1;

/** Encodes a HookRequest with the generated code (the reference that hook-request.ts's writer is tested against). */
export function encodeHookRequest(request: WireHookRequest): Uint8Array {
  return v1.HookRequest.encode(request).finish();
}

/** A surrogate without its pair. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const wellFormed = (s: string | null | undefined): string | null | undefined => (typeof s === 'string' ? s.replace(LONE_SURROGATE, '\ufffd') : s);

/**
 * protobufjs writes a lone surrogate as its three-byte form, which is not UTF-8: its own reader
 * refuses such a string field, and so do the guest SDKs. Written as U+FFFD instead, as the
 * HookRequest writer (TextEncoder) does.
 */
export function encodeToolRequest(request: WireToolRequest): Uint8Array {
  const context = request.context ? Object.fromEntries(Object.entries(request.context).map(([k, v]) => [k, typeof v === 'string' ? wellFormed(v) : v])) : request.context;
  return v1.ToolRequest.encode({ ...request, name: wellFormed(request.name), inputJson: wellFormed(request.inputJson), context }).finish();
}

export function decodeToolResponse(bytes: Uint8Array): Decoded<ToolResponse> {
  const decoded = decodeWith('tool output', bytes, (b) => v1.ToolResponse.decode(b));
  if (!decoded.ok) return decoded;
  return { ok: true, value: { content: decoded.value.content ?? '', isError: decoded.value.isError ?? false } };
}

/** Encodes a PluginInfo (test fixtures and tooling; plugins use the guest SDK). */
export function encodePluginInfo(info: wasmhooks.v1.PluginInfo.$Properties): Uint8Array {
  return v1.PluginInfo.encode(info).finish();
}
