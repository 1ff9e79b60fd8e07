/**
 * Runs the hooks of one event as a chain: registration order; a rewritten
 * input is what the next hook sees; deny/stop/block end the chain; the most
 * restrictive decision wins (deny/stop/block > ask > allow > continue);
 * additionalContext from every hook is gathered. Failures and protocol
 * violations go through the handler's failure policy. Each call emits
 * hook.start and hook.end.
 */
import type { PluginFailure } from '../sandbox/types.js';
import type { Emit } from '../events/types.js';
import { DECISION_RANK, HOOK_EVENT_RULES, TERMINAL_DECISIONS, violation } from './decisions.js';
import type { HookRegistry } from './registry.js';
import type { HookDecision, HookHandler, HookInput, HookOutput, HookResult } from './types.js';

export interface DispatchContext {
  registry: HookRegistry;
  emit: Emit;
  /** The prompt's signal; hooks get a child signal that also fires on their timeout. */
  signal: AbortSignal;
  /** Applied to an updatedInput before the next hook sees it (path resolution). */
  normalizeInput?: (input: Record<string, unknown>) => Record<string, unknown>;
}

export interface ChainOutcome<I extends HookInput = HookInput> {
  decision: HookDecision;
  reason?: string;
  /** The hook whose decision won (absent for `continue`). */
  decidedBy?: { hookId: string; hookName: string };
  /** The input after every rewrite. */
  input: I;
  inputUpdated: boolean;
  /** PostToolUse: the last rewritten output. */
  updatedOutput?: string;
  additionalContext: string[];
  systemMessages: string[];
}

function selected(handlers: readonly HookHandler[], input: HookInput): HookHandler[] {
  const toolName = 'tool_name' in input && HOOK_EVENT_RULES[input.hook_event_name].toolScoped ? input.tool_name : undefined;
  return handlers.filter((h) => !h.matcher || toolName === undefined || h.matcher.test(toolName));
}

/** Runs one handler with its timeout and the prompt's signal; never throws. */
async function callHandler(handler: HookHandler, input: HookInput, outer: AbortSignal): Promise<HookResult> {
  const controller = new AbortController();
  let settle!: (r: HookResult) => void;
  const stopped = new Promise<HookResult>((resolve) => (settle = resolve));
  const onOuterAbort = () => {
    controller.abort(outer.reason);
    settle({ ok: false, failure: { code: 'ABORTED', message: 'the session was aborted' } });
  };
  const timer = setTimeout(() => {
    const message = `hook "${handler.name}" timed out after ${handler.timeoutMs} ms`;
    controller.abort(new DOMException(message, 'TimeoutError'));
    settle({ ok: false, failure: { code: 'TIMEOUT', message } });
  }, handler.timeoutMs);
  if (outer.aborted) onOuterAbort();
  else outer.addEventListener('abort', onOuterAbort, { once: true });
  try {
    const arg = handler.kind === 'js' ? structuredClone(input) : input;
    const running = Promise.resolve()
      .then(() => handler.run(arg, { signal: controller.signal }))
      .catch((e: unknown): HookResult => ({
        ok: false,
        failure: { code: 'TRAP', message: `hook threw: ${e instanceof Error ? e.message : String(e)}` },
      }));
    return await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onOuterAbort);
  }
}

function failureReason(handler: HookHandler, failure: PluginFailure): string {
  return `hook "${handler.name}" failed (${failure.code}): ${failure.message}`;
}

/**
 * @example
 * const out = await dispatch(ctx, { hook_event_name: 'PreToolUse', ...common, tool_name, tool_input, tool_use_id });
 * if (out.decision === 'deny') …
 */
export async function dispatch<I extends HookInput>(ctx: DispatchContext, input: I): Promise<ChainOutcome<I>> {
  const event = input.hook_event_name;
  const all = ctx.registry.forEvent(event);
  const outcome: ChainOutcome<I> = { decision: 'continue', input, inputUpdated: false, additionalContext: [], systemMessages: [] };
  if (all.length === 0) return outcome;
  const rule = HOOK_EVENT_RULES[event];
  const toolUseId = 'tool_use_id' in input ? input.tool_use_id : undefined;

  for (const handler of selected(all, input)) {
    if (ctx.signal.aborted) break;
    const ref = {
      hookId: handler.id,
      hookName: handler.name,
      kind: handler.kind,
      event,
      ...(handler.plugin !== undefined ? { plugin: handler.plugin } : {}),
      ...(toolUseId !== undefined ? { toolUseId } : {}),
    };
    ctx.emit({ type: 'hook.start', ...ref });
    const started = performance.now();
    let result = await callHandler(handler, outcome.input, ctx.signal);
    if (result.ok) {
      const bad = violation(event, result.output);
      if (bad) result = { ok: false, failure: { code: 'BAD_OUTPUT', message: bad }, ...fuel(result) };
    }

    let decision: HookDecision;
    let reason: string | undefined;
    let output: HookOutput = {};
    if (result.ok) {
      output = result.output;
      decision = output.decision ?? 'continue';
      reason = output.reason;
    } else {
      decision = handler.failurePolicy === 'fail-closed' ? (rule.closedDecision ?? 'continue') : 'continue';
      reason = failureReason(handler, result.failure);
    }
    ctx.emit({
      type: 'hook.end',
      ...ref,
      decision,
      durationMs: performance.now() - started,
      ...(reason !== undefined ? { reason } : {}),
      ...fuel(result),
      ...(result.ok ? {} : { failure: result.failure, failurePolicy: handler.failurePolicy }),
      ...(output.systemMessage !== undefined ? { systemMessage: output.systemMessage } : {}),
      ...(output.additionalContext !== undefined ? { additionalContext: output.additionalContext } : {}),
      ...(output.updatedInput !== undefined ? { inputUpdated: true } : {}),
    });

    if (output.additionalContext) outcome.additionalContext.push(output.additionalContext);
    if (output.systemMessage) outcome.systemMessages.push(output.systemMessage);
    if (output.updatedInput && 'tool_input' in outcome.input) {
      const next = ctx.normalizeInput ? ctx.normalizeInput(output.updatedInput) : output.updatedInput;
      outcome.input = { ...outcome.input, tool_input: next };
      outcome.inputUpdated = true;
    }
    if (output.updatedOutput !== undefined && 'tool_response' in outcome.input) {
      outcome.input = { ...outcome.input, tool_response: output.updatedOutput };
      outcome.updatedOutput = output.updatedOutput;
    }
    if (DECISION_RANK[decision] > DECISION_RANK[outcome.decision]) {
      outcome.decision = decision;
      outcome.decidedBy = { hookId: handler.id, hookName: handler.name };
      if (reason !== undefined) outcome.reason = reason;
      else delete outcome.reason;
    }
    if (TERMINAL_DECISIONS.has(decision)) break;
  }
  return outcome;
}

function fuel(r: HookResult): { fuelUsed?: number } {
  return r.fuelUsed !== undefined ? { fuelUsed: r.fuelUsed } : {};
}
