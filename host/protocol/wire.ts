/**
 * The host's hook input as a protocol v1 message. The host speaks snake_case
 * `HookInput`; plugins speak `wasmhooks.v1.HookRequest`. The other direction,
 * a `HookResponse`'s bytes to a `HookOutput`, is `decodeHookResponse` (./codec.ts).
 */
import type { HookCommon, HookInput } from '../hooks/types.js';
import { eventToWire, type WireHookRequest } from './codec.js';

type WireContext = NonNullable<WireHookRequest['context']>;

export function wireContext(common: HookCommon, toolUseId?: string): WireContext {
  return {
    sessionId: common.session_id,
    turn: common.turn,
    iteration: common.iteration,
    agentId: common.agent_id ?? '',
    cwd: common.cwd,
    toolUseId: toolUseId ?? '',
    permissionMode: common.permission_mode,
    transcriptPath: common.transcript_path ?? '',
  };
}

const json = (value: unknown) => JSON.stringify(value ?? null);

/**
 * The protocol message for one hook input, as a protobufjs object: the
 * readable reference mapping. Calls encode with `encodeHookInput`
 * (host/protocol/hook-request.ts), which writes the same bytes without this
 * object; test/protocol/hook-request.test.ts holds the two to each other.
 * `bindingIndex` is assigned after
 * the fact, not spread in: spreading these oneof-shaped objects made encoding
 * five times slower (measured: ~5 µs vs ~1 µs per request).
 */
export function toWireRequest(input: HookInput, bindingIndex = 0): WireHookRequest {
  const request = payloadOf(input);
  request.bindingIndex = bindingIndex;
  return request;
}

function payloadOf(input: HookInput): WireHookRequest {
  const event = eventToWire(input.hook_event_name);
  switch (input.hook_event_name) {
    // SessionPayload.reason carries SessionStart's `source` (the protocol kept its field; docs/protocol.md).
    case 'SessionStart':
      return { event, context: wireContext(input), session: { reason: input.source } };
    case 'SessionEnd':
      return { event, context: wireContext(input), session: { reason: input.reason } };
    case 'UserPromptSubmit':
      return { event, context: wireContext(input), prompt: { prompt: input.prompt } };
    case 'IterationStart':
      return { event, context: wireContext(input) };
    case 'PreToolBatch':
    case 'PostToolBatch':
      return {
        event,
        context: wireContext(input),
        toolBatch: {
          calls: input.tool_calls.map((c) => ({
            id: c.tool_use_id,
            name: c.tool_name,
            inputJson: json(c.tool_input),
            ...(c.tool_response !== undefined ? { responseJson: json(c.tool_response), isError: c.is_error === true } : {}),
          })),
        },
      };
    case 'PreToolUse':
    case 'PermissionRequest':
      return {
        event,
        context: wireContext(input, input.tool_use_id),
        toolUse: {
          toolName: input.tool_name,
          toolInputJson: json(input.tool_input),
          recheck: input.hook_event_name === 'PreToolUse' && input.recheck === true,
          permissionSuggestionsJson: input.hook_event_name === 'PermissionRequest' && input.permission_suggestions?.length > 0 ? json(input.permission_suggestions) : '',
        },
      };
    case 'PostToolUse':
      return {
        event,
        context: wireContext(input, input.tool_use_id),
        toolResult: { toolName: input.tool_name, toolInputJson: json(input.tool_input), toolOutputJson: json(input.tool_response), durationMs: wireMs(input.duration_ms ?? 0) },
      };
    case 'PostToolUseFailure':
      return {
        event,
        context: wireContext(input, input.tool_use_id),
        toolResult: {
          toolName: input.tool_name,
          toolInputJson: json(input.tool_input),
          toolOutputJson: input.tool_response === undefined ? '' : json(input.tool_response),
          error: input.error,
          durationMs: wireMs(input.duration_ms ?? 0),
        },
      };
    case 'Stop':
      return {
        event,
        context: wireContext(input),
        stop: { stopHookActive: input.stop_hook_active, lastAssistantMessage: input.last_assistant_message },
      };
    case 'StopFailure':
      return {
        event,
        context: wireContext(input),
        stop: { stopHookActive: input.stop_hook_active, lastAssistantMessage: input.last_assistant_message, error: input.error },
      };
    case 'SubagentStart':
      return {
        event,
        context: wireContext(input),
        subagent: { agentId: input.agent_id ?? '', agentType: input.agent_type, prompt: input.prompt },
      };
    case 'SubagentStop':
      return {
        event,
        context: wireContext(input),
        subagent: {
          agentId: input.agent_id ?? '',
          agentType: input.agent_type,
          prompt: input.prompt,
          result: input.result,
          stopHookActive: input.stop_hook_active,
          // Absent in recordings made before the field: none.
          lastAssistantMessage: input.last_assistant_message ?? '',
        },
      };
    case 'PreCompact':
      return { event, context: wireContext(input), compact: { trigger: input.trigger, tokensBefore: input.tokens_before } };
    case 'PostCompact':
      return {
        event,
        context: wireContext(input),
        compact: { trigger: input.trigger, tokensBefore: input.tokens_before, tokensAfter: input.tokens_after },
      };
    case 'Notification':
      return { event, context: wireContext(input), notification: { message: input.message, level: input.level, notificationType: input.notification_type, title: input.title ?? '' } };
    case 'Error':
      return { event, context: wireContext(input), error: { code: input.code, message: input.message } };
    default: {
      const unreachable: never = input;
      throw new Error(`unhandled hook event ${JSON.stringify(unreachable)}`);
    }
  }
}

/** A duration as the protocol's uint32 milliseconds. */
const wireMs = (ms: number) => Math.min(Math.max(0, Math.round(ms)), 0xffffffff);
