/** What one prompt's loop needs. The session builds it; the loop only reads it (and appends to `messages`). */
import type { AgentState, Emit } from '../events/types.js';
import type { DispatchContext } from '../hooks/dispatch.js';
import type { HookRegistry } from '../hooks/registry.js';
import type { HookCommon } from '../hooks/types.js';
import type { Message, Model } from '../models/types.js';
import type { PermissionConfig } from '../permissions/resolve.js';
import type { ToolRegistry } from '../tools/registry.js';
import { resolvePathFields } from './paths.js';

export interface LoopConfig {
  sessionId: string;
  agentId?: string;
  cwd: string;
  /** Prompt number in the session, 1-based. */
  turn: number;
  prompt: string;
  model: Model;
  systemPrompt?: string;
  /** The conversation; the loop appends to it. */
  messages: Message[];
  tools: ToolRegistry;
  hooks: HookRegistry;
  permissions: PermissionConfig;
  /** Model calls allowed for this prompt. */
  maxTurns: number;
  /** Stop-hook blocks allowed per prompt before it ends anyway (error STOP_HOOK_CAP). */
  stopHookCap: number;
  /**
   * Compact automatically before a model call once the previous call's input
   * reached this fraction of the model's context window (when the model
   * advertises one). `false`: never.
   */
  autoCompact: number | false;
  /** Fire SessionStart first (the session's first prompt). */
  sessionStart: boolean;
  /** additionalContext waiting for the next model call; the loop drains it. */
  pendingContext: string[];
  setState(to: AgentState): void;
}

/** The HookCommon fields at one iteration. */
export function hookCommon(config: LoopConfig, iteration: number): HookCommon {
  return {
    session_id: config.sessionId,
    cwd: config.cwd,
    turn: config.turn,
    iteration,
    permission_mode: config.permissions.mode,
    ...(config.agentId !== undefined ? { agent_id: config.agentId } : {}),
  };
}

export function dispatchContext(config: LoopConfig, emit: Emit, signal: AbortSignal): DispatchContext {
  return {
    registry: config.hooks,
    emit,
    signal,
    normalizeInput: (input) => resolvePathFields(input, config.cwd),
  };
}

/** Moves gathered additionalContext into the conversation, ahead of the next model call. */
export function flushContext(config: LoopConfig): void {
  if (config.pendingContext.length === 0) return;
  const lines = config.pendingContext.splice(0);
  config.messages.push({ role: 'user', content: `<hook-context>\n${lines.join('\n')}\n</hook-context>` });
}
