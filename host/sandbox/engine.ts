/**
 * The in-thread engine: one Extism plugin built from an already instrumented,
 * compiled module, run under a `Meter`. A failed instance is dropped and
 * rebuilt from the same compiled module on the next call, so recovery costs an
 * instantiation, never a recompilation. The worker backend runs this very
 * class inside its worker.
 */
import createPlugin, { type CallContext, type ExtismPluginOptions, type Plugin } from '@extism/extism';
import { classify, corruptsInstance, failure } from './failures.js';
import { GuestImports, type GuestImportOptions } from './guest-imports.js';
import { ProcExit } from './host-call.js';
import { FIRST_SLICE, FUEL_GLOBAL, Meter, REFUEL_MODULE, REFUEL_NAME, StopSignal, type Budget } from './meter.js';
import type { CallOutcome, Limits, PluginFailure } from './types.js';

const PAGE = 65_536;
/** Plugin log lines passed on per call; a log flood beyond this is counted, not delivered. */
export const MAX_LOG_LINES_PER_CALL = 1_000;

export interface EngineOptions extends GuestImportOptions {
  limits: Readonly<Limits>;
  config?: Record<string, string>;
  onLog?: (level: string, message: string) => void;
  onProgress?: (message: string) => void;
}

type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export class Engine {
  #plugin: Plugin | null = null;
  #fuel: WebAssembly.Global | null = null;
  #memory: WebAssembly.Memory | null = null;
  #meter: Meter | null = null;
  #logLines = 0;
  /** The fuel slice learnt so far: this plugin's pace, carried across calls. */
  #slice = FIRST_SLICE;
  /** WASI and the embedder's host functions, when given. */
  readonly #guest: GuestImports;

  constructor(
    readonly module: WebAssembly.Module,
    readonly options: EngineOptions,
  ) {
    this.#guest = new GuestImports(options, () => this.#meter, (level, line) => this.#log(level, line));
  }

  /** Run `fn` under `budget`. Never throws. */
  async run(fn: string, input: Uint8Array, budget: Budget): Promise<CallOutcome> {
    const started = performance.now();
    const meter = new Meter(budget, this.#slice, this.#fuel, started);
    this.#meter = meter;
    this.#logLines = 0;
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
    try {
      const out = await plugin.call(fn, input);
      const output = out ? out.bytes() : new Uint8Array(0);
      const max = this.options.limits.maxOutputBytes;
      if (output.byteLength <= max) return this.#finish(meter, started, output, null);
      const message = `the plugin returned ${output.byteLength} bytes, more than maxOutputBytes (${max})`;
      return this.#finish(meter, started, null, failure('OUTPUT_TOO_LARGE', message));
    } catch (error) {
      // A plugin's own exit ends its instance; exit 0 is a finished call.
      if (error instanceof ProcExit) void this.discard();
      if (error instanceof ProcExit && error.exitCode === 0) return this.#finish(meter, started, new Uint8Array(0), null);
      return this.#finish(meter, started, null, this.#explain(classify(error, 'call')));
    }
  }

  #finish(meter: Meter, started: number, output: Uint8Array | null, failed: PluginFailure | null): CallOutcome {
    // What is left stays in the global unused: the next call overwrites it
    // with its own first slice.
    const fuelUsed = meter.used(this.#fuel?.value as bigint | undefined);
    const durationMs = performance.now() - started;
    this.#guest.flush();
    this.#meter = null;
    this.#slice = meter.slice;
    if (this.#logLines > MAX_LOG_LINES_PER_CALL) this.#flushDroppedLogs();
    if (failed) {
      if (corruptsInstance(failed.code)) void this.discard();
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
    this.#meter = meter;
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
    await plugin?.close().catch(() => undefined);
  }

  async #instantiate(): Promise<PluginFailure | null> {
    try {
      const plugin = await createPlugin(
        { wasm: [{ module: this.module }] },
        {
          useWasi: false,
          functions: this.#hostFunctions(),
          config: this.options.config ?? {},
          memory: { maxPages: this.options.limits.maxMemoryPages, maxVarBytes: this.options.limits.maxVarBytes },
          logger: this.#logger(),
          logLevel: this.options.onLog ? 'trace' : 'silent',
        },
      );
      const instance = await plugin.getInstance();
      this.#plugin = plugin;
      this.#fuel = instance.exports[FUEL_GLOBAL] instanceof WebAssembly.Global ? instance.exports[FUEL_GLOBAL] : null;
      const memory = instance.exports.memory;
      this.#memory = memory instanceof WebAssembly.Memory ? memory : null;
      this.#guest.start(instance);
      return null;
    } catch (error) {
      return classify(error, 'load');
    }
  }

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

  #hostFunctions(): NonNullable<ExtismPluginOptions['functions']> {
    const cap = this.options.limits.maxMemoryPages * PAGE;
    return {
      ...this.#guest.functions(),
      [REFUEL_MODULE]: {
        [REFUEL_NAME]: () => {
          const meter = this.#meter;
          // Outside a call (never expected): stop rather than run unmetered.
          if (!meter) throw new StopSignal('ABORTED', 'the plugin ran outside of a call');
          return meter.refuel();
        },
      },
      // Extism's own alloc logs "memory limit exceeded" and returns 0, after
      // which the plugin fails on an unrelated error; stop it here instead.
      'extism:host/env': {
        alloc: (cc: CallContext, size: bigint) => {
          const bytes = Number(size);
          const address = bytes > cap ? 0n : cc.alloc(bytes);
          if (address === 0n) {
            throw new StopSignal(
              'MEMORY_LIMIT',
              `the plugin asked the host for ${bytes} bytes, beyond its cap of ${this.options.limits.maxMemoryPages} pages (maxMemoryPages)`,
            );
          }
          return address;
        },
      },
      'wasmhooks:host': {
        progress: (cc: CallContext, address: bigint) => {
          const text = cc.read(address)?.text();
          if (text !== undefined) safely(() => this.options.onProgress?.(text));
        },
      },
    };
  }

  /** One plugin log line (Extism `log_*`, WASI stdout/stderr), within the per-call cap. */
  #log(level: LogLevel, message: string): void {
    this.#logLines++;
    if (this.#logLines > MAX_LOG_LINES_PER_CALL) return;
    safely(() => this.options.onLog?.(level, message));
  }

  #logger(): Console {
    const forward = (level: LogLevel) => (message: unknown) => this.#log(level, String(message));
    const logger = {
      trace: forward('trace'),
      debug: forward('debug'),
      info: forward('info'),
      warn: forward('warn'),
      error: forward('error'),
    };
    return logger as unknown as Console;
  }

  #flushDroppedLogs(): void {
    const dropped = this.#logLines - MAX_LOG_LINES_PER_CALL;
    if (dropped > 0) safely(() => this.options.onLog?.('warn', `${dropped} more log lines dropped (limit ${MAX_LOG_LINES_PER_CALL} per call)`));
  }
}

let warm: Promise<void> | undefined;

/**
 * The first Extism plugin of a process takes ~100 ms to build (Extism's own
 * code being compiled), the next ones well under 1 ms. Pay that once, with an
 * empty module, outside any plugin's deadline.
 */
function warmUp(): Promise<void> {
  warm ??= (async () => {
    const empty = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    const plugin = await createPlugin({ wasm: [{ module: empty }] }, { useWasi: false, logLevel: 'silent' });
    await plugin.close();
  })().catch(() => undefined);
  return warm;
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // Host callbacks must not throw; one that does must not break the call.
  }
}
