/**
 * The in-thread engine: one Extism plugin built from an already instrumented,
 * compiled module, run under a `Meter`. A failed instance is dropped and
 * rebuilt from the same compiled module on the next call, so recovery costs an
 * instantiation, never a recompilation. The worker backend runs this very
 * class inside its worker.
 */
import type { Plugin } from '@extism/extism';
import { safely } from '../errors.js';
import { SILENT, createPlugin, deferredFetch, warmUp } from './extism.js';
import { classify, clip, corruptsInstance, failure } from './failures.js';
import { MAX_LOG_LINES_PER_CALL, deliverLog, hostImports, type ImportScope } from './engine-imports.js';
import { GuestImports, type GuestImportOptions } from './guest-imports.js';
import { ProcExit } from './host-call.js';
import { gateImport } from './gate.js';
import { GATE_NAME } from './instrument/index.js';
import { FIRST_SLICE, FUEL_GLOBAL, Meter, REFUEL_NAME, StopSignal, type Budget } from './meter.js';
import type { PluginFailure } from '../failure.js';
import type { CallOutcome, Limits } from './types.js';
import { VarStore } from './vars.js';

const PAGE = 65_536;
/** Inputs up to this size are copied into kept exact-size buffers (at most KEPT_INPUTS of them). */
const KEEP_INPUT_BYTES = 16 * 1024;
const KEPT_INPUTS = 4;

/** Plugin log lines passed on per call; a log flood beyond this is counted, not delivered. */
export { MAX_LOG_LINES_PER_CALL };

export interface EngineOptions extends GuestImportOptions {
  limits: Readonly<Limits>;
  config?: Record<string, string>;
  onLog?: (level: string, message: string) => void;
  onProgress?: (message: string) => void;
}

export class Engine {
  #plugin: Plugin | null = null;
  #fuel: WebAssembly.Global | null = null;
  #memory: WebAssembly.Memory | null = null;
  #meter: Meter | null = null;
  /** The fuel slice learnt so far: this plugin's pace, carried across calls. */
  #slice = FIRST_SLICE;
  /** What the host functions see of the current call (its first stop, its counters) and of the instance (its variables). */
  readonly #scope: ImportScope;
  /** WASI and the embedder's host functions, when given. */
  readonly #guest: GuestImports;
  /** Exact-size input buffers, reused call after call (see `#own`). */
  readonly #inputs: Uint8Array[] = [];

