/**
 * One chain of hooks as `dispatch` (dispatch.ts) runs it: the context it runs
 * in, the outcome it comes to, and the state it keeps between its hooks
 * (`Chain`, one object, so the chain's async frame stays a few registers),
 * with the hook.start and hook.end events each hook call emits.
 */
import type { PluginFailure } from '../failure.js';
import type { Emit, EmittedEvent } from '../events/types.js';
import { DECISION_RANK, HOOK_EVENT_RULES, TERMINAL_DECISIONS, violation, type HookEventRule } from './decisions.js';
import type { HookRegistry } from './registry.js';
import type { PermissionUpdate } from '../permissions/updates.js';
import { sameJson } from '../same-json.js';
import type { HookDecision, HookEventName, HookHandler, HookInput, HookOutput, HookResult, HookRunContext, HookText } from './types.js';

export interface DispatchContext {
  registry: HookRegistry;
  emit: Emit;
  /** The prompt's signal; hooks get a child signal that also fires on their timeout. */
  signal: AbortSignal;
  /** Applied to an updatedInput before the next hook sees it (path resolution). */
  normalizeInput?: (input: Record<string, unknown>) => Record<string, unknown>;
}

export interface ChainOutcome {
  decision: HookDecision;
  reason?: string;
  /** The hook whose decision won (absent for `continue`). */
  decidedBy?: { hookId: string; hookName: string };
  /** The tool input after every rewrite; absent when no hook rewrote it. */
  updatedInput?: Record<string, unknown>;
  /** The last hook whose rewrite changed the tool input (an equal rewrite, a normaliser's no-op, does not count). */
  rewrittenBy?: { hookId: string; hookName: string };
  /**
   * Set when a hook changed the tool input after an earlier hook of the chain had judged it:
   * the earlier hook never saw the input that runs (the loop re-checks it, host/agent/tool-batch.ts).
   */
  rewrittenAfterJudged?: boolean;
  /**
   * Tool events: the tool input the last `allow` was given for (after that hook's own rewrite). A
   * later hook's rewrite makes it differ from `updatedInput`: that allow vouched for another input.
   */
  allowedInput?: Record<string, unknown>;
  /** PostToolUse: the last rewritten output. */
  updatedOutput?: string;
  /**
   * PermissionRequest: the `updatedPermissions` of the allowing hooks since the last rewrite that changed
   * the input, in order (granted only when the chain's allow decides the call: permissions/resolve.ts).
   */
  updatedPermissions?: PermissionUpdate[];
  /**
   * Set when the prompt's abort cut the chain short (a hook was stopped by it, or hooks were left
   * to run): the outcome is then the event's fail-closed one (`Chain.abort`), never what the hooks
   * that did run had decided so far.
   */
  aborted?: true;
  /** Each hook's additionalContext with its name: the frame the model reads names it (agent/hook-text.ts). */
  additionalContext: readonly HookText[];
  systemMessages: readonly string[];
}

/** The outcome when no hook listens: shared, frozen, allocation-free. */
export const NOTHING: ChainOutcome = Object.freeze({
  decision: 'continue',
  additionalContext: Object.freeze([]) as readonly HookText[],
  systemMessages: Object.freeze([]) as readonly string[],
});

/** A failed fail-open hook's output: nothing (shared, read only). */
const NO_OUTPUT: HookOutput = Object.freeze({});

/**
 * What handlers' matchers test: the tool name on a tool event, the event's `matchOn` field on the others
 * that have one (SessionStart `source`, …: Claude Code's matchers), else undefined (matchers ignored).
 */
export function matchedSubject(input: HookInput): string | undefined {
  const rule = HOOK_EVENT_RULES[input.hook_event_name];
  if (rule.toolScoped) return 'tool_name' in input ? input.tool_name : undefined;
  if (rule.matchOn === undefined) return undefined;
  const value: unknown = (input as unknown as Record<string, unknown>)[rule.matchOn];
  return typeof value === 'string' ? value : undefined;
}

/** Whether `handler` runs in a chain of session `sessionId` whose matched subject (tool name, …) is `subject` (undefined: matchers ignored). */
export function applies(handler: HookHandler, subject: string | undefined, sessionId: string): boolean {
  if (handler.matcher && subject !== undefined && !handler.matcher.test(subject)) return false;
  return handler.sessions === undefined || handler.sessions.has(sessionId);
}

function failureReason(handler: HookHandler, failure: PluginFailure): string {
  return `hook "${handler.name}" failed (${failure.code}): ${failure.message}`;
}

