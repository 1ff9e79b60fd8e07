/**
 * Runs the hooks of one event as a chain: registration order; a rewritten
 * input is what the next hook sees; deny/stop/block end the chain; the most
 * restrictive decision wins (deny/stop/block > ask > allow > continue);
 * additionalContext from every hook is gathered. Failures and protocol
 * violations go through the handler's failure policy. Each call emits
 * hook.start and hook.end.
 */
import type { PluginFailure } from '../failure.js';
import type { Emit, EmittedEvent, StoppedBy } from '../events/types.js';
import { DECISION_RANK, HOOK_EVENT_RULES, TERMINAL_DECISIONS, violation, type HookEventRule } from './decisions.js';
import type { HookRegistry } from './registry.js';
import { sameJson } from '../same-json.js';
import type { HookDecision, HookEventName, HookHandler, HookInput, HookInputOf, HookOutput, HookResult, HookRunContext } from './types.js';

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
  /** PostToolUse: the last rewritten output. */
  updatedOutput?: string;
  additionalContext: readonly string[];
  systemMessages: readonly string[];
}

/** Which hook ended the prompt early, from the chain that decided it. */
export function stoppedBy(event: StoppedBy['event'], out: ChainOutcome): StoppedBy {
  return {
    event,
    hookId: out.decidedBy?.hookId ?? '',
    hookName: out.decidedBy?.hookName ?? '',
    decision: out.decision,
    ...(out.reason !== undefined ? { reason: out.reason } : {}),
  };
}

/** The outcome when no hook listens: shared, frozen, allocation-free. */
const NOTHING: ChainOutcome = Object.freeze({
  decision: 'continue',
  additionalContext: Object.freeze([]) as readonly string[],
  systemMessages: Object.freeze([]) as readonly string[],
});

/** `NOTHING`, settled: what `dispatch` returns when no hook listens. */
const SETTLED_NOTHING: Promise<ChainOutcome> = Promise.resolve(NOTHING);

/** A failed fail-open hook's output: nothing (shared, read only). */
const NO_OUTPUT: HookOutput = Object.freeze({});

/** The tool name handlers' matchers test, or undefined when the event is not tool-scoped. */
function matchedTool(input: HookInput): string | undefined {
  return 'tool_name' in input && HOOK_EVENT_RULES[input.hook_event_name].toolScoped ? input.tool_name : undefined;
}

/**
 * A deep copy of JSON-like data (hook inputs are), so a JS hook that mutates
 * its input changes nothing. Several times cheaper than structuredClone.
 */
function copyJson(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(copyJson);
  const out: Record<string, unknown> = {};
  for (const k in v) out[k] = copyJson((v as Record<string, unknown>)[k]);
  return out;
}

/**
 * An abort signal created only when a hook reads it: an AbortController costs
 * several µs in Node, more than the rest of a JS hook call.
 */
