/**
 * Answers the permission question for one tool call that no PreToolUse hook
 * allowed or denied. Order: deny rules → bypassPermissions → allowed for the
 * session ("allow always") → allow rules → acceptEdits for edit tools →
 * dontAsk denies → the question: PermissionRequest hooks, then `canUseTool`.
 * Deny rules win even over a hook's `allow`; a hook `ask` skips everything
 * but deny rules and goes to the question.
 * No callback, a throw, a timeout or an unknown answer is a denial.
 */
import { z } from 'zod';
import { messageOf } from '../errors.js';
import type { Emit, HostEventPayloads } from '../events/types.js';
import type { ChainOutcome } from '../hooks/dispatch.js';
import type { ToolMatcher } from '../hooks/matcher.js';
import type { CanUseTool, PermissionAnswer, PermissionMode, PermissionRequestInfo, PermissionSource } from './types.js';
import { lazy } from '../lazy.js';
import { timerDelay } from '../timer.js';
import { sameJson } from '../same-json.js';
import { copyJson } from '../json.js';
import { grantsTool } from './updates.js';
import { EDIT_TOOLS } from '../tools/reserved.js';

/** Tools acceptEdits lets through without asking: reserved names (tools/reserved.ts), so no plugin or MCP tool passes for one. */
const ACCEPT_EDITS: ReadonlySet<string> = new Set(EDIT_TOOLS);

export const DEFAULT_PERMISSION_TIMEOUT_MS = 300_000;

export interface PermissionConfig {
  mode: PermissionMode;
  allow: readonly ToolMatcher[];
  deny: readonly ToolMatcher[];
  canUseTool?: CanUseTool;
  timeoutMs: number;
  /**
   * Tool names allowed for the rest of the session: an outcome's `grants`, added by the loop only once
   * the call they came with is allowed to run (host/agent/tool-batch.ts), never here.
   */
  alwaysAllowed: Set<string>;
}

export type PermissionOutcome =
  /**
   * `shown`: the input the approver (the app's callback, a PermissionRequest hook) answered about.
   * `grants`: the tools the deciding answer allows for the rest of the session (`allow_always`, a
   * hook's `updatedPermissions`). Not applied here: the PreToolUse re-check (rule 4) or an abort may
   * still refuse the call, and an answer that did not end up deciding must leave no rule behind.
   */
  | { behavior: 'allow'; source: PermissionSource; input: Record<string, unknown>; shown?: Record<string, unknown>; grants?: readonly string[] }
  | { behavior: 'deny'; source: PermissionSource; message: string; hookName?: string };

export interface PermissionCall {
  toolName: string;
  toolUseId: string;
  input: Record<string, unknown>;
  /**
   * The model's input (path fields resolved, `tool.call`'s otherwise): `permission.resolved` carries the
   * input an allow runs only when it is not this one.
   */
  modelInput: Record<string, unknown>;
  /** The host's path resolution, applied to the input an allow runs (the app's `updatedInput` too). */
  normalize(input: Record<string, unknown>): Record<string, unknown>;
  /** The PreToolUse chain's decision (`allow` still yields to deny rules). */
  hookDecision: 'continue' | 'ask' | 'allow';
  signal: AbortSignal;
  emit: Emit;
  /** The session's working directory (the question's `workingDirectory`). */
  cwd: string;
  /** Set when the call comes from a sub-agent. */
  agentId?: string;
  parentToolUseId?: string;
  /** Runs the PermissionRequest hooks on the (possibly rewritten) input. */
  runHooks(input: Record<string, unknown>): Promise<ChainOutcome>;
  /** Fires the Notification hooks ("permission needed"). */
  notify(message: string): Promise<void>;
}

// Built at the first canUseTool answer (see lazy.ts), not when wasmhooks is imported.
const answerSchema = lazy(() =>
  z.discriminatedUnion('behavior', [
    z.object({ behavior: z.literal('allow'), updatedInput: z.record(z.string(), z.unknown()).optional() }),
    z.object({ behavior: z.literal('allow_always'), updatedInput: z.record(z.string(), z.unknown()).optional() }),
    z.object({ behavior: z.literal('deny'), message: z.string() }),
    z.object({ behavior: z.literal('cancelled') }),
  ]),
);

const matches = (rules: readonly ToolMatcher[], name: string) => rules.some((r) => r.test(name));

