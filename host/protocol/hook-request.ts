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
import * as writer from './request-writer.js';

// Module-local consts, not the imported bindings: V8 reads an imported binding with a hole check
// on every call and inlines nothing through it; unbundled (tsx, vitest, bench/) an encode took
// 1.7× as long when this file called the writer's imports directly.
const { begin, bool, endWrite, finish, json, startWrite, str, u32, written } = writer;

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
      // SessionPayload.reason: SessionStart's `source` (docs/protocol.md).
      str(10, input.hook_event_name === 'SessionStart' ? input.source : input.reason);
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
      // Absent in recordings made before the field (plugin test --events): the same as none.
      else if (input.permission_suggestions?.length > 0) json(34, input.permission_suggestions);
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
      if (input.hook_event_name === 'SubagentStop') {
        str(34, input.result);
        bool(40, input.stop_hook_active);
        // Absent in recordings made before the field (plugin test --events): the same as none.
        str(50, input.last_assistant_message);
      }
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
      str(26, input.notification_type);
      str(34, input.title);
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
  startWrite();
  try {
    body(input, bindingIndex);
    return written();
  } finally {
    endWrite();
  }
}
