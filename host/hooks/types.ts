/**
 * Hook contracts shared by every kind of hook (JS, WASM, shell). Tool
 * contracts live in `../tools/types.ts`.
 *
 * - `HookInput` is what a hook receives: one member per event, snake_case
 *   fields as users of the Claude Agent SDK expect.
 * - `HookOutput` is what a hook answers; `HookDecision` is the one union of
 *   decisions. Which decision is legal for which event lives in
 *   `./decisions.ts` (data, not prose).
 * - `HookHandler` is what the registry stores, whatever the kind. Adapters
 *   (JS in `./js.ts`, WASM in host/plugins, shell in host/shell) produce it.
 */
import type { PluginFailure } from '../failure.js';
import type { PermissionMode } from '../permissions/types.js';
import type { PermissionUpdate } from '../permissions/updates.js';
import type { ToolMatcher } from './matcher.js';

/** The lifecycle points, in the order of the protocol's `HookEvent` enum (1…18). */
export const HOOK_EVENT_NAMES = [
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'IterationStart',
  'PreToolBatch',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'Notification',
  'Error',
] as const;

export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

/** Claude Code's SessionEnd `reason`s, so a ported matcher means the same; the host says `other`, an app `session.close({ reason })`. */
export const SESSION_END_REASONS = ['clear', 'resume', 'logout', 'prompt_input_exit', 'bypass_permissions_disabled', 'other'] as const;

