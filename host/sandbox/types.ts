/**
 * The sandbox contract: run one export of an untrusted wasm module with a
 * deadline, a fuel budget, a memory cap and an abort signal, on the caller's
 * thread or in a worker, and report the outcome as data.
 */
import { DEFAULT_MAX_TABLE_ELEMENTS } from './instrument/tables.js';

import type { Health, PluginFailure } from '../failure.js';
import type { HostFunctions } from './host-functions.js';
import type { WasiOptions } from './wasi/options.js';

/** Limits applied to every call. Defaults: see `DEFAULT_LIMITS`. */
export interface Limits {
  /** Wall-clock deadline of one call, including instantiation. */
  timeoutMs: number;
  /**
   * Fuel units one call may burn: wasm instructions executed, weighted
   * (docs/sandbox-instrumentation.md). The same plugin on the same input
   * burns the same fuel on every runtime and machine.
   */
  fuel: number;
  /** Cap on the plugin's linear memory, in 64 KiB pages. */
  maxMemoryPages: number;
  /** Largest input accepted for one call. */
  maxInputBytes: number;
  /** Largest output accepted from one call. */
  maxOutputBytes: number;
  /**
   * Cap on the plugin's Extism variables (`var_set`), per instance: the UTF-8
   * bytes of every key plus every value. Deleting a variable frees its share.
   */
  maxVarBytes: number;
  /** Cap on the number of Extism variables one instance may hold at once. */
  maxVars: number;
  /**
   * Plugin log text delivered per call (Extism `log_*`), in UTF-8 bytes. Lines past
   * it (or past `MAX_LOG_LINES_PER_CALL`) are dropped and counted in one
   * final warning line, never buffered.
   */
  maxLogBytes: number;
  /**
   * Progress text one call may report (`wasmhooks:host/progress`), in bytes,
   * all messages together. Going past it stops the call with OUTPUT_TOO_LARGE.
   */
  maxProgressBytes: number;
  /**
   * Cap on the elements of all the plugin's tables together (written into the
   * binary like the memory cap; about 8–16 bytes of host memory each).
   */
  maxTableElements: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  timeoutMs: 100,
  // ≈ 1e9 weighted instructions ≈ 90 ms of one modern core (bench "fuel per µs": 1.6k–16k fuel/µs, median ≈ 11k):
  // guard-shell decides a 1 MB command in ~234 M (~235 fuel per byte), path-guard in ~46 M, secret-redactor
  // redacts 1 MB in ~176 M (bench group "guests"; 8-23% more since red7's operand rates: docs/sandbox-instrumentation.md). Fuel makes the budget the same on every machine; the
  // deadline bounds wall time.
  fuel: 1_000_000_000,
  maxMemoryPages: 256, // 16 MiB
  maxInputBytes: 1 << 20,
  maxOutputBytes: 1 << 20,
  maxVarBytes: 1 << 20,
  maxVars: 1_024,
  maxLogBytes: 256 * 1024,
  maxProgressBytes: 1 << 20,
  maxTableElements: DEFAULT_MAX_TABLE_ELEMENTS,
});

/**
 * The least deadline a load's one-time work gets (ms): building the instance
 * (its start function, wasi-libc constructors) and `describe`. The first run of
 * a fresh module also pays the engine's lazy compile, and a loaded machine must
 * not fail a load on the per-hook deadline; fuel still bounds the guest's work.
 */
export const LOAD_MIN_TIMEOUT_MS = 1000;

export type CallOutcome =
  | {
      ok: true;
      output: Uint8Array;
      /**
       * The export's return code, read as Extism's Rust host reads it: its i32 result (0 for an
       * export with none, -1 for a result that is not one i32). The sandbox runs any export and
       * does not judge it; under the Extism ABI a non-zero code is a failed call, and the plugin
       * layer treats it so. Absent when the call went through Extism's own `Plugin.call`, which
       * drops it.
       */
      returnCode?: number;
      fuelUsed: number;
      durationMs: number;
    }
  | { ok: false; failure: PluginFailure; fuelUsed: number; durationMs: number };

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides of the module's limits for this call (a binding's own timeout, say). */
  limits?: Partial<Pick<Limits, 'timeoutMs' | 'fuel'>>;
  /**
   * This call's progress (`wasmhooks:host/progress`), in place of the
   * module's `host.onProgress`: a message goes to the call that was running
   * when the plugin sent it, never to a call still waiting its turn.
   * Contract: must not throw.
   */
  onProgress?: (message: string) => void;
  /**
   * This call's log lines (Extism `log_*`, WASI stdout/stderr), in place of the
   * module's `host.onLog`, the same way: a line goes to the call that was
   * running when the plugin wrote it (a plugin shared by sessions logs into
   * the session whose call it is, not into every one). Called as a method of
   * the options object. Contract: must not throw.
   */
  onLog?: (level: string, message: string) => void;
  /**
   * Reads the output of a call that returned, with the export's return code
   * (`CallOutcome.returnCode`): the failure that makes it unusable
   * (PLUGIN_ERROR for a non-zero code, BAD_OUTPUT, PROTOCOL_MISMATCH), or
   * null. A failure it returns becomes the call's outcome and counts toward
   * quarantine like any other. Called as a method of the options object
   * (`options.check(output, returnCode)`). Contract: must not throw.
   */
  check?: (output: Uint8Array, returnCode: number | undefined) => PluginFailure | null;
  /**
   * The caller reuses `input`'s buffer once `call` returns: the sandbox
   * copies it unless the call reads it at once (an idle in-thread module).
   */
  borrowed?: boolean;
}

