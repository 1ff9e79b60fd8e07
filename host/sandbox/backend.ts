/**
 * What the sandboxed module needs from a place to run calls: the caller's
 * thread (`InThreadBackend` below, around `engine.ts`) or our own worker (`worker/host.ts`).
 */
import { Engine, type EngineOptions, type Settle } from './engine.js';
import type { Budget } from './meter.js';
import type { PluginFailure } from '../failure.js';
import type { CallOutcome } from './types.js';

export interface Backend {
  /**
   * Run one call and hand its outcome to `settle` as soon as it is known (in
   * the same tick, no promise hop in between); the promise resolves to what
   * `settle` returns. Contract: must not throw or reject (a failure is an
   * outcome). Calls never overlap.
   */
  run<T>(fn: string, input: Uint8Array, timeoutMs: number, fuel: number, signal: AbortSignal | undefined, settle: Settle<T>): Promise<T>;
  /** `run` has read `input` by the time it returns its promise (the caller may then reuse the buffer). */
  readonly readsInputAtOnce: boolean;
  close(): Promise<void>;
}

/** Calls on the caller's thread: fast, bounded by fuel and deadline checks. */
export class InThreadBackend implements Backend {
  readonly #engine: Engine;
  readonly readsInputAtOnce = true;
  /** The running call's budget: one object, rewritten per call (calls never overlap). */
  readonly #budget: Budget = { deadline: 0, timeoutMs: 0, fuel: 0, signal: undefined };

  constructor(module: WebAssembly.Module, options: EngineOptions) {
    this.#engine = new Engine(module, options);
  }

  /** Instantiate now, under the module's own limits. */
  prepare(timeoutMs: number, fuel: number): Promise<PluginFailure | null> {
    return this.#engine.prepare({ timeoutMs, fuel });
  }

  run<T>(fn: string, input: Uint8Array, timeoutMs: number, fuel: number, signal: AbortSignal | undefined, settle: Settle<T>): Promise<T> {
    const now = performance.now();
    // On this thread only a host callback made by the plugin itself can abort
    // mid-call; the check is still cheap enough to make at every refuel.
    const budget = this.#budget;
    budget.deadline = now + timeoutMs;
    budget.timeoutMs = timeoutMs;
    budget.fuel = fuel;
    budget.signal = signal;
    return this.#engine.run(fn, input, budget, now, settle);
  }

  close(): Promise<void> {
    return this.#engine.discard();
  }
}