/** One chain's state between its hooks: the input the next hook sees, and what the chain gathered. */
export class Chain {
  readonly outcome: ChainOutcome = { decision: 'continue', additionalContext: NOTHING.additionalContext, systemMessages: NOTHING.systemMessages };
  readonly toolUseId: string | undefined;
  /** Matchers see the tool name (or `matchOn` field) of the chain's first input (a rewrite changes tool_input, never tool_name). */
  readonly subject: string | undefined;
  readonly #rule: HookEventRule;
  // Made on the first line each gathers: most chains gather none.
  #context: HookText[] | undefined = undefined;
  #messages: string[] | undefined = undefined;
  /** The context self-timed handlers get: the prompt's signal, one object per chain. */
  #selfTimed: HookRunContext | undefined = undefined;
  /** Whether a hook of this chain has judged the tool input (a later rewrite then goes unseen by it). */
  #judged = false;

  constructor(
    private readonly ctx: DispatchContext,
    private readonly event: HookEventName,
    /** The input the next hook sees (a rewrite replaces it). */
    public input: HookInput,
  ) {
    this.#rule = HOOK_EVENT_RULES[event];
    this.toolUseId = 'tool_use_id' in input ? input.tool_use_id : undefined;
    this.subject = matchedSubject(input);
  }

