/**
 * Any wasm module, not only Extism plugins, under the same instrumentation:
 * the caller brings the module's imports (an Emscripten build's, say) and
 * runs its own code that calls into the instance inside `run`, which sets
 * the deadline, the fuel budget and the abort signal. Outside `run` the
 * module cannot execute metered code at all, and after a stop the instance
 * is spent: a stopped module's state is whatever it was mid-flight.
 */
import { issueLines } from '../config/issues.js';
import { WasmhooksError, messageOf } from '../errors.js';
import { lazy } from '../lazy.js';
import { classify } from './failures.js';
import { rawGateImport } from './gate.js';
import { FUEL_EXPORT, GATE_NAME, REFUEL_MODULE, REFUEL_NAME, START_FUNCTION_EXPORT } from './instrument/index.js';
import { FIRST_SLICE, Meter, StopSignal } from './meter.js';
import { positive } from './module.js';
import { limitsSchema } from './limits-schema.js';
import { instrumentLoad } from './off-thread.js';
import type { PluginFailure } from '../failure.js';
import type { CallOptions, Limits } from './types.js';
import { DEFAULT_LIMITS } from './types.js';

export interface RawSandboxOptions {
  /** Defaults for every `run` (`timeoutMs`, `fuel`) and the memory cap written into the module. */
  limits?: Partial<Pick<Limits, 'timeoutMs' | 'fuel' | 'maxMemoryPages'>>;
  /** Name used in messages. */
  name?: string;
  /** Gives up the load (`LOAD_FAILED`); a large module's worker is terminated. */
  signal?: AbortSignal;
}

export type RawOutcome<T> =
  | { ok: true; value: T; fuelUsed: number; durationMs: number }
  | { ok: false; failure: PluginFailure; fuelUsed: number; durationMs: number };

/**
 * An instrumented, compiled module and the budget its code runs under.
 *
 * @example
 * const raw = await createRawSandbox(bytes, { limits: { timeoutMs: 100 } });
 * const instance = await raw.instantiate({ env: { log: (x: number) => console.log(x) } });
 * const out = await raw.run(() => (instance.exports.work as () => number)());
 * if (!out.ok) console.warn(out.failure.code); // TIMEOUT, FUEL_EXHAUSTED, TRAP, …
 */
export interface RawSandbox {
  readonly module: WebAssembly.Module;
  readonly limits: Readonly<Pick<Limits, 'timeoutMs' | 'fuel' | 'maxMemoryPages'>>;
  /**
   * Instantiates the module with the caller's imports (plus the meter's own).
   * A start function runs under the `run` in progress; without one it is stopped.
   */
  instantiate(imports?: WebAssembly.Imports): Promise<WebAssembly.Instance>;
  /**
   * Runs `fn` (which calls into an instance) under a budget. A stop (deadline,
   * fuel, abort) or a trap becomes a failure outcome, and spends the
   * sandbox: later runs fail with ABORTED. Other errors `fn` throws (the
   * caller's own, like a SQL error from a library's JS) are rethrown. Runs
   * do not nest or overlap.
   */
  run<T>(fn: () => T | Promise<T>, options?: CallOptions): Promise<RawOutcome<T>>;
}

/** Instruments and compiles `wasm`. Throws INVALID_WASM or INVALID_OPTIONS. */
export async function createRawSandbox(wasm: Uint8Array, options: RawSandboxOptions = {}): Promise<RawSandbox> {
  const name = options.name ?? 'module';
  const given = checkedLimits(options.limits);
  const limits = Object.freeze({
    timeoutMs: given.timeoutMs ?? DEFAULT_LIMITS.timeoutMs,
    fuel: given.fuel ?? DEFAULT_LIMITS.fuel,
    maxMemoryPages: given.maxMemoryPages ?? DEFAULT_LIMITS.maxMemoryPages,
  });
  let module: WebAssembly.Module;
  try {
    // A copy: what is validated is what is instrumented (a buffer another thread shares could change in between).
    // Validated before it is rewritten (instrument-job.ts); a large module in a worker (off-thread.ts).
    const plan = { maxMemoryPages: limits.maxMemoryPages, deferStart: true };
    const bytes = await instrumentLoad(wasm.slice(), plan, { name, signal: options.signal, validate: true });
    module = await WebAssembly.compile(bytes);
  } catch (error) {
    if (error instanceof WasmhooksError) throw error;
    throw new WasmhooksError('INVALID_WASM', `${name} is not a usable wasm module: ${messageOf(error)}`, { cause: error });
  }
  return new Raw(module, limits, name);
}

const rawLimitsSchema = lazy(() => limitsSchema({ unbounded: true }).pick({ timeoutMs: true, fuel: true, maxMemoryPages: true }));

/**
 * The three limits a raw sandbox takes, by createSandbox's schema (limits-schema.ts: Infinity for no deadline or no
 * fuel cap), read once; any other key is refused as an unknown limit, as createSandbox refuses one.
 */
