/**
 * What each hook event allows, as data. docs/hooks.md is the prose version of
 * this table; keep the two together.
 */
import type { FailurePolicy, HookDecision, HookEventName, HookOutput } from './types.js';
import { hookTextOverCap } from './caps.js';

export interface HookEventRule {
  /** Decisions a hook may return; anything else is a protocol violation (a failure). */
  decisions: readonly HookDecision[];
  /** Default failure policy of handlers that do not set one. */
  defaultPolicy: FailurePolicy;
  /** What a failure becomes under fail-closed; `undefined`: the event cannot be refused, so closed acts as open. */
  closedDecision?: HookDecision;
  /** Matchers are tested against the tool name. */
  toolScoped: boolean;
  /**
   * On a non-tool event: the input field matchers are tested against, as Claude Code's matchers
   * (SessionStart `source`, PreCompact `trigger`, …). Absent: matchers are ignored.
   */
  matchOn?: 'source' | 'reason' | 'trigger' | 'notification_type' | 'agent_type';
  updatedInput: boolean;
  updatedOutput: boolean;
}

/** A rule with the common defaults: fail open, not tool-scoped, no rewrites. */
const rule = (r: Partial<HookEventRule> & Pick<HookEventRule, 'decisions'>): HookEventRule => ({
  defaultPolicy: 'fail-open',
  toolScoped: false,
  updatedInput: false,
  updatedOutput: false,
  ...r,
});

/** Observe-only events: hooks run but cannot change anything. */
const observe = (r: Partial<HookEventRule> = {}): HookEventRule => rule({ decisions: ['continue'], ...r });

export const HOOK_EVENT_RULES: Readonly<Record<HookEventName, HookEventRule>> = {
  SessionStart: observe({ matchOn: 'source' }),
  SessionEnd: observe({ matchOn: 'reason' }),
  UserPromptSubmit: rule({ decisions: ['continue', 'deny', 'stop'], defaultPolicy: 'fail-closed', closedDecision: 'deny' }),
  IterationStart: rule({ decisions: ['continue', 'stop'], closedDecision: 'stop' }),
  PreToolBatch: rule({ decisions: ['continue', 'stop'], closedDecision: 'stop' }),
  PreToolUse: rule({
    decisions: ['continue', 'allow', 'deny', 'ask', 'stop'],
    defaultPolicy: 'fail-closed',
    closedDecision: 'deny',
    toolScoped: true,
    updatedInput: true,
  }),
  // stop: Claude Code's `continue: false` and a deny with `interrupt: true` end the turn.
  PermissionRequest: rule({
    decisions: ['continue', 'allow', 'deny', 'stop'],
    defaultPolicy: 'fail-closed',
    closedDecision: 'deny',
    toolScoped: true,
    updatedInput: true,
  }),
  PostToolUse: rule({ decisions: ['continue', 'stop'], closedDecision: 'stop', toolScoped: true, updatedOutput: true }),
  // Observers, but they may rewrite the error text the model gets (a redactor, say).
  PostToolUseFailure: observe({ toolScoped: true, updatedOutput: true }),
  PostToolBatch: observe(),
  // A broken stop-handler lets the agent stop: the safe side is not looping.
  Stop: rule({ decisions: ['continue', 'block'], closedDecision: 'continue' }),
  StopFailure: observe(),
  SubagentStart: rule({ decisions: ['continue', 'deny'], closedDecision: 'deny', matchOn: 'agent_type' }),
  // As for Stop: a broken hook lets the sub-agent stop.
  SubagentStop: rule({ decisions: ['continue', 'block'], closedDecision: 'continue', matchOn: 'agent_type' }),
  PreCompact: rule({ decisions: ['continue', 'deny', 'stop'], closedDecision: 'stop', matchOn: 'trigger' }),
  PostCompact: observe({ matchOn: 'trigger' }),
  Notification: observe({ matchOn: 'notification_type' }),
  Error: observe(),
};

/** Decisions that end the chain of hooks for one event (not on an event whose hooks rewrite output: chain.ts `end`). */
export const TERMINAL_DECISIONS: ReadonlySet<HookDecision> = new Set(['deny', 'stop', 'block']);

/** Higher wins when several hooks in a chain answer (deny/stop/block end the chain anyway). */
export const DECISION_RANK: Readonly<Record<HookDecision, number>> = {
  continue: 0,
  allow: 1,
  ask: 2,
  deny: 3,
  stop: 3,
  block: 3,
};

/** Why `output` is not legal for `event`, or undefined when it is. */
export function violation(event: HookEventName, output: HookOutput): string | undefined {
  const rule = HOOK_EVENT_RULES[event];
  const decision = output.decision ?? 'continue';
  if (!rule.decisions.includes(decision)) {
    return `decision "${decision}" is not legal for ${event} (legal: ${rule.decisions.join(', ')})`;
  }
  if (output.updatedInput !== undefined && !rule.updatedInput) return `updatedInput is not legal for ${event}`;
  if (output.updatedOutput !== undefined && !rule.updatedOutput) return `updatedOutput is not legal for ${event}`;
  if (output.updatedPermissions !== undefined && event !== 'PermissionRequest') return `updatedPermissions is not legal for ${event}`;
  if (output.updatedPermissions !== undefined && decision !== 'allow') return `updatedPermissions comes only with an allow (got ${decision})`;
  // Every kind of hook (JS, shell, remote callbacks; a plugin's answer is checked as it is decoded too).
  return hookTextOverCap(output);
}

/** The failure policy of a handler that sets none (guards closed, observers open). */
export function defaultFailurePolicy(event: HookEventName): FailurePolicy {
  return HOOK_EVENT_RULES[event].defaultPolicy;
}
