/**
 * The budget of one call, consulted by the instrumented module's `refuel`
 * import. Instrumented code burns fuel from an exported global and calls
 * `refuel()` when it drops below zero; that is the only moment the host gets
 * control back from a running plugin, so deadline, budget and abort are all
 * checked here.
 */
import type { FailureCode } from './types.js';

/**
 * Fuel is handed out in slices, sized so the plugin comes back to the host
 * about every `SLICE_PERIOD_MS`: often enough that a 50 ms deadline is hit
 * within a few percent, rarely enough that refuel costs far below 1% of the
 * run. Fuel does not price host calls, so a plugin that mostly calls the host
 * burns time far faster than fuel; the slice therefore adapts to the time
 * each one actually took, starting small.
 */
export const SLICE_PERIOD_MS = 1;
export const FIRST_SLICE = 10_000;
const MIN_SLICE = 1_000;
const MAX_SLICE = 4_000_000;

/** The refuel import and the fuel global's export, as the instrumenter names them. */
export { FUEL_EXPORT as FUEL_GLOBAL, REFUEL_MODULE, REFUEL_NAME } from './instrument/index.js';

/** Thrown out of `refuel` (through the plugin's frames) to stop a call. */
export class StopSignal extends Error {
  constructor(
    readonly code: Extract<FailureCode, 'TIMEOUT' | 'FUEL_EXHAUSTED' | 'ABORTED' | 'MEMORY_LIMIT'>,
    message: string,
  ) {
    super(message);
    this.name = 'StopSignal';
  }
}

export interface Budget {
  /** `performance.now()` value after which the call is stopped. */
  deadline: number;
  timeoutMs: number;
  fuel: number;
  /** Read at every refuel: an AbortSignal, or the worker's view of the host's abort flag. */
  signal: { readonly aborted: boolean } | undefined;
}

export class Meter {
  /** Fuel handed to the module so far in this call. */
  handedOut = 0;
  /** Fuel burnt beyond each slice before the check noticed (read at refuel). */
  overshoot = 0;
  /** The next slice's size; the engine keeps it from call to call. */
  slice: number;
  /** The module's fuel global, once an instance exists (not yet while its start function runs). */
  global: WebAssembly.Global | null;
  #last: number;

  constructor(
    readonly budget: Budget,
    slice: number,
    global: WebAssembly.Global | null,
    started: number = performance.now(),
  ) {
    this.slice = slice;
    this.global = global;
    this.#last = started;
  }

  /** The `refuel` import's body: a new slice, or a thrown StopSignal. */
  refuel(): bigint {
    const { budget } = this;
    const current = this.global?.value as bigint | undefined;
    if (current !== undefined && current < 0n) this.overshoot += Number(-current);
    if (budget.signal?.aborted) throw new StopSignal('ABORTED', 'the call was aborted');
    const now = performance.now();
    if (now >= budget.deadline) {
      throw new StopSignal('TIMEOUT', `the call ran past its deadline of ${budget.timeoutMs} ms`);
    }
    const left = budget.fuel - this.handedOut;
    if (left <= 0) {
      throw new StopSignal('FUEL_EXHAUSTED', `the call burnt its fuel budget of ${budget.fuel} units`);
    }
    const elapsed = now - this.#last;
    this.#last = now;
    if (elapsed > 2 * SLICE_PERIOD_MS) this.slice = Math.max(MIN_SLICE, Math.floor(this.slice / 2));
    else if (elapsed < SLICE_PERIOD_MS / 2) this.slice = Math.min(MAX_SLICE, this.slice * 2);
    const slice = left < this.slice ? left : this.slice;
    this.handedOut += slice;
    return BigInt(slice);
  }

  /**
   * The first slice, handed out as a call starts (its deadline cannot have
   * passed yet, and the caller checked the signal). `remaining` is what the
   * fuel global held: zero, unless this call just built the instance.
   */
  prefill(remaining: bigint): bigint {
    // Fuel left over from this call's own instantiation is not burnt.
    if (remaining > 0n) this.handedOut -= Number(remaining);
    const slice = Math.min(this.slice, this.budget.fuel);
    this.handedOut += slice;
    return BigInt(slice);
  }

  /** Fuel burnt, given what is left in the module's fuel global. */
  used(remaining: bigint | undefined): number {
    const left = remaining === undefined || remaining < 0n ? 0 : Number(remaining);
    return Math.max(0, this.handedOut + this.overshoot - left);
  }
}