export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** Fields common to every hook input (the protocol's `HookContext`). */
export interface HookCommon {
  session_id: string;
  /** Absolute working directory of the session. */
  cwd: string;
  /** Prompt number in the session, 1-based (0 outside a prompt). */
  turn: number;
  /** Model call number within the current prompt, 1-based (0 before the first). */
  iteration: number;
  permission_mode: PermissionMode;
  /** Set only inside a sub-agent. */
  agent_id?: string;
  /** The session's conversation as a JSONL file, when its store keeps one (the data directory of `serve`). */
  transcript_path?: string;
}

/** One call of a batch, as the batch hooks see it. */
export interface HookToolCall {
  tool_use_id: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
  /** PostToolBatch only: what the model got for this call (output, error text or denial reason). */
  tool_response?: string;
  /** PostToolBatch only: the call failed or did not run. */
  is_error?: boolean;
}

/**
 * Tool fields of PreToolUse, PermissionRequest, PostToolUse(Failure).
 * PostToolUse(Failure) add `duration_ms`, how long the tool ran (the loop always sets it).
 * `tool_input` has path-like fields (`file_path`, `path`) resolved against `cwd`.
 */
interface ToolFields {
  tool_name: string;
  tool_input: Record<string, unknown>;
  /** Correlates PreToolUse, PermissionRequest and PostToolUse of one call. */
  tool_use_id: string;
}

/**
 * The input of a hook: one member per event. PreToolUse's `recheck: true` marks the
 * re-check, the second round of PreToolUse hooks on a call whose input was rewritten
 * after they judged it (docs/hooks.md, rule 4; the protocol's `ToolUsePayload.recheck`):
 * `tool_input` is the input that will run, and the round can only refuse it. Absent on
 * a first round.
 */
export type HookInput = HookCommon &
  (
    /** `source`: Claude Code's name (formerly `reason`); `startup`, `resume` (a stored session continued), or `compact` after a compaction (docs/hooks.md). */
    | { hook_event_name: 'SessionStart'; source: 'startup' | 'resume' | 'clear' | 'compact' }
    | { hook_event_name: 'SessionEnd'; reason: SessionEndReason }
    | { hook_event_name: 'UserPromptSubmit'; prompt: string }
    | { hook_event_name: 'IterationStart' }
    | { hook_event_name: 'PreToolBatch'; tool_calls: HookToolCall[] }
    | ({ hook_event_name: 'PreToolUse'; recheck?: true } & ToolFields)
    /** `permission_suggestions`: what a person asked would be offered (Claude Code's `PermissionUpdate`s). */
    | ({ hook_event_name: 'PermissionRequest'; permission_suggestions: PermissionUpdate[] } & ToolFields)
    | ({ hook_event_name: 'PostToolUse'; tool_response: string; duration_ms?: number } & ToolFields)
    | ({ hook_event_name: 'PostToolUseFailure'; error: string; tool_response?: string; duration_ms?: number } & ToolFields)
    | { hook_event_name: 'PostToolBatch'; tool_calls: HookToolCall[] }
    | { hook_event_name: 'Stop'; stop_hook_active: boolean; last_assistant_message: string }
    | { hook_event_name: 'StopFailure'; stop_hook_active: boolean; last_assistant_message: string; error: string }
    | { hook_event_name: 'SubagentStart'; agent_type: string; prompt: string }
    /**
     * `stop_hook_active`: a SubagentStop hook's block already sent it back to work. `last_assistant_message`: its
     * last text (`result`: what the agent call returns). No `agent_transcript_path`: its conversation is in memory only.
     */
    | { hook_event_name: 'SubagentStop'; agent_type: string; prompt: string; result: string; stop_hook_active: boolean; last_assistant_message: string }
    | { hook_event_name: 'PreCompact'; trigger: 'auto' | 'manual'; tokens_before: number }
    | { hook_event_name: 'PostCompact'; trigger: 'auto' | 'manual'; tokens_before: number; tokens_after: number }
    /** Claude Code's `title` and `notification_type`: the host notifies only before a permission question. */
    | { hook_event_name: 'Notification'; message: string; title: string; level: string; notification_type: 'permission_prompt' }
    | { hook_event_name: 'Error'; code: string; message: string }
  );

/** The input of one event's hooks. */
export type HookInputOf<E extends HookEventName> = Extract<HookInput, { hook_event_name: E }>;

/**
 * A hook's decision (the protocol's `Decision`):
 * - `continue`: no opinion; the next hook runs.
 * - `allow`: run the tool call without the permission question.
 * - `deny`: refuse the call or the prompt; the reason goes to the model.
 * - `ask`: ask the permission question even if a rule would allow.
 * - `stop`: end the turn.
 * - `block`: Stop hooks only: do not stop yet; the reason is added to the conversation.
 */
export type HookDecision = 'continue' | 'allow' | 'deny' | 'ask' | 'stop' | 'block';

/** What a hook answers. An empty object means `continue`. */
export interface HookOutput {
  /** Default `continue`. */
  decision?: HookDecision;
  reason?: string;
  /** PreToolUse / PermissionRequest: the tool input to use instead. */
  updatedInput?: Record<string, unknown>;
  /** PostToolUse: the tool output to use instead (text for the model). */
  updatedOutput?: string;
  /**
   * PermissionRequest `allow` (JS and shell hooks, Claude Code's `decision.updatedPermissions`): only
   * `addRules` allowing a whole tool is applied, as a session allow rule (permissions/updates.ts).
   */
  updatedPermissions?: PermissionUpdate[];
  /** Text added to the model's context for its next turn. */
  additionalContext?: string;
  /** A message shown to the user, not the model (carried by hook.end). */
  systemMessage?: string;
}

/**
 * What a JS hook may return (and a shell hook print as JSON): our `HookOutput`
 * fields, the Claude Agent SDK's, or a mix. `./output.ts` maps both onto one
 * `HookOutput`; any other key, or a `hookSpecificOutput` for another event,
 * is a BAD_OUTPUT failure (docs/hooks.md, "Claude Agent SDK users").
 */
export interface HookCallbackOutput extends Omit<HookOutput, 'decision'> {
  /** Ours, plus Claude Code's `approve` (allow) and `block` (deny; on Stop/SubagentStop: block). */
  decision?: HookDecision | 'approve';
  /** `false`: stop (deny where the event cannot stop; on Stop: let the agent stop). Wins over any decision. */
  continue?: boolean;
  /** The reason, with `continue: false`. */
  stopReason?: string;
  /** Accepted for compatibility; no effect here. */
  suppressOutput?: boolean;
  hookSpecificOutput?: {
    /** Must be the event the hook runs on. */
    hookEventName: HookEventName;
    permissionDecision?: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
    /**
     * PermissionRequest only: the answer to the permission question. `interrupt: true` on a deny also
     * stops the turn; `updatedPermissions` are read as permissions/updates.ts says.
     */
    decision?:
      | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: PermissionUpdate[] }
      | { behavior: 'deny'; message?: string; interrupt?: boolean };
    /** PostToolUse on an MCP tool (`mcp__…`): the result the model gets instead (text, content blocks or a CallToolResult). */
    updatedMCPToolOutput?: unknown;
    /** PostToolUse: the output the model gets instead (text, or JSON written as text). */
    updatedToolOutput?: unknown;
  };
}

