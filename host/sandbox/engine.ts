/**
 * The in-thread engine: one Extism plugin built from an already instrumented,
 * compiled module, run under a `Meter`. A failed instance is dropped and
 * rebuilt from the same compiled module on the next call, so recovery costs an
 * instantiation, never a recompilation. The worker backend runs this very
 * class inside its worker.
 */
import type { Plugin, PluginOutput } from '@extism/extism';
import { warmUp } from './extism.js';
import { HostRefusal, classify, corruptsInstance, explainTrap, failure, sandboxError } from './failures.js';
import { SELF_CHECK_CLOCK_EVERY, beginCall, blockMade, callStop, type ImportScope } from './engine-imports.js';
import { deliverMessages, queueLog } from './plugin-messages.js';
import { GuestImports } from './guest-imports.js';
import type { EngineOptions, Settle } from './engine-options.js';
import { ProcExit, charge } from './host-call.js';
import { gateImport } from './gate.js';
import { GATE_NAME } from './instrument/index.js';
import { FIRST_SLICE, Meter, REFUEL_NAME, StopSignal, type Budget } from './meter.js';
import type { DirectCaller } from './extism-call.js';
import { buildInstance } from './instance.js';
import type { PluginFailure } from '../failure.js';
import { LOAD_MIN_TIMEOUT_MS, type CallOutcome, type Limits } from './types.js';
import { VarStore } from './vars.js';
import { KeptInputs } from './inputs.js';

export type { EngineOptions, Settle } from './engine-options.js';

const same: Settle = (outcome) => outcome;
/** The output of a call that returned nothing; never written (a view of no bytes). */
const EMPTY = new Uint8Array(0);

export class Engine {
  #plugin: Plugin | null = null;
  /** The plugin's calls without Extism's promise wrapper (extism-call.ts), when this Extism build allows it. */
  #direct: DirectCaller | null = null;
  #fuel: WebAssembly.Global | null = null;
  #memory: WebAssembly.Memory | null = null;
  /** The running call's meter; null between calls (a host function called then stops). */
  #meter: Meter | null = null;
  /** The one Meter this engine reuses, call after call. */
  #kept: Meter | null = null;
  /** Where the running call's outcome goes (see `run`). */
  #settle: Settle<unknown> = same;
  /** Fuel the last call left in the instance's global (-1: none, or not known). */
  #left = -1;
  /** The fuel slice learnt so far: this plugin's pace, carried across calls. */
  #slice = FIRST_SLICE;
  /** What the host functions see of the current call (its first stop, its counters) and of the instance (its variables). */
  readonly #scope: ImportScope;
  /** WASI and the embedder's host functions, when given. */
  readonly #guest: GuestImports;
  /** Each call's own copy of its input (see inputs.ts). */
  readonly #inputs = new KeptInputs();
  /** The running call's input buffer (kept for the next call of its length: see `#outcome`). */
  #input: ArrayBufferLike | null = null;

  constructor(
    readonly module: WebAssembly.Module,
    readonly options: EngineOptions,
  ) {
    this.#scope = {
      limits: options.limits,
      check: () => this.#running().gate(SELF_CHECK_CLOCK_EVERY),
      charge: (units) => charge(this.#running(), units),
      blocks: 0,
      vars: new VarStore(options.limits),
      config: options.config ?? {},
      log: { lines: 0, bytes: 0, dropped: 0 },
      onLog: options.onLog,
      stop: null,
      progressBytes: 0,
      progressMessages: 0,
      onProgress: options.onProgress,
      said: [],
    };
    // WASI stdout/stderr lines go through the same per-call caps as log_*.
    // An embedder's `ctx.store` makes a block like `alloc`: it pays for Extism's scan of the call's blocks too.
    this.#guest = new GuestImports(options, () => this.#meter, (level, line) => queueLog(this.#scope, level, line), () => blockMade(this.#scope));
  }

  /**
   * Run `fn` under `budget`; the promise resolves to `settle(outcome)`, called
   * as soon as the outcome is known (no promise hop per layer). Never throws,
   * never rejects. `input` is read before this returns (a caller may reuse
   * its buffer as soon as it has the promise).
   *
   * With an instance ready and a direct caller (extism-call.ts), the call is
   * over when this returns: one promise, already settled. The per-call state
   * lives in the engine, which runs one call at a time.
   */
  run(fn: string, input: Uint8Array, budget: Budget, started?: number): Promise<CallOutcome>;
  run<T>(fn: string, input: Uint8Array, budget: Budget, started: number, settle: Settle<T>): Promise<T>;
  run(fn: string, input: Uint8Array, budget: Budget, started = performance.now(), settle: Settle<unknown> = same): Promise<unknown> {
    input = this.#inputs.own(input);
    this.#input = input.buffer;
    const meter = this.#meterOf(budget, started);
    this.#begin(meter);
    this.#settle = settle;
    if (!this.#plugin) return this.#runCold(fn, input, meter);
    return this.#enter(fn, input, meter, 0n);
  }

  /** The first call after a failure: build the instance (under this call's meter), then run. */
  async #runCold(fn: string, input: Uint8Array, meter: Meter): Promise<unknown> {
    let loaded: PluginFailure | null;
    try {
      loaded = await this.#instantiate();
    } catch (error) {
      return this.#deliver(this.#crashed(error));
    }
    if (loaded) return this.#deliver(this.#finish(meter, null, loaded));
    meter.global = this.#fuel;
    return this.#enter(fn, input, meter, (this.#fuel?.value as bigint | undefined) ?? 0n);
  }

