/** What one prompt's loop needs. The session builds it; the loop only reads it (and appends to `messages`). */
import type { AgentResult, AgentState, Emit } from '../events/types.js';
import type { DispatchContext } from '../hooks/dispatch.js';
import { fitContext } from './conversation-cap.js';
import type { HookRegistry } from '../hooks/registry.js';
import type { HookText } from '../hooks/types.js';
import { hookFrames } from './hook-text.js';
import type { Message, Model, ToolDefinition } from '../models/types.js';
import type { PermissionConfig } from '../permissions/resolve.js';
import type { RegisteredTool } from '../tools/registry.js';
import { resolvePathFields } from './paths.js';
import type { StateMachine } from './state.js';

/** The tools a loop sees: the host's registry, or a sub-agent's filtered view of it. */
export interface ToolSet {
  get(name: string): RegisteredTool | undefined;
  /** What the model is told (the same array until the set changes). */
  definitions(): ToolDefinition[];
}

/**
 * A sub-agent the `agent` tool can start.
 *
 * @example
 * createHost({ agents: { reviewer: { description: 'Reviews a diff', systemPrompt: 'You review diffs.', tools: ['Read'] } } });
 */
export interface AgentDefinition {
  /** Told to the model in the `agent` tool's description. */
  description: string;
  systemPrompt: string;
  /** Names of the host tools it may use (exact names). Default: all of them. */
  tools?: readonly string[];
  /** Default: the host's model. */
  model?: Model;
  /** Model calls per run. Default: the parent's `maxTurns`. */
  maxTurns?: number;
}

/** Sub-agents of a host, and where in the tree a loop runs. */
export interface SubagentSettings {
  agents: Readonly<Record<string, AgentDefinition>>;
  /** Levels of sub-agents below the session's own agent (1: sub-agents cannot start sub-agents). */
  maxDepth: number;
  /** This loop's level: 0 for a session's prompt, 1 inside a sub-agent, … */
  depth: number;
}

/** What a compactor gets. Contract: keep every tool call whose result is not in `messages` yet. */
export interface CompactRequest {
  messages: readonly Message[];
  systemPrompt?: string;
  model: Model;
  tools: readonly ToolDefinition[];
  trigger: 'auto' | 'manual';
  /** Latest model turns the default compactor keeps verbatim. */
  keepTurns: number;
  signal: AbortSignal;
}

/**
 * Replaces a conversation with a shorter one. A thrown error (or a rejected
 * promise) skips this compaction and is reported as an `error` event.
 */
export type Compactor = (request: CompactRequest) => Promise<Message[]>;

interface CompactionSettings {
  compactor?: Compactor;
  /** Default 2. */
  keepTurns: number;
  /** Used when the model does not report its context window. */
  contextWindow?: number;
}

export interface LoopConfig {
  sessionId: string;
  agentId?: string;
  /**
   * Set for a sub-agent's loop: the parent's agent call. Such a loop starts
   * from its task without UserPromptSubmit and ends without Stop hooks: the
   * caller fires SubagentStop and continues the loop with a new message if a
   * hook blocks.
   */
  parentToolUseId?: string;
  cwd: string;
  /** Prompt number in the session, 1-based. */
  turn: number;
  prompt: string;
  model: Model;
  systemPrompt?: string;
  /** The conversation; the loop appends to it. */
  messages: Message[];
  tools: ToolSet;
  hooks: HookRegistry;
  permissions: PermissionConfig;
  /** Model calls allowed for this prompt. */
  maxTurns: number;
  /** Stop-hook blocks allowed per prompt before it ends anyway (error STOP_HOOK_CAP). */
  stopHookCap: number;
  /** Concurrency-safe calls of one batch that may run at once. */
  maxParallelTools: number;
  /** Cap on the conversation's messages; past it the prompt ends (CONVERSATION_TOO_LARGE, conversation-cap.ts). */
  maxMessages: number;
  /** Cap on the characters of the conversation's text (conversation-cap.ts); tool outputs past it are dropped. */
  maxConversationChars: number;
  /**
   * Longest one model call may take, from the request to its `message.end` (MODEL_TIMEOUT past it).
   * A provider's idle timeout bounds each gap; a stream dripping a byte now and then stays inside it forever.
   */
  modelTimeoutMs: number;
  /**
   * Compact automatically before a model call once the previous call's input
   * reached this fraction of the model's context window (when the model
   * advertises one). `false`: never.
   */
  autoCompact: number | false;
  /**
   * Fire SessionStart first, with this `source` (the session's first prompt here: `startup`, or `resume` for a
   * stored session this host continues); `false`: not this prompt.
   */
  sessionStart: 'startup' | 'resume' | 'clear' | false;
  /** additionalContext waiting for the next model call; the loop drains it. */
  pendingContext: HookText[];
  setState(to: AgentState): void;
  /** The session's JSONL transcript, when its store keeps one (hook inputs carry it). */
  transcriptPath?: string;
  /** Absent: the `agent` tool is not offered. */
  subagents?: SubagentSettings;
  /** Absent: the default compactor, keeping 2 turns, the model's context window. */
  compaction?: CompactionSettings;
}