/**
 * Options of a call whose promise resolves to what `result` makes of its
 * outcome: the caller's own answer (a hook result, say) without a `.then` of
 * its own, so no promise hop and no closure per call. Called as a method of
 * the options object, once, after `check`, as the call settles (queued,
 * refused, failed or not). Contract: must not throw (one that does rejects
 * the call, settled once).
 */
export interface MappedCallOptions<T> extends CallOptions {
  result(outcome: CallOutcome): T;
}

/** Callbacks for what a plugin reports (progress, logs). */
export interface HostCallbacks {
  /** `wasmhooks:host/progress`: a tool reports progress (UTF-8 JSON or text). */
  onProgress?: (message: string) => void;
  /** Plugin log lines (Extism `log_*`). */
  onLog?: (level: string, message: string) => void;
}

export interface SandboxOptions {
  /**
   * Each a positive integer, checked as `loadPlugin`'s (sandbox/limits-schema.ts); `timeoutMs` and `fuel`
   * may also be `Infinity` (no deadline, no fuel cap). An unknown limit is refused.
   */
  limits?: Partial<Limits>;
  /** Run in our own worker instead of on the caller's thread. */
  isolation?: 'in-thread' | 'worker';
  /** Extism config map handed to the plugin (only granted keys). */
  config?: Record<string, string>;
  allowedHosts?: string[];
  allowedPaths?: Record<string, string>;
  host?: HostCallbacks;
  /**
   * WASI preview1, off by default. `true`: clocks, random bytes, stdout and
   * stderr as log lines (`info`, `warn`), `proc_exit` as an outcome (0: ok,
   * else PLUGIN_ERROR); no args, env or files. The object form grants those.
   */
  wasi?: WasiOptions;
  /**
   * Functions the plugin may import from `extism:host/user`, by name. A module
   * importing one not given here fails to load. In-thread isolation only.
   */
  hostFunctions?: HostFunctions;
  /** Name used in messages. */
  name?: string;
  /**
   * Accept modules that use wasm exception handling. Refused by default (a
   * handler could catch the sandbox's stop); with this set, every handler
   * entry re-raises a stop. See docs/sandbox-instrumentation.md.
   */
  allowExceptions?: boolean;
  /** When a module is quarantined after repeated failures, and for how long. */
  quarantine?: Partial<QuarantinePolicy>;
  /** Called on every health transition. Contract: must not throw. */
  onHealth?: (event: HealthEvent) => void;
  /**
   * Gives up the load (`LOAD_FAILED`): a large module's validation and
   * instrumentation run in a worker, which is then terminated.
   */
  signal?: AbortSignal;
  /**
   * How fuel is charged: `'fast'` (default) charges each straight-line block
   * as it is entered; `'exact'` charges every instruction as it runs, several
   * times slower. The exact mode is the reference the fast mode's accuracy
   * is measured against (docs/sandbox-instrumentation.md).
   */
  metering?: 'fast' | 'exact';
}

export interface QuarantinePolicy {
  /** Consecutive plugin-caused failures that quarantine the module. Default 3. */
  maxConsecutiveFailures: number;
  /** First quarantine length; doubles on each failed probe. Default 1000. */
  backoffMs: number;
  /** Cap of the doubling backoff. Default 30000. */
  maxBackoffMs: number;
}

export interface HealthEvent {
  from: Health;
  to: Health;
  /** The failure that caused the transition (absent on recovery). */
  failure?: PluginFailure;
  consecutiveFailures: number;
  /** When a quarantine ends (epoch ms), for `to: 'quarantined'`. */
  retryAt?: number;
}

/**
 * A loaded, instrumented module. Calls are serialised: a module runs one call
 * at a time. Contract: `call` never throws; every failure is a `CallOutcome`.
 */
export interface SandboxedModule {
  readonly exports: readonly string[];
  readonly limits: Readonly<Limits>;
  readonly health: Health;
  /** Subscribe to health transitions; returns the unsubscribe function. */
  onHealth(listener: (event: HealthEvent) => void): () => void;
  call<T>(fn: string, input: Uint8Array, options: MappedCallOptions<T>): Promise<T>;
  call(fn: string, input: Uint8Array, options?: CallOptions): Promise<CallOutcome>;
  close(): Promise<void>;
}