  #enter(fn: string, input: Uint8Array, meter: Meter, remaining: bigint): Promise<unknown> {
    // Hand out the first slice up front: a short call then never needs refuel. What the last call
    // left in the global is that slice when it is enough (no write into the module per call).
    const left = this.#left;
    this.#left = -1;
    if (this.#fuel && !(remaining === 0n && meter.carry(left))) this.#fuel.value = meter.prefill(remaining);
    const direct = this.#direct;
    // Plugin.call is an async function: it has run the plugin by the time it returns, and never throws.
    if (!direct) return (this.#plugin as Plugin).call(fn, input).then(this.#returned, this.#threw);
    let output: Uint8Array;
    try {
      output = direct.call(fn, input);
    } catch (error) {
      return Promise.resolve(this.#done(null, error));
    }
    return Promise.resolve(this.#done(output, null, direct.code));
  }

  /** Plugin.call's answers (no direct caller), bound once; Plugin.call drops the return code (`CallOutcome.returnCode`). */
  readonly #returned = (out: PluginOutput | null): unknown => this.#done(out ? out.bytes() : EMPTY, null);
  readonly #threw = (error: unknown): unknown => this.#done(null, error);

  /** The running call's outcome, handed to its `settle`. A bug of ours is a failure of the call, never a throw. */
  #done(output: Uint8Array | null, error: unknown, code?: number): unknown {
    let outcome: CallOutcome;
    try {
      // An output block that is the input block (output_set on input_offset) is a view of a buffer
      // the next call of that length rewrites: the caller gets a copy of its own.
      if (output !== null && output.buffer === this.#input) output = output.slice();
      this.#input = null;
      outcome = this.#outcome(this.#meter as Meter, output, error, code);
    } catch (crash) {
      outcome = this.#crashed(crash);
    }
    return this.#deliver(outcome);
  }

  /** Every call ends here: what the plugin said goes out now, off its stack (plugin-messages.ts), then the outcome. */
  #deliver(outcome: CallOutcome): unknown {
    const settle = this.#settle;
    this.#settle = same;
    deliverMessages(this.#scope);
    return settle(outcome);
  }

  /** A bug of ours around the plugin: a failure of the call (its instance dropped). */
  #crashed(error: unknown): CallOutcome {
    this.#meter = null;
    void this.discard();
    return sandboxError(error);
  }

  /** What the call came to: `output` if it returned, or what it threw. */
  #outcome(meter: Meter, output: Uint8Array | null, error: unknown, code: number | undefined): CallOutcome {
    // A stop is final: whatever the plugin did after it (caught it, returned,
    // threw something else), the outcome is the stop and no output is used.
    const stop = callStop(this.#scope, meter);
    // The plugin's own exit, final like a stop (engine-imports.ts), caught or not: the exit's outcome.
    if (stop instanceof ProcExit) return this.#exited(meter, stop);
    if (stop) {
      // A host function's own error (final since red11) reads as it did when it ended the call uncaught.
      const own = stop instanceof StopSignal || stop instanceof HostRefusal;
      const failed = classify(stop, 'call');
      return this.#finish(meter, null, own ? failed : explainTrap(failed, this.#memory, this.options.limits.maxMemoryPages), true);
    }
    if (!output) {
      if (error instanceof ProcExit) return this.#exited(meter, error);
      return this.#finish(meter, null, explainTrap(classify(error, 'call'), this.#memory, this.options.limits.maxMemoryPages));
    }
    return this.#succeeded(meter, output, code);
  }

  /** A call that returned `output`: under maxOutputBytes, a success. */
  #succeeded(meter: Meter, output: Uint8Array, code: number | undefined): CallOutcome {
    const max = this.options.limits.maxOutputBytes;
    if (output.byteLength <= max) return this.#finish(meter, output, null, false, code);
    const message = `the plugin returned ${output.byteLength} bytes, more than maxOutputBytes (${max})`;
    return this.#finish(meter, null, failure('OUTPUT_TOO_LARGE', message));
  }

  /**
   * A plugin's own exit ends its instance; any code but 0 is a PLUGIN_ERROR. Exit 0 is return code 0
   * with the output set before it, as Extism's Rust host reads it (a guard's deny, then exit 0, denies).
   * Plugin.call loses that output: then no return code, and a protocol call does not pass.
   */
  #exited(meter: Meter, exit: ProcExit): CallOutcome {
    const direct = this.#direct;
    let output: Uint8Array = EMPTY;
    let failed: PluginFailure | null = exit.exitCode === 0 ? null : classify(exit, 'call');
    try {
      // A copy: the block may be the input's buffer, and the instance is going away.
      if (!failed && direct) output = direct.exited().slice();
    } catch (error) {
      failed = classify(error, 'call');
    }
    void this.discard();
    if (failed) return this.#finish(meter, null, failed);
    return this.#succeeded(meter, output, direct ? 0 : undefined);
  }