/** The outcome of one hook call. A failure is data, never a throw. */
export type HookResult =
  | { ok: true; output: HookOutput; fuelUsed?: number }
  | { ok: false; failure: PluginFailure; fuelUsed?: number };

export type HookKind = 'js' | 'wasm' | 'shell';

/**
 * What a failure turns into: `fail-closed` denies (or stops) where the event
 * allows it; `fail-open` acts as `continue`. Default: closed for the guards
 * (PreToolUse, PermissionRequest, UserPromptSubmit), open for the rest.
 */
export type FailurePolicy = 'fail-closed' | 'fail-open';

/** One log line of a plugin. WASI stdout is `info`, stderr `warn`. */
export interface PluginLogLine {
  plugin: string;
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  message: string;
}

export interface HookRunContext {
  /** Fires on session abort and when the hook's timeout expires. */
  signal: AbortSignal;
  /**
   * A plugin hook's log lines during this call: `plugin.log` events of the chain's session only
   * (a plugin shared by sessions no longer logs one session's data into every other). Never throws.
   */
  onLog?(line: PluginLogLine): void;
}

/** One hook's text for the model (its additionalContext), and the name of the hook that gave it. */
export interface HookText {
  readonly from: string;
  readonly text: string;
}

/**
 * One registered hook, whatever its kind.
 *
 * Contract: `run` must not throw; every failure (timeout, trap, bad output,
 * thrown error) is returned as `{ ok: false, failure }`. The dispatcher still
 * enforces `timeoutMs` and catches throws as a backstop.
 */
export interface HookHandler {
  readonly id: string;
  /** Shown in hook.start/hook.end, e.g. `guard` or `my-js-hook#0`. */
  readonly name: string;
  readonly kind: HookKind;
  readonly event: HookEventName;
  /** Plugin that contributed the hook, if any. */
  readonly plugin?: string;
  /** Matched against the whole tool name (tool events), or the event's `matchOn` field (SessionStart `source`, …: `./decisions.ts`); absent matches all. See `./matcher.ts`. */
  readonly matcher?: ToolMatcher;
  /**
   * Set when the handler belongs to some sessions only (a remote client's hook callbacks on a
   * shared host): any other session's chain skips it, with no call and no hook.start/hook.end.
   */
  readonly sessions?: ReadonlySet<string>;
  readonly failurePolicy: FailurePolicy;
  readonly timeoutMs: number;
  /**
   * The handler enforces `timeoutMs` itself and settles soon after the
   * prompt's signal fires (a sandboxed WASM call: its own deadline in-thread,
   * deadline and abort delivered mid-call in a worker). The dispatcher then
   * sets no timer of its own and passes the prompt's signal as `ctx.signal`
   * instead of a per-call child signal: both would only duplicate the
   * sandbox's work on every call.
   */
  readonly enforcesTimeout?: boolean;
  run(input: HookInput, ctx: HookRunContext): Promise<HookResult>;
}

/**
 * A JS hook callback, as in the Claude Agent SDK.
 *
 * @example
 * const guard: HookCallback = async (input) =>
 *   input.hook_event_name === 'PreToolUse' && input.tool_name === 'Bash'
 *     ? { decision: 'deny', reason: 'no shell' } : {};
 */
export type HookCallback = (
  input: HookInput,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookCallbackOutput>;

/** JS hooks grouped under one matcher and one timeout. */
export interface HookCallbackMatcher {
  /**
   * Matched against the whole tool name (on SessionStart, SessionEnd, *Compact, Notification and Subagent*: the
   * input field Claude Code matches, e.g. `source`): absent, `''` or `'*'` match all, anything else is a
   * regular expression (RE2: linear time; see docs/hooks.md, "Matchers").
   */
  matcher?: string | RegExp;
  hooks: HookCallback[];
  /** Per-call timeout; its expiry aborts the hook's signal. Default 60 000. */
  timeoutMs?: number;
  /** The same in seconds, as Claude's hook matchers write it (give one of the two). */
  timeout?: number;
  failurePolicy?: FailurePolicy;
  /** Name prefix used in events (default `js`). */
  name?: string;
}

/** JS hooks by event, the shape of the `hooks` option. */
export type HooksConfig = Partial<Record<HookEventName, HookCallbackMatcher[]>>;
