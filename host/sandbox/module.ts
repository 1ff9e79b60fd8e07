/**
 * The `SandboxedModule` every backend sits behind: a queue (one call at a
 * time), the checks made before a call enters the plugin (abort, input size,
 * export, quarantine), and the health bookkeeping after it.
 */
import type { Backend } from './backend.js';
import { failure, sandboxError } from './failures.js';
import type { HealthTracker } from './health.js';
import type { Health, PluginFailure } from '../failure.js';
import type { CallOptions, CallOutcome, HealthEvent, Limits, MappedCallOptions, SandboxedModule } from './types.js';

const NO_OPTIONS: CallOptions = Object.freeze({});

/** Options as `call` reads them: `result` is there only for a mapped call. */
type AnyCallOptions = CallOptions & Partial<MappedCallOptions<unknown>>;

export class Sandboxed implements SandboxedModule {
  #tail: Promise<unknown> | undefined = Promise.resolve();
  /** Starts the first call queued while an idle module's call was still running its plugin (see `call`). */
  #release: ((running: Promise<unknown>) => void) | undefined = undefined;
  /** Calls started or queued and not yet settled. */
  #busy = 0;
  #closed = false;
  /** The options of the call the backend is running (see `#settle`). */
  #running: AnyCallOptions = NO_OPTIONS;
  readonly #exportSet: ReadonlySet<string>;

  constructor(
    readonly exports: readonly string[],
    readonly limits: Readonly<Limits>,
    private readonly backend: Backend,
    private readonly tracker: HealthTracker,
    private readonly name: string,
    /** The module's `host.onProgress`: progress of a call that has no `onProgress` of its own. */
    private readonly onProgress?: (message: string) => void,
    /** The module's `host.onLog`: log lines of a call that has no `onLog` of its own. */
    private readonly onLog?: (level: string, message: string) => void,
  ) {
    this.#exportSet = new Set(exports);
  }

