/**
 * Claude Code's permission updates (`PermissionUpdate`): what a PermissionRequest hook's
 * `hookSpecificOutput.decision.updatedPermissions` may carry, and what its input's
 * `permission_suggestions` offer. One schema for reading them, and the one rule of what is
 * applied (docs/hooks.md, "Shapes, for porting hooks"):
 *
 * - `addRules` with `behavior: 'allow'` and a rule naming a whole tool (no `ruleContent`) allows that
 *   tool for the rest of the session, as the app's `allow_always` answer does, whatever its
 *   `destination` (a library writes no settings file), when it names the tool of the call the
 *   answer decides (a rule for any other tool is read and not applied: `grantsTool`);
 * - every other update (`ruleContent`, `deny`/`ask` rules, `replaceRules`, `removeRules`,
 *   `setMode`, `addDirectories`, `removeDirectories`) is read and checked, then not applied: the
 *   host has no content rules, no settings files and no directory list to change.
 */
import { z } from 'zod';
import { lazy } from '../lazy.js';
import type { PermissionMode } from './types.js';

export type PermissionUpdateDestination = 'userSettings' | 'projectSettings' | 'localSettings' | 'session' | 'cliArg';
export type PermissionBehavior = 'allow' | 'deny' | 'ask';
export interface PermissionRuleValue {
  toolName: string;
  ruleContent?: string;
}

/** Claude Code's `PermissionUpdate`. */
export type PermissionUpdate =
  | { type: 'addRules' | 'replaceRules' | 'removeRules'; rules: PermissionRuleValue[]; behavior: PermissionBehavior; destination: PermissionUpdateDestination }
  | { type: 'setMode'; mode: PermissionMode | 'plan'; destination: PermissionUpdateDestination }
  | { type: 'addDirectories' | 'removeDirectories'; directories: string[]; destination: PermissionUpdateDestination };

// Built at the first hook answer that carries updates (see lazy.ts).
export const permissionUpdatesSchema = lazy(() => {
  const destination = z.enum(['userSettings', 'projectSettings', 'localSettings', 'session', 'cliArg']);
  const rules = z.array(z.strictObject({ toolName: z.string().min(1), ruleContent: z.string().optional() }));
  const behavior = z.enum(['allow', 'deny', 'ask']);
  return z.array(
    z.discriminatedUnion('type', [
      z.strictObject({ type: z.enum(['addRules', 'replaceRules', 'removeRules']), rules, behavior, destination }),
      z.strictObject({ type: z.literal('setMode'), mode: z.enum(['default', 'acceptEdits', 'bypassPermissions', 'dontAsk', 'plan']), destination }),
      z.strictObject({ type: z.enum(['addDirectories', 'removeDirectories']), directories: z.array(z.string()), destination }),
    ]),
  ) satisfies z.ZodType<PermissionUpdate[]>;
});

/**
 * Whether `updates` allow `toolName`, the tool of the call their answer decides, for the rest of the
 * session (the one shape that is applied). A rule naming another tool is not applied: a hook is asked
 * about one call (its matcher may cover that tool alone), and until session 36 a `Read` hook's allow
 * could add `Bash`, so that every later Bash call skipped the question (its PermissionRequest guards
 * and the person) with nothing in the stream to say so (`permission.resolved.always` is about the call).
 */
export function grantsTool(updates: readonly PermissionUpdate[], toolName: string): boolean {
  return updates.some((u) => u.type === 'addRules' && u.behavior === 'allow' && u.rules.some((r) => r.ruleContent === undefined && r.toolName === toolName));
}

/**
 * What a person asked about `toolName` is offered, as Claude Code's `permission_suggestions`: allowing the
 * tool for the session (the app's `allow_always`), the one update a hook's answer can apply.
 */
export function permissionSuggestions(toolName: string): PermissionUpdate[] {
  return [{ type: 'addRules', rules: [{ toolName }], behavior: 'allow', destination: 'session' }];
}
