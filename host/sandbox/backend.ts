/**
 * What the sandboxed module needs from a place to run calls: the caller's
 * thread (`InThreadBackend` below, around `engine.ts`) or our own worker (`worker/host.ts`).
 */
import { Engine, type EngineOptions } from './engine.js';
import type { Budget } from './meter.js';
import type { PluginFailure } from '../failure.js';
import type { CallOutcome } from './types.js';

export interface CallBudget {
  timeoutMs: number;
  fuel: number;
  signal: AbortSignal | undefined;
}

export interface Backend {
  /** Run one call. Contract: must not throw. Calls never overlap. */
  run(fn: string, input: Uint8Array, budget: CallBudget): Promise<CallOutcome>;
  /** `run` has read `input` by the time it returns its promise (the caller may then reuse the buffer). */
  readonly readsInputAtOnce: boolean;
  close(): Promise<void>;
}

/** Calls on the caller's thread: fast, bounded by fuel and deadline checks. */
export class InThreadBackend implements Backend {
  readonly #engine: Engine;
  readonly readsInputAtOnce = true;

  constructor(module: WebAssembly.Module, options: EngineOptions) {
    this.#engine = new Engine(module, options);
  }

  /** Instantiate now, under the module's own limits. */
  prepare(timeoutMs: number, fuel: number): Promise<PluginFailure | null> {
    return this.#engine.prepare({ timeoutMs, fuel });
  }

  run(fn: string, input: Uint8Array, { timeoutMs, fuel, signal }: CallBudget): Promise<CallOutcome> {
    const now = performance.now();
    // On this thread only a host callback made by the plugin itself can abort
    // mid-call; the check is still cheap enough to make at every refuel.
    const budget: Budget = { deadline: now + timeoutMs, timeoutMs, fuel, signal };
    return this.#engine.run(fn, input, budget, now);
  }

  close(): Promise<void> {
    return this.#engine.discard();
  }
}