function staticOutcome(cfg: PermissionConfig, call: PermissionCall): PermissionOutcome | string {
  const { toolName: name, input } = call;
  if (matches(cfg.deny, name)) return { behavior: 'deny', source: 'rule', message: `${name} is denied by a rule` };
  if (call.hookDecision === 'allow') return { behavior: 'allow', source: 'hook', input };
  if (call.hookDecision === 'ask') return 'hook:ask';
  if (cfg.mode === 'bypassPermissions') return { behavior: 'allow', source: 'mode', input };
  if (cfg.alwaysAllowed.has(name)) return { behavior: 'allow', source: 'session', input };
  if (matches(cfg.allow, name)) return { behavior: 'allow', source: 'rule', input };
  if (cfg.mode === 'acceptEdits' && ACCEPT_EDITS.has(name)) return { behavior: 'allow', source: 'mode', input };
  if (cfg.mode === 'dontAsk') {
    return { behavior: 'deny', source: 'mode', message: `${name} is not allowed (permission mode dontAsk never asks)` };
  }
  return 'mode';
}

/** Calls the app's callback with a timeout; every non-answer is a denial. */
async function askApp(cfg: PermissionConfig, call: PermissionCall, input: Record<string, unknown>, reason: string): Promise<PermissionOutcome> {
  const { toolName: name } = call;
  if (!cfg.canUseTool) {
    return { behavior: 'deny', source: 'no-callback', message: `${name} needs permission and no canUseTool callback is set` };
  }
  const controller = new AbortController();
  let onAbort = () => {};
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => {
      controller.abort(call.signal.reason);
      resolve('aborted');
    };
  });
  if (call.signal.aborted) onAbort();
  else call.signal.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DOMException('permission timed out', 'TimeoutError'));
      resolve('timeout');
    }, timerDelay(cfg.timeoutMs));
  });
  // The app gets a copy: one that edits it in place and answers a plain allow has not rewritten
  // the input (only `updatedInput` does, and that rewrite is re-checked: agent/recheck.ts); run as
  // it was, the edit escaped the re-check (the loop saw the very object it asked about come back).
  const shown = copyJson(input) as Record<string, unknown>;
  try {
    const info: PermissionRequestInfo = {
      toolUseId: call.toolUseId,
      toolName: name,
      input: shown,
      signal: controller.signal,
      reason,
      workingDirectory: call.cwd,
      ...(call.agentId !== undefined ? { agentId: call.agentId } : {}),
      ...(call.parentToolUseId !== undefined ? { parentToolUseId: call.parentToolUseId } : {}),
    };
    const answer = await Promise.race([
      Promise.resolve().then(() => (cfg.canUseTool as CanUseTool)(name, shown, info)),
      timeout,
      aborted,
    ]);
    if (answer === 'timeout') {
      return { behavior: 'deny', source: 'callback-failed', message: `no permission answer for ${name} within ${cfg.timeoutMs} ms` };
    }
    if (answer === 'aborted') return { behavior: 'deny', source: 'callback-failed', message: 'aborted while asking for permission' };
    return fromAnswer(name, input, answer);
  } catch (e) {
    return { behavior: 'deny', source: 'callback-failed', message: `the permission callback failed: ${messageOf(e)}` };
  } finally {
    clearTimeout(timer);
    call.signal.removeEventListener('abort', onAbort);
  }
}

function fromAnswer(name: string, input: Record<string, unknown>, raw: PermissionAnswer): PermissionOutcome {
  const parsed = answerSchema().safeParse(raw);
  if (!parsed.success) {
    return { behavior: 'deny', source: 'callback-failed', message: `the permission callback gave an invalid answer: ${z.prettifyError(parsed.error)}` };
  }
  const answer = parsed.data;
  switch (answer.behavior) {
    case 'allow':
      return { behavior: 'allow', source: 'callback', input: answer.updatedInput ?? input, shown: input };
    case 'allow_always':
      return { behavior: 'allow', source: 'callback', input: answer.updatedInput ?? input, shown: input, grants: [name] };
    case 'deny':
      return { behavior: 'deny', source: 'callback', message: answer.message || `the user denied ${name}` };
    case 'cancelled':
      return { behavior: 'deny', source: 'callback', message: `the user cancelled the permission question for ${name}` };
    default: {
      const never: never = answer;
      return never;
    }
  }
}

/**
 * Resolves one call and emits permission.request (when asking) and permission.resolved. An allow's
 * `input` comes back path-resolved: the very input the tool gets, should the re-check let it run.
 */