function checkedLimits(given: unknown): RawSandboxOptions['limits'] & object {
  if (given === undefined) return {};
  const parsed = rawLimitsSchema().safeParse(given, { jitless: true });
  if (parsed.success) return parsed.data;
  throw new WasmhooksError('INVALID_OPTIONS', `invalid raw sandbox options: ${issueLines(parsed.error.issues, given, ['limits']).join('; ')}`);
}

class Raw implements RawSandbox {
  #meter: Meter | null = null;
  /** The newest instance's fuel global: the one a run's first slice goes into. */
  #fuel: WebAssembly.Global | null = null;
  /** The fuel globals of the instances that refuelled in the run in progress (an embedder may hold several). */
  readonly #ran = new Set<WebAssembly.Global>();
  #spent: PluginFailure | null = null;
  #slice = FIRST_SLICE;

  constructor(
    readonly module: WebAssembly.Module,
    readonly limits: RawSandbox['limits'],
    private readonly name: string,
  ) {}

  async instantiate(imports: WebAssembly.Imports = {}): Promise<WebAssembly.Instance> {
    if (Object.hasOwn(imports, REFUEL_MODULE)) {
      throw new WasmhooksError('INVALID_OPTIONS', `${this.name}: the import namespace "${REFUEL_MODULE}" is the sandbox's own`);
    }
    let own: WebAssembly.Global | null = null;
    const refuel = (): bigint => {
      const meter = this.#meter;
      if (!meter) throw new StopSignal('ABORTED', `${this.name} ran outside of sandbox.run()`);
      // The overdraft is in this instance's counter, not the newest instance's: read there, another
      // instance's code had every charge past its slice unpaid (red42).
      meter.global = own;
      if (own) this.#ran.add(own);
      return meter.refuel();
    };
    const ours = { [REFUEL_NAME]: refuel, [GATE_NAME]: rawGateImport(() => this.#meter) };
    const instance = await WebAssembly.instantiate(this.module, { ...imports, [REFUEL_MODULE]: ours });
    const global = instance.exports[FUEL_EXPORT];
    own = global instanceof WebAssembly.Global ? global : null;
    this.#fuel = own;
    if (this.#meter) this.#meter.global = own;
    // The start function, deferred by the instrumenter until the meter can read this instance's fuel global (red42).
    const start = instance.exports[START_FUNCTION_EXPORT];
    if (typeof start === 'function') (start as () => void)();
    return instance;
  }

  async run<T>(fn: () => T | Promise<T>, options: CallOptions = {}): Promise<RawOutcome<T>> {
    const started = performance.now();
    const fail = (failure: PluginFailure): RawOutcome<T> => ({ ok: false, failure, fuelUsed: 0, durationMs: 0 });
    if (this.#spent) return fail({ code: 'ABORTED', message: `${this.name} was stopped earlier (${this.#spent.code}); create a new sandbox` });
    if (this.#meter) return fail({ code: 'ABORTED', message: `${this.name}: runs do not nest or overlap` });
    // Read once, as SandboxedModule.call does: the signal checked here is the one the run stops on
    // (a getter answering a live signal to the check and none to the meter made the run unstoppable).
    const signal = options.signal;
    if (signal?.aborted) return fail({ code: 'ABORTED', message: 'the call was aborted before it started' });
    // As `SandboxedModule.call`: an override counts only as a positive number (NaN would be no deadline, or a throw here).
    const { timeoutMs: callTimeout, fuel: callFuel } = options.limits ?? {};
    const timeoutMs = positive(callTimeout) ?? this.limits.timeoutMs;
    const fuel = positive(callFuel) ?? this.limits.fuel;
    const meter = new Meter({ deadline: started + timeoutMs, timeoutMs, fuel, signal }, this.#slice, this.#fuel, started);
    this.#meter = meter;
    if (this.#fuel) this.#fuel.value = meter.prefill(0n);
    const settle = (): { fuelUsed: number; durationMs: number } => {
      // What every counter the run used still holds (slices not burnt, or charges since a last check), then none.
      if (this.#fuel) this.#ran.add(this.#fuel);
      let remaining = 0n;
      for (const global of this.#ran) (remaining += global.value as bigint), (global.value = 0n);
      this.#ran.clear();
      const fuelUsed = meter.used(this.#fuel ? remaining : undefined);
      this.#slice = meter.slice;
      this.#meter = null;
      return { fuelUsed, durationMs: performance.now() - started };
    };
    try {
      const value = await fn();
      const figures = settle();
      const over = meter.overBudget(figures.fuelUsed);
      if (!over) return { ok: true, value, ...figures };
      // Charges after the last check took it past its budget: a stop like any other.
      this.#spent = over;
      return { ok: false, failure: over, ...figures, fuelUsed: meter.budget.fuel };
    } catch (error) {
      const stopped = error instanceof StopSignal || error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
      const figures = settle();
      if (!stopped) throw error;
      const failure = classify(error, 'call');
      this.#spent = failure;
      return { ok: false, failure, ...figures };
    }
  }
}