  /**
   * The backend's progress callback: the running call's `onProgress`, else the module's. The backend
   * runs one call at a time and reports a call's progress before its outcome (a worker with its
   * answer), so `#running` is the call that sent it. A shared slot set by the caller before `call`
   * sent a running hook call's progress (another session's, a worker's answer arriving) to a tool
   * call that was still queued behind it.
   */
  readonly progress = (message: string): void => {
    (this.#running.onProgress ?? this.onProgress)?.(message);
  };

  /** The backend's log callback: the running call's `onLog`, else the module's (as `progress`). */
  readonly log = (level: string, message: string): void => {
    const running = this.#running;
    // Called as a method of the call's options, as `check` is (a hook call's is a method of its class).
    if (running.onLog) running.onLog(level, message);
    else this.onLog?.(level, message);
  };

  get health(): Health {
    return this.tracker.health;
  }

  onHealth(listener: (event: HealthEvent) => void): () => void {
    return this.tracker.subscribe(listener);
  }

  call<T>(fn: string, input: Uint8Array, options: MappedCallOptions<T>): Promise<T>;
  call(fn: string, input: Uint8Array, options?: CallOptions): Promise<CallOutcome>;
  call(fn: string, input: Uint8Array, options: AnyCallOptions = NO_OPTIONS): Promise<unknown> {
    // An idle module starts the call at once; a busy one queues it (with its own copy of a borrowed input).
    let result: Promise<unknown>;
    if (this.#busy++ === 0) {
      // An in-thread call runs the plugin before #call returns, so a call made meanwhile (by a host
      // function or a log callback) has no promise to queue behind yet: it waits for #release.
      // Queued behind the previous tail, it ran in the middle of this one (Extism's blocks reset under it).
      this.#tail = undefined;
      result = this.#call(fn, input, options, options.borrowed === true);
      if (this.#release) this.#release(result), (this.#release = undefined);
      this.#tail ??= result;
    } else {
      const own = options.borrowed === true ? input.slice() : input;
      const before = this.#tail ?? new Promise<unknown>((resolve) => (this.#release = resolve));
      // Whether the call before answered or rejected (a throwing `result`), this one runs.
      const go = (): Promise<unknown> => this.#call(fn, own, options, false);
      result = before.then(go, go);
      this.#tail = result;
    }
    return result;
  }

  async close(): Promise<void> {
    this.#closed = true;
    // The last call's rejection (a throwing `result`) is its caller's, not close's.
    await this.#tail?.catch(() => undefined);
    await this.backend.close();
  }

  // No async function and no promise of our own: the backend hands the
  // outcome to #settle in the tick it is known (one promise per call, which
  // shows on plugins that answer in a few µs).
  #call(fn: string, input: Uint8Array, options: AnyCallOptions, borrowed: boolean): Promise<unknown> {
    // Read once: the signal checked here is the one the call runs under.
    const signal = options.signal;
    const refused = this.#refusal(fn, input, signal);
    if (refused) {
      this.#busy--;
      const outcome: CallOutcome = { ok: false, failure: refused, fuelUsed: 0, durationMs: 0 };
      return Promise.resolve(answer(options, outcome));
    }
    if (borrowed && !this.backend.readsInputAtOnce) input = input.slice();
    const limits = options.limits;
    this.#running = options;
    try {
      return this.backend.run(
        fn,
        input,
        positive(limits?.timeoutMs) ?? this.limits.timeoutMs,
        positive(limits?.fuel) ?? this.limits.fuel,
        signal,
        this.#settle,
      );
    } catch (error) {
      // Backends must not throw; if one does, it is still only a failure.
      return Promise.resolve(this.#settle(sandboxError(error)));
    }
  }

  /**
   * The running call's outcome, read by its caller's `check`, recorded, and
   * made the caller's answer by its `result` (a mapped call). One function
   * for every call (the backend runs one call at a time, so `#running` is
   * that call's options), not a closure per call.
   */
  readonly #settle = (outcome: CallOutcome): unknown => {
    const options = this.#running;
    this.#running = NO_OPTIONS;
    // Read once: a getter that answered "a check" here must not answer "none" when it is called.
    const check = options.check;
    if (check) outcome = checked(outcome, options, check);
    this.#busy--;
    this.tracker.record(outcome);
    return answer(options, outcome);
  };

  #refusal(fn: string, input: Uint8Array, signal: AbortSignal | undefined): PluginFailure | null {
    if (this.#closed) return failure('ABORTED', `the sandbox of ${this.name} is closed`);
    if (signal?.aborted) return failure('ABORTED', 'the call was aborted before it started');
    if (input.byteLength > this.limits.maxInputBytes) {
      return failure(
        'INPUT_TOO_LARGE',
        `the input is ${input.byteLength} bytes, more than maxInputBytes (${this.limits.maxInputBytes})`,
      );
    }
    if (!this.#exportSet.has(fn)) {
      return failure('MISSING_EXPORT', `${this.name} exports no function "${fn}" (it exports: ${this.exports.join(', ') || 'nothing'})`);
    }
    return this.tracker.gate();
  }
}

/**
 * The call's answer: what a mapped call's `result` makes of the outcome, or the outcome. A `result`
 * that throws (against its contract) rejects the call, as on every backend: a throw reaching the
 * backend would come back to #call as the backend's own failure and settle the call a second time.
 */
function answer(options: AnyCallOptions, outcome: CallOutcome): unknown {
  if (!options.result) return outcome;
  try {
    return options.result(outcome);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The caller's verdict on an output: an unreadable one is a failure of the call. */
function checked(outcome: CallOutcome, options: CallOptions, check: NonNullable<CallOptions['check']>): CallOutcome {
  if (!outcome.ok) return outcome;
  let bad: PluginFailure | null;
  try {
    bad = check.call(options, outcome.output, outcome.returnCode);
  } catch (error) {
    bad = failure('BAD_OUTPUT', `the output could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!bad) return outcome;
  return { ok: false, failure: bad, fuelUsed: outcome.fuelUsed, durationMs: outcome.durationMs };
}

/** A per-call override (`limits.timeoutMs`, `limits.fuel`) is used only when it is a positive number; raw.ts reads them alike. */
export function positive(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 ? value : undefined;
}