  selfTimed(): HookRunContext {
    // A plugin hook's log lines are this chain's session's events, not every live session's.
    const ctx = this.ctx;
    return (this.#selfTimed ??= { signal: ctx.signal, onLog: (line) => ctx.emit({ type: 'plugin.log', ...line }) });
  }

  /** Emits hook.start; returns the clock the hook's duration is taken from. */
  start(handler: HookHandler): number {
    this.ctx.emit(hookStart(handler, this.event, this.toolUseId));
    return performance.now();
  }

  /**
   * The outcome of a chain the prompt's abort cut short: the event's fail-closed decision (a
   * PreToolUse or PermissionRequest chain denies, a PostToolUse one stops; never `allow`), no
   * rewritten input, and, when a hook that did not finish is fail-closed and the event rewrites
   * output (a redactor that never ran), the output withheld. The hooks that ran keep their
   * context and messages. `unfinished`: the handlers from the one the abort stopped or reached.
   */
  abort(unfinished: readonly HookHandler[]): ChainOutcome {
    const rule = this.#rule;
    const o = this.outcome;
    const reason = `the prompt was aborted before the ${this.event} hooks finished`;
    o.aborted = true;
    o.decision = rule.closedDecision ?? 'continue';
    o.reason = reason;
    delete o.decidedBy;
    delete o.updatedInput;
    delete o.rewrittenBy;
    delete o.rewrittenAfterJudged;
    delete o.updatedPermissions;
    if (rule.updatedOutput && unfinished.some((h) => h.failurePolicy === 'fail-closed' && this.matches(h))) {
      o.updatedOutput = `[output withheld: ${reason}]`;
    }
    return o;
  }

  /** Whether `handler` is one of this chain's (its matcher and its sessions). */
  matches(handler: HookHandler): boolean {
    return applies(handler, this.subject, this.input.session_id);
  }

  /**
   * Folds one hook's result into the chain and emits hook.end; true when its decision ends the chain. On an
   * event whose hooks rewrite output (PostToolUse, PostToolUseFailure) none does: the tool has run and the
   * conversation keeps its output, so a `stop` ends the turn, not the review. It ended the chain before
   * (red42), and an output hook after the stopper (a redactor) never ran: the raw output went to the
   * conversation, `tool.output` and the transcript.
   */
  end(handler: HookHandler, result: HookResult, started: number): boolean {
    const { ctx, event, outcome } = this;
    const rule = this.#rule;
    if (result.ok) {
      const bad = violation(event, result.output);
      if (bad) result = { ok: false, failure: { code: 'BAD_OUTPUT', message: bad }, ...fuel(result) };
    }

    let decision: HookDecision;
    let reason: string | undefined;
    let output: HookOutput = NO_OUTPUT;
    if (result.ok) {
      output = result.output;
      decision = output.decision ?? 'continue';
      reason = output.reason;
    } else {
      decision = handler.failurePolicy === 'fail-closed' ? (rule.closedDecision ?? 'continue') : 'continue';
      reason = failureReason(handler, result.failure);
      // A fail-closed output hook (a redactor, say) that failed never vouched for the output: withhold it.
      if (handler.failurePolicy === 'fail-closed' && rule.updatedOutput) output = { updatedOutput: `[output withheld: ${reason}]` };
    }
    const end = hookEnd(handler, event, this.toolUseId, decision, performance.now() - started, reason, result.fuelUsed);
    if (!result.ok) {
      end.failure = result.failure;
      end.failurePolicy = handler.failurePolicy;
    }
    if (output.systemMessage !== undefined) end.systemMessage = output.systemMessage;
    if (output.additionalContext !== undefined) end.additionalContext = output.additionalContext;
    if (output.updatedInput !== undefined) end.inputUpdated = true;
    ctx.emit(end);

    if (output.additionalContext) {
      if (!this.#context) outcome.additionalContext = this.#context = [];
      this.#context.push({ from: handler.name, text: output.additionalContext });
    }
    if (output.systemMessage) {
      if (!this.#messages) outcome.systemMessages = this.#messages = [];
      this.#messages.push(output.systemMessage);
    }
    const input = this.input;
    if (output.updatedInput && 'tool_input' in input) {
      const next = ctx.normalizeInput ? ctx.normalizeInput(output.updatedInput) : output.updatedInput;
      // Compared only when a hook rewrote: the chain without rewrites pays nothing.
      if (!sameJson(next, input.tool_input)) {
        outcome.rewrittenBy = { hookId: handler.id, hookName: handler.name };
        if (this.#judged) outcome.rewrittenAfterJudged = true;
        // Updates an earlier hook gave with its allow answered about the input before this rewrite:
        // they do not carry over to an input that hook never saw (this hook's own, below, do).
        delete outcome.updatedPermissions;
      }
      this.input = { ...input, tool_input: next };
      outcome.updatedInput = next;
    }
    this.#judged = true;
    if (output.updatedPermissions !== undefined) (outcome.updatedPermissions ??= []).push(...output.updatedPermissions);
    if (output.updatedOutput !== undefined && 'tool_response' in this.input) {
      this.input = { ...this.input, tool_response: output.updatedOutput };
      outcome.updatedOutput = output.updatedOutput;
    }
    if (decision === 'allow' && 'tool_input' in this.input) outcome.allowedInput = this.input.tool_input;
    if (DECISION_RANK[decision] > DECISION_RANK[outcome.decision]) {
      outcome.decision = decision;
      outcome.decidedBy = { hookId: handler.id, hookName: handler.name };
      if (reason !== undefined) outcome.reason = reason;
      else delete outcome.reason;
    }
    return TERMINAL_DECISIONS.has(decision) && !rule.updatedOutput;
  }
}

/*
 * hook.start and hook.end keep the key order they always had: the HookRef fields (id, name, kind,
 * event, plugin, toolUseId), then hook.end's own in the order of its type. A plugin's hook on a
 * tool event (the guard's case) is one object literal with every key it will carry; other shapes
 * are built key by key. One literal is one allocation: each key added to an object past its literal
 * makes V8 grow a property array, and the session's stamp (seq, sessionId, time) adds three more.
 */
function hookStart(handler: HookHandler, event: HookEventName, toolUseId: string | undefined): HookStartEvent {
  const { id, name, kind, plugin } = handler;
  if (plugin !== undefined && toolUseId !== undefined) return { type: 'hook.start', hookId: id, hookName: name, kind, event, plugin, toolUseId };
  const e: HookStartEvent = { type: 'hook.start', hookId: id, hookName: name, kind, event };
  if (plugin !== undefined) e.plugin = plugin;
  if (toolUseId !== undefined) e.toolUseId = toolUseId;
  return e;
}

function hookEnd(
  handler: HookHandler,
  event: HookEventName,
  toolUseId: string | undefined,
  decision: HookDecision,
  durationMs: number,
  reason: string | undefined,
  fuelUsed: number | undefined,
): HookEndEvent {
  const { id, name, kind, plugin } = handler;
  if (plugin !== undefined && toolUseId !== undefined && fuelUsed !== undefined) {
    if (reason === undefined) return { type: 'hook.end', hookId: id, hookName: name, kind, event, plugin, toolUseId, decision, durationMs, fuelUsed };
    return { type: 'hook.end', hookId: id, hookName: name, kind, event, plugin, toolUseId, decision, durationMs, reason, fuelUsed };
  }
  const e: HookEndEvent = { type: 'hook.end', hookId: id, hookName: name, kind, event } as HookEndEvent;
  if (plugin !== undefined) e.plugin = plugin;
  if (toolUseId !== undefined) e.toolUseId = toolUseId;
  e.decision = decision;
  e.durationMs = durationMs;
  if (reason !== undefined) e.reason = reason;
  if (fuelUsed !== undefined) e.fuelUsed = fuelUsed;
  return e;
}

type HookStartEvent = Extract<EmittedEvent, { type: 'hook.start' }>;
type HookEndEvent = Extract<EmittedEvent, { type: 'hook.end' }>;

function fuel(r: HookResult): { fuelUsed?: number } {
  return r.fuelUsed !== undefined ? { fuelUsed: r.fuelUsed } : {};
}
