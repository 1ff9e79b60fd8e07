/**
 * "A guard judges the input that runs." A tool input rewritten after the
 * PreToolUse hooks judged it (by a later PreToolUse hook, a PermissionRequest
 * hook, the app's permission answer or a remote hook) goes through the
 * matching PreToolUse hooks once more, on the very input the tool would get,
 * before the tool runs. The pass can only refuse: deny or stop refuses, a
 * fail-closed failure refuses (it reads as deny), `ask` passes only when the
 * permission question was answered about this very input (a call is asked
 * about once), a second rewrite to a different input refuses (no
 * loops), and an `allow` that let the call skip the permission question must
 * be given again for the new input. An equal rewrite (an idempotent
 * normaliser) passes. See docs/hooks.md, rule 4.
 *
 * The pass's hook inputs and its hook.start/hook.end events carry `recheck: true`, so a
 * hook (a WASM guard too: the protocol's `ToolUsePayload.recheck`) and a UI can tell the
 * re-judgement from the first round; a context line the first round already gathered
 * for this call is not gathered again (the same hook saying the same thing twice).
 */
import type { DenialSource, Emit, StoppedBy } from '../events/types.js';
import { dispatch, stoppedBy, type DispatchContext } from '../hooks/dispatch.js';
import type { PermissionSource } from '../permissions/types.js';
import { sameJson } from '../same-json.js';
import { recheckHookInput } from './hook-input.js';
import type { ToolCallRequest } from './model-turn.js';
import type { BatchScope } from './permission-question.js';
import type { HookText } from '../hooks/types.js';
import { sameHookText } from './hook-text.js';

/** Why the re-check refused the call; `stop` also ends the turn, as a PreToolUse `stop` does. */
export interface Refusal {
  reason: string;
  source: DenialSource;
  hookName?: string;
  stop?: StoppedBy;
}

/**
 * Runs the PreToolUse hooks on `final`, the input about to run. `allowedBy`: the permission's
 * source (`hook` when a PreToolUse `allow` skipped the question). `answeredAbout`: the permission
 * question was answered (by the app or a PermissionRequest hook) about `final` itself, so an `ask`
 * has had its answer. `gathered`: the additionalContext of the first round, already on its way
 * to the model. Undefined when the call may run.
 */
export async function recheckInput(
  b: BatchScope,
  call: ToolCallRequest,
  final: Record<string, unknown>,
  allowedBy: PermissionSource,
  answeredAbout: boolean,
  gathered: readonly HookText[],
): Promise<Refusal | undefined> {
  const again = await dispatch(recheckContext(b.ctx), 'PreToolUse', () => recheckHookInput(b.common, call.name, call.id, final));
  for (const line of again.additionalContext) if (!gathered.some((g) => sameHookText(g, line))) b.config.pendingContext.push(line);
  if (b.signal.aborted) return { reason: 'aborted before the tool ran', source: 'aborted' };
  const name = again.decidedBy?.hookName;
  const refused = `the rewritten input of ${call.name} was refused on the re-check`;
  switch (again.decision) {
    case 'deny':
      return { reason: `${refused} by hook "${name}": ${again.reason ?? 'denied'}`, source: 'hook', ...(name ? { hookName: name } : {}) };
    case 'stop': {
      const stop = stoppedBy('PreToolUse', again);
      return { reason: `${refused}: hook "${name}" stopped the turn${again.reason ? `: ${again.reason}` : ''}`, source: 'stopped', ...(name ? { hookName: name } : {}), stop };
    }
    case 'ask':
      if (answeredAbout) break;
      return {
        reason: `${refused}: hook "${name}" asks for permission on the rewritten input, and a call is asked about once${again.reason ? ` (${again.reason})` : ''}`,
        source: 'hook',
        ...(name ? { hookName: name } : {}),
      };
    case 'allow':
    case 'continue':
      break;
    case 'block':
      throw new Error('internal: block is not legal for PreToolUse');
    default: {
      const never: never = again.decision;
      throw new Error(`internal: unknown decision ${String(never)}`);
    }
  }
  if (again.updatedInput !== undefined && (again.rewrittenAfterJudged === true || !sameJson(again.updatedInput, final))) {
    const by = again.rewrittenBy?.hookName;
    return {
      reason: `${refused}: hook "${by}" rewrote it again, to a different input (a rewritten input is re-checked once, never in a loop)`,
      source: 'hook',
      ...(by ? { hookName: by } : {}),
    };
  }
  if (allowedBy === 'hook' && again.decision !== 'allow') {
    return { reason: `${refused}: a PreToolUse hook allowed the input before it was rewritten, and no hook allows the rewritten one`, source: 'hook' };
  }
  return undefined;
}

/** The batch's dispatch context, with this pass's hook.start/hook.end marked `recheck: true`. */
function recheckContext(ctx: DispatchContext): DispatchContext {
  const emit: Emit = (e) => ctx.emit(e.type === 'hook.start' || e.type === 'hook.end' ? { ...e, recheck: true } : e);
  return { ...ctx, emit };
}
