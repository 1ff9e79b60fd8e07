/**
 * Permission types: how an undecided tool call (no hook said allow or deny)
 * is answered. Order: mode → session/app rules → `canUseTool` callback, with
 * the PermissionRequest hook fired only when the call reaches the callback.
 */

/**
 * - `default`: rules, then ask (`canUseTool`); no callback means deny.
 * - `acceptEdits`: like default, but file-editing tools (Write, Edit, …) are allowed.
 * - `bypassPermissions`: everything not denied by a hook or deny rule runs.
 * - `dontAsk`: never ask; whatever no rule allows is denied.
 */
export type PermissionMode = 'default' | 'acceptEdits' | 'bypassPermissions' | 'dontAsk';

/** What the application's callback answers for one tool call. */
export type PermissionAnswer =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown> }
  /** Allow this call and every later call of the same tool in this session. */
  | { behavior: 'allow_always'; updatedInput?: Record<string, unknown> }
  | { behavior: 'deny'; message: string }
  /** The user dismissed the question; treated as a denial. */
  | { behavior: 'cancelled' };

export interface PermissionRequestInfo {
  toolUseId: string;
  toolName: string;
  input: Record<string, unknown>;
  signal: AbortSignal;
  /** Why it reached the callback (`mode`, `rule:ask`, `hook:ask`). */
  reason: string;
  /** The session's working directory, which relative paths in the input are resolved against. */
  workingDirectory: string;
  /** Set when a sub-agent asks: its id (`<type>@<parent tool use id>`), so a UI can show where the call comes from. */
  agentId?: string;
  /** Set when a sub-agent asks: the parent's agent call. */
  parentToolUseId?: string;
}

/**
 * The application's permission callback (like the Claude Agent SDK's
 * `canUseTool`). A throw, a timeout or an unknown answer is a denial, never
 * an approval.
 */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  info: PermissionRequestInfo,
) => Promise<PermissionAnswer>;

/** Where a permission outcome came from, for the permission.resolved and tool.denied events. */
export type PermissionSource =
  | 'hook'
  | 'mode'
  | 'rule'
  | 'session'
  | 'callback'
  | 'permission-hook'
  | 'no-callback'
  | 'callback-failed';
