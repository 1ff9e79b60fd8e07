/**
 * Runs the hooks of one event as a chain: registration order; a rewritten
 * input is what the next hook sees; deny/stop/block end the chain (except
 * where hooks rewrite output: a PostToolUse stop ends the turn, and the
 * hooks after it still review what the conversation keeps); the most
 * restrictive decision wins (deny/stop/block > ask > allow > continue);
 * additionalContext from every hook is gathered. Failures and protocol
 * violations go through the handler's failure policy. Each call emits
 * hook.start and hook.end.
 */
import type { StoppedBy } from '../events/types.js';
import { Chain, NOTHING, type ChainOutcome, type DispatchContext } from './chain.js';
import type { HookEventName, HookHandler, HookInput, HookInputOf, HookResult } from './types.js';
import { timerDelay } from '../timer.js';
import { copyJson } from '../json.js';

export type { ChainOutcome, DispatchContext } from './chain.js';

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

/** `NOTHING`, settled: what `dispatch` returns when no hook listens. */
const SETTLED_NOTHING: Promise<ChainOutcome> = Promise.resolve(NOTHING);

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

/** What a hook the prompt's abort stopped answers: one frozen object, so the chain knows the abort (not a hook's own ABORTED) by identity. */
const ABORTED_RESULT: HookResult & { ok: false } = Object.freeze({ ok: false, failure: Object.freeze({ code: 'ABORTED', message: 'the session was aborted' }) });
const sessionAborted = (): HookResult => ABORTED_RESULT;

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
  }, timerDelay(handler.timeoutMs));
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
    // Its matcher, and its sessions (a remote client's callbacks belong to theirs): not this chain's, no events.
    if (!chain.matches(handler)) continue;
    // Cut short: fail closed whatever the hooks before decided (an `allow` is not the chain's answer).
    if (ctx.signal.aborted) return chain.abort(all.slice(i));
    const started = chain.start(handler);
    let result: HookResult;
    if (handler.enforcesTimeout === true) {
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
    const ends = chain.end(handler, result, started);
    // The abort stopped this hook: its answer is not the hook's, so the chain is cut here too.
    if (result === ABORTED_RESULT) return chain.abort(all.slice(i));
    if (ends) break;
  }
  return chain.outcome;
}