export async function resolvePermission(cfg: PermissionConfig, call: PermissionCall): Promise<PermissionOutcome> {
  const first = staticOutcome(cfg, call);
  const outcome = typeof first === 'string' ? await ask(cfg, call, first) : first;
  // Key by key rather than with conditional spreads: Node 20 copies a spread slowly (see agent/hook-input.ts `hookInput`).
  const resolved: HostEventPayloads['permission.resolved'] & { type: 'permission.resolved' } = {
    type: 'permission.resolved',
    toolUseId: call.toolUseId,
    name: call.toolName,
    behavior: outcome.behavior,
    source: outcome.source,
  };
  if (outcome.behavior === 'deny') resolved.message = outcome.message;
  else {
    outcome.input = call.normalize(outcome.input);
    // This answer's grant, not the session's set: a PreToolUse `ask` reaches the question for a tool
    // already allowed for the session, and a plain allow then is no "allow always".
    if (outcome.grants?.includes(call.toolName) === true) resolved.always = true;
    // The input that runs, when a hook or the approver rewrote it: `tool.call` shows only the model's,
    // and an audit log must tell `ls` from `rm -rf ~`. Compared only when it is another object (no
    // rewrite: the same one, nothing to pay); a copy, so a subscriber cannot edit what runs. The
    // re-check (rule 4) can refuse this input, never change it: it is final or it does not run.
    const ran = outcome.input;
    if (ran !== call.modelInput && !sameJson(ran, call.modelInput)) resolved.input = copyJson(ran) as Record<string, unknown>;
  }
  call.emit(resolved);
  return outcome;
}

/**
 * The question. The PermissionRequest hooks answer first (Claude Code's: they run where a dialog
 * would show, and may rewrite the input); only when none answered is the question announced
 * (`permission.request`) and the app asked. The event, the app's callback (the HTTP
 * `can_use_tool` too) and the Notification hooks are then given one input and one reason: the
 * input that runs if the answer is a plain allow. Announced before the hooks (as it was until
 * red21's note), the event showed the input a PermissionRequest hook then rewrote: a UI showing
 * it had a person approve `ls` while `rm -rf ~` ran.
 */
async function ask(cfg: PermissionConfig, call: PermissionCall, reason: string): Promise<PermissionOutcome> {
  const hooks = await call.runHooks(call.input);
  const input = hooks.updatedInput ?? call.input;
  if (call.signal.aborted) return { behavior: 'deny', source: 'callback-failed', message: 'aborted while asking for permission' };
  // An allow answers for the input its hook saw: a later hook's rewrite was never approved, so the
  // question goes on to the app, shown the input that would run (re-asked, never run on a stale allow).
  const stale = hooks.decision === 'allow' && hooks.allowedInput !== undefined && hooks.allowedInput !== input && !sameJson(hooks.allowedInput, input);
  if (hooks.decision === 'allow' && !stale) {
    // Only the deciding chain's updates, and only as grants (see PermissionOutcome): a stale allow's
    // were never applied (before session 36 they were, as the chain answered: its session rule stayed).
    // Only the asked-about tool (updates.ts `grantsTool`): a rule for another tool is a grant nobody was asked for.
    return hooks.updatedPermissions && grantsTool(hooks.updatedPermissions, call.toolName)
      ? { behavior: 'allow', source: 'permission-hook', input, shown: input, grants: [call.toolName] }
      : { behavior: 'allow', source: 'permission-hook', input, shown: input };
  }
  // A stop (`continue: false`, a deny with `interrupt`) denies the call; the batch ends the turn (agent/permission-answer.ts).
  if (hooks.decision === 'deny' || hooks.decision === 'stop') {
    return {
      behavior: 'deny',
      source: 'permission-hook',
      message: hooks.reason ?? `${call.toolName} was denied by a PermissionRequest hook`,
      ...(hooks.decidedBy ? { hookName: hooks.decidedBy.hookName } : {}),
    };
  }
  const why = stale ? `${reason}; hook "${hooks.decidedBy?.hookName}" allowed the call before hook "${hooks.rewrittenBy?.hookName}" rewrote its input` : reason;
  // A copy: a subscriber that edits the event's input in place must not change the input that runs.
  call.emit({ type: 'permission.request', toolUseId: call.toolUseId, name: call.toolName, input: copyJson(input) as Record<string, unknown>, reason: why });
  await call.notify(`${call.toolName} needs permission`);
  return askApp(cfg, call, input, why);
}
