/**
 * The hook inputs the loop builds: the common fields at one iteration, one event's input on
 * top of them, and a tool call's PreToolUse/PermissionRequest input (its re-check's too). Every
 * guarded tool call builds one, so they are written for Node 20's V8 (below, why not spreads).
 */
import type { HookCommon, HookInputOf } from '../hooks/types.js';
import type { LoopConfig } from './config.js';

/** The HookCommon fields at one iteration. */
export function hookCommon(config: LoopConfig, iteration: number): HookCommon {
  // Key by key, as `hookInput` (below) and for the same reason.
  const common: HookCommon = { session_id: config.sessionId, cwd: config.cwd, turn: config.turn, iteration, permission_mode: config.permissions.mode };
  if (config.agentId !== undefined) common.agent_id = config.agentId;
  if (config.transcriptPath !== undefined) common.transcript_path = config.transcriptPath;
  return common;
}

/**
 * A hook input: the common fields, then the event's own, keys in
 * that order (as `{ ...common, ...own }` had them). Not written as a spread:
 * Node 20's V8 gives a spread copy a map of its own, so each key added after
 * it costs microseconds (≈ 10 µs for a PreToolUse input, more than the
 * guard's whole sandboxed call); Deno and Bun build either in ~0.1 µs.
 */
export function hookInput<T extends object>(common: HookCommon, own: T): HookCommon & T {
  const input: HookCommon = {
    session_id: common.session_id,
    cwd: common.cwd,
    turn: common.turn,
    iteration: common.iteration,
    permission_mode: common.permission_mode,
  };
  if (common.agent_id !== undefined) input.agent_id = common.agent_id;
  if (common.transcript_path !== undefined) input.transcript_path = common.transcript_path;
  return Object.assign(input, own);
}

/**
 * The PreToolUse (or PermissionRequest) input of one tool call: what
 * `hookInput(common, { tool_name, tool_use_id, hook_event_name, tool_input })`
 * gives, same keys in the same order, built as one literal when the common
 * fields carry no agent id or transcript path (the usual case): one object
 * with every key in it, instead of two objects, an `Object.assign` and the
 * property array its four extra keys need. Every guarded tool call builds one.
 */
export function toolCallInput<E extends 'PreToolUse' | 'PermissionRequest'>(
  common: HookCommon,
  event: E,
  toolName: string,
  toolUseId: string,
  toolInput: Record<string, unknown>,
): HookCommon & { tool_name: string; tool_use_id: string; hook_event_name: E; tool_input: Record<string, unknown> } {
  if (common.agent_id !== undefined || common.transcript_path !== undefined) {
    return hookInput(common, { tool_name: toolName, tool_use_id: toolUseId, hook_event_name: event, tool_input: toolInput });
  }
  return {
    session_id: common.session_id,
    cwd: common.cwd,
    turn: common.turn,
    iteration: common.iteration,
    permission_mode: common.permission_mode,
    tool_name: toolName,
    tool_use_id: toolUseId,
    hook_event_name: event,
    tool_input: toolInput,
  };
}

/** A tool call's PreToolUse input for its re-check (host/agent/recheck.ts): `toolCallInput`'s, marked `recheck: true`. */
export function recheckHookInput(common: HookCommon, toolName: string, toolUseId: string, toolInput: Record<string, unknown>): HookInputOf<'PreToolUse'> {
  const input: HookInputOf<'PreToolUse'> = toolCallInput(common, 'PreToolUse', toolName, toolUseId, toolInput);
  input.recheck = true;
  return input;
}