  /** This engine's one meter, made ready for a call (the first call creates it). */
  #meterOf(budget: Budget, started: number): Meter {
    const kept = this.#kept;
    if (kept) return kept.reset(budget, this.#slice, this.#fuel, started);
    return (this.#kept = new Meter(budget, this.#slice, this.#fuel, started));
  }

  #begin(meter: Meter): void {
    this.#meter = meter;
    beginCall(this.#scope);
  }

  /** `unwound`: the plugin was stopped mid-call, so its instance is rebuilt whatever the code. `code`: the export's return code, if known. */
  #finish(meter: Meter, output: Uint8Array | null, failed: PluginFailure | null, unwound = false, code?: number): CallOutcome {
    // What is left stays in the global: the next call takes it as its first
    // slice when it is enough (Meter.carry), else overwrites it.
    const left = this.#fuel?.value as bigint | undefined;
    let fuelUsed = meter.used(left);
    const durationMs = performance.now() - meter.started;
    const over = failed ? null : meter.overBudget(fuelUsed);
    if (over) {
      // Charges after the last check took it past its budget: its result is not used.
      failed = over;
      fuelUsed = meter.budget.fuel;
    }
    this.#guest.flush();
    this.#meter = null;
    this.#slice = meter.slice;
    if (failed && (unwound || corruptsInstance(failed.code))) void this.discard();
    // Still in the global for the next call of this instance (see `#enter`); discard forgets it.
    else this.#left = left !== undefined && left > 0n ? Number(left) : -1;
    if (failed) return { ok: false, failure: failed, fuelUsed, durationMs };
    return { ok: true, output: output ?? EMPTY, returnCode: code, fuelUsed, durationMs };
  }

  /**
   * Build the instance now (its start function running under this fuel and
   * at least LOAD_MIN_TIMEOUT_MS), so a module that cannot be instantiated
   * fails at load, not at its first call.
   */
  async prepare({ timeoutMs, fuel }: Pick<Limits, 'timeoutMs' | 'fuel'>): Promise<PluginFailure | null> {
    await warmUp();
    if (this.#plugin) return null;
    const loadMs = Math.max(timeoutMs, LOAD_MIN_TIMEOUT_MS);
    const budget: Budget = { deadline: performance.now() + loadMs, timeoutMs: loadMs, fuel, signal: undefined };
    const meter = this.#meterOf(budget, performance.now());
    meter.global = null;
    this.#begin(meter);
    const failed = await this.#instantiate();
    deliverMessages(this.#scope);
    this.#meter = null;
    this.#slice = meter.slice;
    if (this.#fuel) this.#fuel.value = 0n;
    this.#left = -1;
    return failed;
  }

  /** Drop the instance; the next call builds a fresh one from the module. */
  async discard(): Promise<void> {
    const plugin = this.#plugin;
    this.#plugin = null;
    this.#direct = null;
    this.#left = -1;
    this.#fuel = null;
    this.#memory = null;
    this.#scope.vars.clear();
    await plugin?.close().catch(() => undefined);
  }

  async #instantiate(): Promise<PluginFailure | null> {
    const meterImports = { [REFUEL_NAME]: this.#refuel, [GATE_NAME]: gateImport(() => this.#meter) };
    const built = await buildInstance(this.module, this.options, this.#scope, this.#guest, meterImports, (fuel) => {
      if (this.#meter) this.#meter.global = fuel;
    });
    if ('code' in built) return built;
    this.#plugin = built.plugin;
    this.#direct = built.direct;
    this.#fuel = built.fuel;
    this.#memory = built.memory;
    return null;
  }

  readonly #refuel = (): bigint => this.#running().refuel();

  /** The running call's meter. Outside a call (never expected): stop rather than run unmetered. */
  #running(): Meter {
    if (!this.#meter) throw new StopSignal('ABORTED', 'the plugin ran outside of a call');
    return this.#meter;
  }
}