class LazySignal {
  private controller: AbortController | undefined;
  private aborted = false;
  private reason: unknown;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

const threw = (e: unknown): HookResult => ({
  ok: false,
  failure: { code: 'TRAP', message: `hook threw: ${e instanceof Error ? e.message : String(e)}` },
});

const sessionAborted = (): HookResult => ({ ok: false, failure: { code: 'ABORTED', message: 'the session was aborted' } });

/** A handler that does not enforce its own timeout: a timer at its timeoutMs, a child signal made only if the hook reads it, a race with both. */
async function callTimed(handler: HookHandler, input: HookInput, outer: AbortSignal): Promise<HookResult> {
  const lazy = new LazySignal();
  let settle!: (r: HookResult) => void;
  const stopped = new Promise<HookResult>((resolve) => (settle = resolve));
  const onOuterAbort = () => {
    lazy.abort(outer.reason);
    settle(sessionAborted());
  };
  const timer = setTimeout(() => {
    const message = `hook "${handler.name}" timed out after ${handler.timeoutMs} ms`;
    lazy.abort(new DOMException(message, 'TimeoutError'));
    settle({ ok: false, failure: { code: 'TIMEOUT', message } });
  }, handler.timeoutMs);
  if (outer.aborted) onOuterAbort();
  else outer.addEventListener('abort', onOuterAbort, { once: true });
  try {
    const arg = handler.kind === 'js' ? (copyJson(input) as HookInput) : input;
    const ctx = {
      get signal() {
        return lazy.signal;
      },
    };
    const running = Promise.resolve()
      .then(() => handler.run(arg, ctx))
      .catch(threw);
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
 * `build` makes the input only when some hook listens: the loop's hot path
 * (no hooks) allocates nothing here.
 *
 * @example
 * const out = await dispatch(ctx, 'PreToolUse', () => ({ ...common, hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id }));
 * if (out.decision === 'deny') …
 */
export function dispatch<E extends HookEventName>(ctx: DispatchContext, event: E, build: () => HookInputOf<E>): Promise<ChainOutcome> {
  const all = ctx.registry.forEvent(event);
  // Not an async function: its frame would be allocated on every call, for the five or so
  // events an iteration fires that nothing listens to. Awaiting a settled promise takes the
  // same one tick as awaiting an async function that returned at once.
  if (all.length === 0) return SETTLED_NOTHING;
  return runChain(ctx, event, all, build);
}

/**
 * The chain of `all` (not empty); `build` runs inside, so a throwing builder rejects as before.
 * The async frame holds only the loop: what the chain gathers lives in one `Chain`, so the frame
 * V8 saves and restores at each `await` is a few registers, not the chain's twenty-odd.
 */
async function runChain(ctx: DispatchContext, event: HookEventName, all: readonly HookHandler[], build: () => HookInput): Promise<ChainOutcome> {
  const chain = new Chain(ctx, event, build());
  // Indexed, not for-of: an iterator object would be kept alive across every await.
  for (let i = 0; i < all.length; i++) {
    const handler = all[i]!;
    if (handler.matcher && chain.toolName !== undefined && !handler.matcher.test(chain.toolName)) continue;
    if (ctx.signal.aborted) break;
    const started = chain.start(handler);
    let result: HookResult;
    if (handler.enforcesTimeout === true && !ctx.signal.aborted) {
      // A handler that enforces its own timeout (sandboxed WASM): no timer, no child signal, no
      // race, no promise of ours; the prompt's signal goes straight through. A call the prompt's
      // abort stopped reads as the session's abort, as on the timed path.
      try {
        result = await handler.run(chain.input, chain.selfTimed());
        if (!result.ok && result.failure.code === 'ABORTED' && ctx.signal.aborted) result = sessionAborted();
      } catch (e) {
        result = threw(e);
      }
    } else result = await callTimed(handler, chain.input, ctx.signal);
    if (chain.end(handler, result, started)) break;
  }
  return chain.outcome;
}

/** One chain's state between its hooks: the input the next hook sees, and what the chain gathered. */
class Chain {
  readonly outcome: ChainOutcome = { decision: 'continue', additionalContext: NOTHING.additionalContext, systemMessages: NOTHING.systemMessages };
  readonly toolUseId: string | undefined;
  /** Matchers see the tool name of the chain's first input (a rewrite changes tool_input, never tool_name). */
  readonly toolName: string | undefined;
  readonly #rule: HookEventRule;
  // Made on the first line each gathers: most chains gather none.
  #context: string[] | undefined = undefined;
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
    this.toolName = matchedTool(input);
  }

  selfTimed(): HookRunContext {
    return (this.#selfTimed ??= { signal: this.ctx.signal });
  }

  /** Emits hook.start; returns the clock the hook's duration is taken from. */
  start(handler: HookHandler): number {
    this.ctx.emit(hookStart(handler, this.event, this.toolUseId));
    return performance.now();
  }

  /** Folds one hook's result into the chain and emits hook.end; true when its decision ends the chain. */
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
      this.#context.push(output.additionalContext);
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
      }
      this.input = { ...input, tool_input: next };
      outcome.updatedInput = next;
    }
    this.#judged = true;
    if (output.updatedOutput !== undefined && 'tool_response' in this.input) {
      this.input = { ...this.input, tool_response: output.updatedOutput };
      outcome.updatedOutput = output.updatedOutput;
    }
    if (DECISION_RANK[decision] > DECISION_RANK[outcome.decision]) {
      outcome.decision = decision;
      outcome.decidedBy = { hookId: handler.id, hookName: handler.name };
      if (reason !== undefined) outcome.reason = reason;
      else delete outcome.reason;
    }
    return TERMINAL_DECISIONS.has(decision);
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
