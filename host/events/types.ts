/**
 * Every event the host emits: ONE discriminated union on `type`. Each member
 * carries `seq` (per session, strictly increasing), `sessionId` and `time`
 * (ms since epoch), plus `agentId`/`parentToolUseId` inside sub-agents.
 *
 * Vocabulary: a *prompt* is one `session.stream()` call (agent.start …
 * agent.end); a *turn* here is one model call plus its tool batch
 * (turn.start … turn.end, numbered by `iteration`).
 */
import type { PluginFailure } from '../failure.js';
import type { PluginHealthChange, PluginLogLine } from '../tools/types.js';
import type { AssistantPart, ModelErrorCode, StopReason, Usage } from '../models/types.js';
import type { WasmhooksErrorCode } from '../errors.js';
import type { FailurePolicy, HookDecision, HookEventName, HookKind } from '../hooks/types.js';
import type { PermissionSource } from '../permissions/types.js';

export type AgentState = 'idle' | 'thinking' | 'executing' | 'compacting' | 'aborting';

export type AgentResultSubtype = 'success' | 'error_max_turns' | 'aborted' | 'error_during_execution';

/** Which hook ended the prompt early, when one did. */
export interface StoppedBy {
  event: HookEventName;
  hookId: string;
  hookName: string;
  decision: HookDecision;
  reason?: string;
}

/** The outcome of one prompt. */
export interface AgentResult {
  subtype: AgentResultSubtype;
  /** The last assistant text. */
  text: string;
  /** Model calls made for this prompt. */
  turns: number;
  usage: Usage;
  durationMs: number;
  /** Set when a hook refused the prompt or stopped the turn. */
  stoppedBy?: StoppedBy;
  /** Set for `error_during_execution` (and for a model error). */
  error?: { code: AgentErrorCode; message: string };
}

/**
 * Why a tool call did not happen. `model-error`: the model's stream failed after it streamed the
 * call, so its message (and the call) was dropped.
 */
export type DenialSource = PermissionSource | 'stopped' | 'aborted' | 'model-error';

interface HookRef {
  hookId: string;
  hookName: string;
  kind: HookKind;
  plugin?: string;
  event: HookEventName;
  toolUseId?: string;
  /**
   * Set on the second PreToolUse round of a call whose input was rewritten after the hooks
   * judged it (host/agent/recheck.ts): the hook re-judges the input that will run.
   */
  recheck?: true;
}