  constructor(
    readonly module: WebAssembly.Module,
    readonly options: EngineOptions,
  ) {
    this.#scope = {
      limits: options.limits,
      vars: new VarStore(options.limits),
      config: options.config ?? {},
      log: { lines: 0, bytes: 0, dropped: 0 },
      onLog: options.onLog,
      stop: null,
      progressBytes: 0,
      onProgress: options.onProgress,
    };
    // WASI stdout/stderr lines go through the same per-call caps as log_*.
    this.#guest = new GuestImports(options, () => this.#meter, (level, line) => deliverLog(this.#scope, level, line));
  }

  /**
   * Run `fn` under `budget`. Never throws. `input` is read before the first
   * await (a caller may reuse its buffer as soon as this returns a promise).
   */
  async run(fn: string, input: Uint8Array, budget: Budget, started = performance.now()): Promise<CallOutcome> {
    input = this.#own(input);
    const meter = new Meter(budget, this.#slice, this.#fuel, started);
    this.#begin(meter);
    let remaining = 0n;
    if (!this.#plugin) {
      const loaded = await this.#instantiate();
      if (loaded) return this.#finish(meter, started, null, loaded);
      meter.global = this.#fuel;
      remaining = (this.#fuel?.value as bigint | undefined) ?? 0n;
    }
    const plugin = this.#plugin as Plugin;
    // Hand out the first slice up front: a short call then never needs refuel.
    if (this.#fuel) this.#fuel.value = meter.prefill(remaining);
    let output: Uint8Array | null = null;
    let thrown: { error: unknown } | null = null;
    try {
      const out = await plugin.call(fn, input);
      output = out ? out.bytes() : new Uint8Array(0);
    } catch (error) {
      thrown = { error };
    }
    // A stop is final: whatever the plugin did after it (caught it, returned,
    // threw something else), the outcome is the stop and no output is used.
    const stop = this.#stopOf(meter);
    if (stop) return this.#finish(meter, started, null, classify(stop, 'call'), true);
    if (thrown) {
      const { error } = thrown;
      // A plugin's own exit ends its instance; exit 0 is a finished call.
      if (error instanceof ProcExit) void this.discard();
      if (error instanceof ProcExit && error.exitCode === 0) return this.#finish(meter, started, new Uint8Array(0), null);
      return this.#finish(meter, started, null, this.#explain(classify(error, 'call')));
    }
    const bytes = output ?? new Uint8Array(0);
    const max = this.options.limits.maxOutputBytes;
    if (bytes.byteLength <= max) return this.#finish(meter, started, bytes, null);
    const message = `the plugin returned ${bytes.byteLength} bytes, more than maxOutputBytes (${max})`;
    return this.#finish(meter, started, null, failure('OUTPUT_TOO_LARGE', message));
  }

  /**
   * The input as Extism should get it. Extism takes a Uint8Array that spans
   * a whole ArrayBuffer as the call's input block without copying, and
   * copies anything else into a new ArrayBuffer (an allocation that costs
   * more than a small guest's whole call). A view (an encoder's reused
   * buffer, a worker channel's shared memory) is copied into an exact-size
   * buffer kept for the next call of that size. The plugin cannot keep it:
   * Extism drops every block when the next call begins.
   *
   * An input that spans its whole ArrayBuffer is copied too: Extism would
   * use the caller's buffer itself as the input block, which the plugin may
   * write (`store_u8` reaches every block), and which a borrowing caller
   * (the hook encoder, whose request can fill its buffer exactly) rewrites
   * while this call awaits a rebuilt instance.
   */
  #own(input: Uint8Array): Uint8Array {
    const n = input.byteLength;
    // Past the size cap, a copy of our own (Extism then takes it as it is; it copied a view itself, but only once the instance was ready).
    if (n > KEEP_INPUT_BYTES) return input.slice();
    const kept = this.#inputs;
    let exact: Uint8Array | undefined;
    for (let i = 0; i < kept.length; i++) {
      if (kept[i]!.byteLength === n) {
        exact = kept[i];
        break;
      }
    }
    if (!exact) {
      exact = new Uint8Array(n);
      if (kept.length === KEPT_INPUTS) kept.shift();
      kept.push(exact);
    }
    // By hand: TypedArray#set is a call into the runtime, dearer than a short loop.
    if (n <= 256) for (let i = 0; i < n; i++) exact[i] = input[i]!;
    else exact.set(input);
    return exact;
  }

  #begin(meter: Meter): void {
    this.#meter = meter;
    this.#scope.stop = null;
    this.#scope.progressBytes = 0;
    const log = this.#scope.log;
    log.lines = 0;
    log.bytes = 0;
    log.dropped = 0;
  }

  /**
   * The call's stop: the first one a host function raised (every meter import
   * goes through `hostImports`' wrapper, which records it), a stop the meter
   * kept itself (`stopped`, where meter.ts records its sticky stop), or an
   * abort seen after the plugin returned.
   */
  #stopOf(meter: Meter): Error | null {
    const own = (meter as { stopped?: unknown }).stopped;
    if (this.#scope.stop) return this.#scope.stop;
    if (own instanceof Error) return own;
    if (meter.budget.signal?.aborted) return new StopSignal('ABORTED', 'the call was aborted');
    return null;
  }

  /** `unwound`: the plugin was stopped mid-call, so its instance is rebuilt whatever the code. */
  #finish(meter: Meter, started: number, output: Uint8Array | null, failed: PluginFailure | null, unwound = false): CallOutcome {
    // What is left stays in the global unused: the next call overwrites it
    // with its own first slice.
    let fuelUsed = meter.used(this.#fuel?.value as bigint | undefined);
    const durationMs = performance.now() - started;
    const over = failed ? null : meter.overBudget(fuelUsed);
    if (over) {
      // Charges after the last check took it past its budget: its result is not used.
      failed = over;
      fuelUsed = meter.budget.fuel;
    }
    this.#guest.flush();
    this.#meter = null;
    this.#slice = meter.slice;
    if (this.#scope.log.dropped > 0) this.#flushDroppedLogs();
    if (failed) {
      if (unwound || corruptsInstance(failed.code)) void this.discard();
      return { ok: false, failure: failed, fuelUsed, durationMs };
    }
    return { ok: true, output: output ?? new Uint8Array(0), fuelUsed, durationMs };
  }

  /**
   * Build the instance now (its start function running under these limits),
   * so a module that cannot be instantiated fails at load, not at its first
   * call.
   */
  async prepare({ timeoutMs, fuel }: Pick<Limits, 'timeoutMs' | 'fuel'>): Promise<PluginFailure | null> {
    await warmUp();
    if (this.#plugin) return null;
    const budget: Budget = { deadline: performance.now() + timeoutMs, timeoutMs, fuel, signal: undefined };
    const meter = new Meter(budget, this.#slice, null);
    this.#begin(meter);
    const failed = await this.#instantiate();
    this.#meter = null;
    this.#slice = meter.slice;
    if (this.#fuel) this.#fuel.value = 0n;
    return failed;
  }

  /** Drop the instance; the next call builds a fresh one from the module. */
  async discard(): Promise<void> {
    const plugin = this.#plugin;
    this.#plugin = null;
    this.#fuel = null;
    this.#memory = null;
    this.#scope.vars.clear();
    await plugin?.close().catch(() => undefined);
  }

  async #instantiate(): Promise<PluginFailure | null> {
    this.#scope.vars.clear();
    let plugin: Plugin;
    try {
      plugin = await createPlugin(
        // The module itself, not a manifest: Extism then skips its `instanceof Response` check.
        this.module,
        {
          useWasi: false,
          fetch: deferredFetch,
          functions: hostImports(this.#scope, { [REFUEL_NAME]: this.#refuel, [GATE_NAME]: gateImport(() => this.#meter) }, this.#guest.functions()),
          config: this.options.config ?? {},
          memory: { maxPages: this.options.limits.maxMemoryPages },
          // Plugin log lines come through our own log_* imports; what Extism
          // logs itself is about failures we report as failures.
          logger: SILENT,
          // What the plugin reads from get_log_level: everything, if anyone listens.
          logLevel: this.options.onLog ? 'trace' : 'silent',
        },
      );
    } catch (error) {
      return this.#scope.stop ? classify(this.#scope.stop, 'load') : classify(error, 'load');
    }
    // A start function that caught its stop still stopped.
    if (this.#scope.stop) {
      await plugin.close().catch(() => undefined);
      return classify(this.#scope.stop, 'load');
    }
    const instance = await plugin.getInstance();
    this.#plugin = plugin;
    this.#fuel = instance.exports[FUEL_GLOBAL] instanceof WebAssembly.Global ? instance.exports[FUEL_GLOBAL] : null;
    const memory = instance.exports.memory;
    this.#memory = memory instanceof WebAssembly.Memory ? memory : null;
    // The module's own initialisation (wasi-libc constructors) runs under this meter.
    try {
      this.#guest.start(instance);
    } catch (error) {
      await this.discard();
      return classify(this.#scope.stop ?? error, 'load');
    }
    if (this.#scope.stop) {
      await this.discard();
      return classify(this.#scope.stop, 'load');
    }
    return null;
  }

  readonly #refuel = (): bigint => {
    const meter = this.#meter;
    // Outside a call (never expected): stop rather than run unmetered.
    if (!meter) throw new StopSignal('ABORTED', 'the plugin ran outside of a call');
    return meter.refuel();
  };

  /** A trap right after the memory hit its cap is the cap's doing: say so. */
  #explain(f: PluginFailure): PluginFailure {
    if (f.code !== 'TRAP' || !this.#memory) return f;
    const pages = this.#memory.buffer.byteLength / PAGE;
    const cap = this.options.limits.maxMemoryPages;
    if (pages < cap) return f;
    return failure(
      'MEMORY_LIMIT',
      `the plugin's memory reached its cap of ${cap} pages (${cap * 64} KiB, maxMemoryPages) and it then trapped: ${f.message}`,
    );
  }

  #flushDroppedLogs(): void {
    const { maxLogBytes } = this.options.limits;
    const message = `${this.#scope.log.dropped} more log lines dropped (limits per call: ${MAX_LOG_LINES_PER_CALL} lines, ${maxLogBytes} bytes, maxLogBytes)`;
    safely(() => this.options.onLog?.('warn', clip(message)));
  }
}
