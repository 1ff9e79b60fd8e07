/**
 * What the PermissionRequest hooks' answer means beyond allow/deny (Claude Code's contract), kept out
 * of the permission question itself (permission-question.ts): the input they see, with
 * `permission_suggestions`; the session allow rules a deciding answer grants, applied once its call may
 * run; and the turn's end when one of them stopped it (`continue: false`, a deny with `interrupt: true`).
 */
import type { StoppedBy } from '../events/types.js';
import { stoppedBy, type ChainOutcome } from '../hooks/dispatch.js';
import type { HookCommon, HookInputOf } from '../hooks/types.js';
import type { PermissionConfig } from '../permissions/resolve.js';
import { permissionSuggestions } from '../permissions/updates.js';
import { toolCallInput } from './hook-input.js';

/** A call's PermissionRequest input: `toolCallInput`'s, plus what a person asked would be offered. */
export function permissionRequestInput(common: HookCommon, toolName: string, toolUseId: string, toolInput: Record<string, unknown>): HookInputOf<'PermissionRequest'> {
  return Object.assign(toolCallInput(common, 'PermissionRequest', toolName, toolUseId, toolInput), { permission_suggestions: permissionSuggestions(toolName) });
}

/** The stop when a PermissionRequest hook stopped the turn (resolve.ts denies the call; the batch then ends the turn). */
export function permissionStop(out: ChainOutcome): StoppedBy | undefined {
  return out.decision === 'stop' ? stoppedBy('PermissionRequest', out) : undefined;
}

/**
 * Allows for the rest of the session the tools of a deciding answer (`allow_always`, a PermissionRequest
 * allow's `updatedPermissions`: resolve.ts `grants`). Called only for a call about to run: when the
 * chain answered (as before session 36), a stale allow, one the app then overruled, one the re-check
 * refused or an abort had already left its rule, and every later call of the tool ran unasked.
 */
export function applyGrants(permissions: PermissionConfig, grants: readonly string[] | undefined): void {
  if (grants) for (const tool of grants) permissions.alwaysAllowed.add(tool);
}