/** The limits a host or a session may set; each falls back to `LOOP_DEFAULTS`. */
export type LoopLimits = Pick<LoopConfig, 'maxTurns' | 'stopHookCap' | 'maxParallelTools' | 'autoCompact' | 'maxMessages' | 'maxConversationChars' | 'modelTimeoutMs'>;

/** The defaults of the loop's limits, in one place (docs/agent.md names them). */
export const LOOP_DEFAULTS: Readonly<LoopLimits> = Object.freeze({
  maxTurns: 100,
  stopHookCap: 8,
  /** Concurrency-safe calls of one batch running at once. */
  maxParallelTools: 8,
  autoCompact: 0.8,
  /** Far past any model's context window: a bound on memory and on the store, not on the model. */
  maxMessages: 10_000,
  maxConversationChars: 32_000_000,
  /** Ten minutes: longer than any answer a provider gives within its own limits, short of a turn open for good. */
  modelTimeoutMs: 600_000,
});

/** Default of `maxAgentDepth`: sub-agents cannot start sub-agents. */
export const DEFAULT_MAX_AGENT_DEPTH = 1;

/** Each limit from the first layer that sets it (a session's options, then the host's), else its default. */
export function loopLimits(...layers: ReadonlyArray<Partial<LoopLimits>>): LoopLimits {
  const pick = <K extends keyof LoopLimits>(key: K): LoopLimits[K] => {
    for (const layer of layers) {
      const value = layer[key];
      if (value !== undefined) return value;
    }
    return LOOP_DEFAULTS[key];
  };
  return {
    maxTurns: pick('maxTurns'),
    stopHookCap: pick('stopHookCap'),
    maxParallelTools: pick('maxParallelTools'),
    autoCompact: pick('autoCompact'),
    maxMessages: pick('maxMessages'),
    maxConversationChars: pick('maxConversationChars'),
    modelTimeoutMs: pick('modelTimeoutMs'),
  };
}

/** What every prompt of one agent shares: resolved once from the options (host.ts), or derived from the parent's (`childSettings`). */
export type LoopSettings = Omit<LoopConfig, PerPrompt | 'setState'>;

type PerPrompt = 'parentToolUseId' | 'turn' | 'prompt' | 'messages' | 'pendingContext' | 'sessionStart';

/** What changes from one prompt (or one sub-agent run) to the next. */
export type PromptParts = Pick<LoopConfig, PerPrompt>;

/**
 * The one builder of a loop's configuration: an agent's settings, one
 * prompt's parts, and a `setState` on `machine` that, once `signal` is
 * aborted, turns every move but the last one (to idle) into `aborting`.
 */
export function loopConfig(settings: LoopSettings, prompt: PromptParts, machine: StateMachine, signal: AbortSignal): LoopConfig {
  return assemble(settings, prompt, (to) => {
    if (signal.aborted && to !== 'idle') {
      if (machine.state === 'idle') machine.to(to);
      machine.to('aborting');
    } else machine.to(to);
  });
}

/**
 * `config` with other tools or another prompt (a sub-agent's view of its parent's tools, a
 * SubagentStop continuation, which also gets only the model calls its task has left).
 */