/** The payload of each event type (the union below adds the common fields). */
export interface HostEventPayloads {
  'agent.start': { prompt: string; model: string; turn: number };
  'agent.end': { result: AgentResult };
  'turn.start': { iteration: number };
  'turn.end': { iteration: number; stopReason: StopReason | 'error' | 'aborted'; toolCalls: number };
  'message.start': { model: string };
  /**
   * The assistant message is complete (Claude's MessageDisplay): `content` is
   * the whole message, `text` its text parts joined, so a UI need not
   * reassemble deltas.
   */
  'message.end': { content: AssistantPart[]; text: string; stopReason: StopReason; usage: Usage };
  'text.delta': { text: string };
  'thinking.delta': { text: string };
  /** A piece of a tool call's JSON arguments, as streamed (not parseable alone). */
  'tool.input.delta': { index: number; toolUseId: string; name: string; partialJson: string };
  /** The model asked for a tool call (input as the model sent it). */
  'tool.call': { toolUseId: string; name: string; input: unknown };
  'tool.progress': { toolUseId: string; name: string; progress: string };
  'tool.output': { toolUseId: string; name: string; content: string; isError: boolean; durationMs: number };
  /** The call did not happen; `reason` went to the model as an error result. */
  'tool.denied': { toolUseId: string; name: string; reason: string; source: DenialSource; hookName?: string };
  'hook.start': HookRef;
  'hook.end': HookRef & {
    /** The effective decision, after the failure policy and legality check. */
    decision: HookDecision;
    reason?: string;
    durationMs: number;
    fuelUsed?: number;
    failure?: PluginFailure;
    /** Set when `failure` was turned into `decision`. */
    failurePolicy?: FailurePolicy;
    systemMessage?: string;
    additionalContext?: string;
    inputUpdated?: boolean;
  };
  /**
   * The app is asked (no PermissionRequest hook answered, they run first): `input` and `reason` are what
   * its `canUseTool` (the HTTP `can_use_tool`) gets, the input after every rewrite, which runs on a plain
   * allow (a copy: editing it changes nothing).
   */
  'permission.request': { toolUseId: string; name: string; input: Record<string, unknown>; reason: string };
  'permission.resolved': {
    toolUseId: string;
    name: string;
    behavior: 'allow' | 'deny';
    source: PermissionSource;
    message?: string;
    /**
     * The deciding answer allows the tool for the rest of the session (`allow_always`, a hook's
     * `updatedPermissions`). The rule is added only if the call goes on to run: a `tool.denied` from
     * the re-check (docs/hooks.md rule 4) or an abort after this event means no rule was added.
     */
    always?: boolean;
    /**
     * On an allow whose input is not the model's (`tool.call`, path fields resolved): the input the
     * call runs with, after every rewrite (a PreToolUse or PermissionRequest hook's, the approver's
     * `updatedInput`). The re-check (docs/hooks.md rule 4) may still refuse it (`tool.denied`), never
     * change it. Absent when nothing rewrote the input. A copy: editing it changes nothing.
     */
    input?: Record<string, unknown>;
  };
  'state.change': { from: AgentState; to: AgentState };
  /** A plugin's health changed (a failure, a quarantine, a recovery); sent to every session with a prompt running. */
  'plugin.health': PluginHealthChange;
  /**
   * A plugin logged a line (capped per call by the sandbox): to the session whose hook or tool call
   * wrote it (withheld like tool.progress while an output hook reviews a tool call); a line written
   * outside a session's call (at load) to every session with a prompt running.
   */
  'plugin.log': PluginLogLine;
  /**
   * A sub-agent started (after its SubagentStart hooks). Stamped with the
   * sub-agent's `agentId` and the `parentToolUseId` of the agent call.
   */
  'subagent.start': { agentType: string; prompt: string; model: string; depth: number };
  /** A sub-agent ended; `result` is its loop's result (`isError`: what the agent call returns). */
  'subagent.end': { agentType: string; result: AgentResult; isError: boolean };
  /** The conversation was compacted; sizes are estimated tokens and message counts. */
  'context.compacted': {
    trigger: 'auto' | 'manual';
    tokensBefore: number;
    tokensAfter: number;
    messagesBefore: number;
    messagesAfter: number;
  };
  /** An MCP server started (lazily, at the first prompt) and its tools joined the registry. */
  'mcp.server.connected': { server: string; transport: 'stdio' | 'http'; tools: string[] };
  /** An MCP server's connection ended without the host closing it (a crash, say); its tools left the registry until it restarts. */
  'mcp.server.closed': { server: string; reason: string };
  /** An MCP server failed to start, a call failed, or it sent something we cannot use. */
  'mcp.server.error': { server: string; code: McpErrorCode; message: string };
  /** This subscriber's queue was full; `count` events were dropped for it alone. */
  'events.dropped': { count: number };
  error: { code: AgentErrorCode; message: string };
}

export type HostEventType = keyof HostEventPayloads;

/**
 * The code of an `error` event and of a result's `error`: a model failure,
 * a host error that ended the work (a compactor throwing a
 * `WasmhooksError`, say), or one of the loop's own.
 */
export type AgentErrorCode =
  | ModelErrorCode
  | WasmhooksErrorCode
  /** A bug in the loop itself (the prompt ended; please report it). */
  | 'INTERNAL'
  /** Stop (or SubagentStop) hooks blocked more than `stopHookCap` times. */
  | 'STOP_HOOK_CAP'
  /** The compactor failed or returned an unusable conversation. */
  | 'COMPACTION_FAILED'
  /** The conversation holds more than `maxMessages` messages or `maxConversationChars` characters: compact it or start a new session. */
  | 'CONVERSATION_TOO_LARGE';

/** Why an MCP server or one of its calls failed. */
export type McpErrorCode = 'MCP_START_FAILED' | 'MCP_CLOSED' | 'MCP_TIMEOUT' | 'MCP_ERROR' | 'MCP_PROTOCOL';

/** Fields every event carries. */
export interface HostEventBase {
  seq: number;
  sessionId: string;
  time: number;
  agentId?: string;
  parentToolUseId?: string;
}

/** One event, discriminated on `type`. */
export type HostEvent = {
  [K in HostEventType]: HostEventBase & { type: K } & HostEventPayloads[K];
}[HostEventType];

export type HostEventOf<K extends HostEventType> = Extract<HostEvent, { type: K }>;

/**
 * What the loop hands to `emit`: an event without the common fields. A
 * sub-agent's events arrive with `agentId`/`parentToolUseId` already set;
 * the session keeps them.
 */
export type EmittedEvent = {
  [K in HostEventType]: { type: K } & HostEventPayloads[K] & Partial<Pick<HostEventBase, 'agentId' | 'parentToolUseId'>>;
}[HostEventType];

/** The loop's output channel. Contract: must not throw, must not block. */
export type Emit = (event: EmittedEvent) => void;
