/**
 * The budget of one call, consulted by the instrumented module's `refuel`
 * and `gate` imports. Instrumented code burns fuel from an exported global
 * and calls `refuel()` when it drops below zero, and `gate()` before host
 * calls and wherever an exception handler may resume; those are the moments
 * the host gets control back from a running plugin, so deadline, budget and
 * abort are checked there, and a stop, once thrown, is thrown again by each.
 */
import type { FailureCode, PluginFailure } from '../failure.js';

/**
 * Fuel is handed out in slices, sized so the plugin comes back to the host
 * about every `SLICE_PERIOD_MS`: often enough that a 50 ms deadline is hit
 * within a few percent, rarely enough that refuel costs far below 1% of the
 * run. Fuel prices host calls only roughly (a constant plus their length),
 * so a plugin that mostly calls the host may burn time faster than fuel; the
 * slice therefore adapts to the time each one actually took, starting small,
 * and the gate (gate.ts) reads the clock before every host call that is not
 * a constant-time accessor.
 */
const SLICE_PERIOD_MS = 1;
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
  /** Overdrafts that refuel covered: fuel charged beyond each slice (read at refuel). */
  overshoot = 0;
  /** The next slice's size; the engine keeps it from call to call. */
  slice: number;
  /** The module's fuel global, once an instance exists (before its start function runs: deferStart, red42). */
  global: WebAssembly.Global | null;
  /**
   * The stop, once there is one. Sticky: every later refuel or gate call
   * throws it again, so a plugin that catches it (wasm exception handling)
   * cannot go on metering, calling the host or leaving a handler.
   */
  stopped: StopSignal | null = null;
  /** `performance.now()` at the plugin's last throw, until a handler's gate charges the unwind (gate.ts); else -1. */
  thrownAt = -1;
  /** Cheap gate calls since the clock was last read. */
  #unclocked = 0;
  #last: number;
  /** `performance.now()` when the call started. */
  started: number;

  constructor(
    public budget: Budget,
    slice: number,
    global: WebAssembly.Global | null,
    started: number = performance.now(),
  ) {
    this.slice = slice;
    this.global = global;
    this.started = started;
    this.#last = started;
  }

  /**
   * The same meter, made new for the next call of its engine (one Meter per
   * engine, not one per call: calls of an engine never overlap). Every field
   * is set again, the sticky stop included: a stop belongs to its call.
   */
  reset(budget: Budget, slice: number, global: WebAssembly.Global | null, started: number): this {
    this.budget = budget;
    this.handedOut = 0;
    this.overshoot = 0;
    this.slice = slice;
    this.global = global;
    this.stopped = null;
    this.thrownAt = -1;
    this.#unclocked = 0;
    this.#last = started;
    this.started = started;
    return this;
  }

  /**
   * The `refuel` import's body: a new slice, or a thrown StopSignal. The
   * global is negative here by what the failing check charged (a region's
   * whole cost, charged before the region runs); that charge is granted only
   * if the budget still covers it, so fuel used never exceeds the budget.
   */
  refuel(): bigint {
    const { budget } = this;
    this.#checkStop();
    const current = this.global?.value as bigint | undefined;
    const owed = current !== undefined && current < 0n ? Number(-current) : 0;
    const now = performance.now();
    if (now >= budget.deadline) this.#timeout();
    const charged = this.handedOut + this.overshoot + owed;
    if (charged > budget.fuel || (owed === 0 && charged >= budget.fuel)) {
      this.stop('FUEL_EXHAUSTED', `the call burnt its fuel budget of ${budget.fuel} units`);
    }
    this.overshoot += owed;
    const elapsed = now - this.#last;
    this.#last = now;
    if (elapsed > 2 * SLICE_PERIOD_MS) this.slice = Math.max(MIN_SLICE, Math.floor(this.slice / 2));
    else if (elapsed < SLICE_PERIOD_MS / 2) this.slice = Math.min(MAX_SLICE, this.slice * 2);
    const left = budget.fuel - charged;
    const slice = left < this.slice ? left : this.slice;
    this.handedOut += slice;
    return BigInt(slice);
  }

  /**
   * The gate of a host call or an exception handler's entry (see
   * `instrument/hostcalls.ts`): throws the stop if there is one, or if the
   * call was aborted or ran past its deadline. `clockEvery` > 1 reads the
   * clock on every n-th call only (for host calls known to be short).
   */
  gate(clockEvery = 1): void {
    this.#checkStop();
    if (++this.#unclocked < clockEvery) return;
    this.#unclocked = 0;
    if (performance.now() >= this.budget.deadline) this.#timeout();
  }

  /** Records and throws a stop; it stays the call's outcome whatever the plugin does next. */
  stop(code: StopSignal['code'], message: string): never {
    this.stopped ??= new StopSignal(code, message);
    throw this.stopped;
  }

  #checkStop(): void {
    if (this.stopped) throw this.stopped;
    if (this.budget.signal?.aborted) this.stop('ABORTED', 'the call was aborted');
  }

  #timeout(): never {
    return this.stop('TIMEOUT', `the call ran past its deadline of ${this.budget.timeoutMs} ms`);
  }

  /**
   * The first slice, handed out as a call starts (its deadline cannot have
   * passed yet, and the caller checked the signal). `remaining` is what the
   * fuel global held: zero, unless this call just built the instance.
   */
  prefill(remaining: bigint): bigint {
    // Fuel left over from this call's own instantiation is not burnt; what it charged after its last check is.
    if (remaining > 0n) this.handedOut -= Number(remaining);
    else if (remaining < 0n) this.overshoot += Number(-remaining);
    const slice = Math.max(0, Math.min(this.slice, this.budget.fuel - this.handedOut - this.overshoot));
    this.handedOut += slice;
    return BigInt(slice);
  }

  /**
   * Takes `left`, what the instance's fuel global still holds from its last
   * call, as this call's first slice, if it is at least half a slice and at
   * most what `prefill` could hand out (the slice, and the whole budget): the
   * global is then not written. False (and nothing handed out) otherwise.
   */
  carry(left: number): boolean {
    if (left < this.slice / 2 || left > this.slice || left > this.budget.fuel || this.handedOut !== 0 || this.overshoot !== 0) return false;
    this.handedOut = left;
    return true;
  }

  /**
   * Fuel burnt, given what is left in the module's fuel global. A call
   * stopped for its fuel used its whole budget: the charge that stopped it
   * is granted up to the budget and refused past it, however large (a
   * region's cost, or an unwind charged by its time that a collector pause
   * made worth more than the budget). Otherwise a negative global after a
   * stop (a timeout, an abort) is a charge left ungranted (not counted); after a call
   * that ended on its own it is charges made since the last check (blocks
   * are charged without a test, see instrument/code.ts), counted: the result
   * may then exceed the budget, by at most the bound documented in
   * docs/sandbox-instrumentation.md, and the engine reports the call as
   * FUEL_EXHAUSTED (`overBudget`).
   */
  used(remaining: bigint | undefined): number {
    if (this.stopped?.code === 'FUEL_EXHAUSTED') return this.budget.fuel;
    const charged = this.handedOut + this.overshoot;
    if (remaining === undefined) return charged;
    if (remaining >= 0n) return Math.max(0, charged - Number(remaining));
    return this.stopped ? charged : charged + Number(-remaining);
  }

  /** A call that ended on its own used more than its budget (see `used`). */
  overBudget(used: number): PluginFailure | null {
    if (used <= this.budget.fuel) return null;
    return { code: 'FUEL_EXHAUSTED', message: `the call burnt its fuel budget of ${this.budget.fuel} units` };
  }
}