export function reconfigured(config: LoopConfig, change: Partial<Pick<LoopConfig, 'tools' | 'prompt' | 'maxTurns'>>): LoopConfig {
  const copy = assemble(config, config, config.setState);
  if (change.tools) copy.tools = change.tools;
  if (change.prompt !== undefined) copy.prompt = change.prompt;
  if (change.maxTurns !== undefined) copy.maxTurns = change.maxTurns;
  return copy;
}

/**
 * The config as one literal naming every field (the mapped type makes leaving one out a type
 * error), not `{ ...settings, ...prompt }`: Node 20 takes 6–15 µs to build an object of this size
 * by spread or Object.assign, 0.2 µs as a literal. An optional field the parts lack is present as
 * undefined.
 */
function assemble(settings: LoopSettings, prompt: PromptParts, setState: LoopConfig['setState']): LoopConfig {
  const config: { [K in keyof LoopConfig]-?: LoopConfig[K] } = {
    sessionId: settings.sessionId,
    agentId: settings.agentId!,
    parentToolUseId: prompt.parentToolUseId!,
    cwd: settings.cwd,
    turn: prompt.turn,
    prompt: prompt.prompt,
    model: settings.model,
    systemPrompt: settings.systemPrompt!,
    messages: prompt.messages,
    tools: settings.tools,
    hooks: settings.hooks,
    permissions: settings.permissions,
    maxTurns: settings.maxTurns,
    stopHookCap: settings.stopHookCap,
    maxParallelTools: settings.maxParallelTools,
    autoCompact: settings.autoCompact,
    maxMessages: settings.maxMessages,
    maxConversationChars: settings.maxConversationChars,
    modelTimeoutMs: settings.modelTimeoutMs,
    sessionStart: prompt.sessionStart,
    pendingContext: prompt.pendingContext,
    setState,
    transcriptPath: settings.transcriptPath!,
    subagents: settings.subagents!,
    compaction: settings.compaction!,
  };
  return config;
}

/**
 * What a sub-agent inherits from its parent's loop: the session, cwd, hooks,
 * permissions, limits and compaction. Not the parent's identity, transcript,
 * sub-agent depth, tools, model or prompt: the caller sets its own.
 */
export function childSettings(parent: LoopConfig): Omit<LoopSettings, 'agentId' | 'transcriptPath' | 'subagents' | 'model' | 'systemPrompt' | 'tools'> {
  const { sessionId, cwd, hooks, permissions, maxTurns, stopHookCap, maxParallelTools, autoCompact, maxMessages, maxConversationChars, modelTimeoutMs, compaction } = parent;
  return { sessionId, cwd, hooks, permissions, maxTurns, stopHookCap, maxParallelTools, autoCompact, maxMessages, maxConversationChars, modelTimeoutMs, ...(compaction ? { compaction } : {}) };
}

/** The loop's signature (host/agent/loop.ts), for the code that runs nested loops. */
export type RunLoop = (config: LoopConfig, emit: Emit, signal: AbortSignal) => Promise<AgentResult>;

/**
 * The one rule for a tool input entering the loop, whichever way it comes (the
 * model's call, a hook's rewrite, a permission answer): path fields resolved
 * against the cwd, so hooks see, and tools get, absolute paths.
 */
export function normalizeToolInput(config: LoopConfig, input: Record<string, unknown>): Record<string, unknown> {
  return resolvePathFields(input, config.cwd);
}

export function dispatchContext(config: LoopConfig, emit: Emit, signal: AbortSignal): DispatchContext {
  return {
    registry: config.hooks,
    emit,
    signal,
    normalizeInput: (input) => normalizeToolInput(config, input),
  };
}

/** Moves gathered additionalContext into the conversation, ahead of the next model call. */
export function flushContext(config: LoopConfig): void {
  if (config.pendingContext.length === 0) return;
  // Framed and escaped in one place (hook-text.ts): a plugin's text cannot close its frame or fake another's.
  const framed = hookFrames(config.pendingContext.splice(0));
  // Within the conversation's cap: many hooks each adding their full output could otherwise pass it unchecked.
  const text = fitContext(config, framed);
  if (text !== undefined) config.messages.push({ role: 'user', content: text });
}
