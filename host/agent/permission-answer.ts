/**
 * What the PermissionRequest hooks' answer means beyond allow/deny (Claude Code's contract), kept out
 * of the permission question itself (permission-question.ts): the input they see, with
 * `permission_suggestions`; the session allow rules an `allow` with `updatedPermissions` adds; and the
 * turn's end when one of them stopped it (`continue: false`, a deny with `interrupt: true`).
 */
import type { StoppedBy } from '../events/types.js';
import { stoppedBy, type ChainOutcome } from '../hooks/dispatch.js';
import type { HookCommon, HookInputOf } from '../hooks/types.js';
import type { PermissionConfig } from '../permissions/resolve.js';
import { permissionSuggestions, toolsAllowedBy } from '../permissions/updates.js';
import { toolCallInput } from './hook-input.js';

/** A call's PermissionRequest input: `toolCallInput`'s, plus what a person asked would be offered. */
export function permissionRequestInput(common: HookCommon, toolName: string, toolUseId: string, toolInput: Record<string, unknown>): HookInputOf<'PermissionRequest'> {
  return Object.assign(toolCallInput(common, 'PermissionRequest', toolName, toolUseId, toolInput), { permission_suggestions: permissionSuggestions(toolName) });
}

/**
 * Applies what the PermissionRequest chain answered to the session: an `allow`'s `updatedPermissions`
 * (only `addRules` allowing a whole tool, as permissions/updates.ts says). Returns the stop when a hook
 * stopped the turn (resolve.ts denies the call; the batch then ends the turn).
 */
export function applyPermissionAnswer(permissions: PermissionConfig, out: ChainOutcome): StoppedBy | undefined {
  if (out.decision === 'allow' && out.updatedPermissions !== undefined) {
    for (const tool of toolsAllowedBy(out.updatedPermissions)) permissions.alwaysAllowed.add(tool);
  }
  return out.decision === 'stop' ? stoppedBy('PermissionRequest', out) : undefined;
}
