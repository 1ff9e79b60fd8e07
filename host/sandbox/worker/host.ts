/**
 * Worker isolation, host side: each module gets its own worker running the
 * in-thread engine. The host never blocks: it waits on the channel with
 * `Atomics.waitAsync` and a hard deadline (the call's timeout plus a grace
 * period). A worker that overruns it is terminated and a new one is spawned
 * for the next call.
 */
import type { CallBudget, Backend } from '../backend.js';
import type { EngineOptions } from '../engine.js';
import { failure, loadFailed } from '../failures.js';
import type { CallOutcome, PluginFailure } from '../types.js';
import { Channel, META_BYTES, Slot, State, outcomeOf, type RequestMeta, type ResponseMeta } from './channel.js';
import { loadAdapter, workerUrl, type ThreadAdapter, type WorkerHandle } from './thread.js';

/**
 * Past the deadline, how long the in-worker checks get before the worker is
 * killed. They answer within about a millisecond; the rest is room for a
 * busy machine, since a kill costs a respawn (tens to hundreds of ms).
 */
export const DEFAULT_GRACE_MS = 100;
let graceMs = DEFAULT_GRACE_MS;

/** Tests only: a negative grace kills a worker before its own deadline fires. */
export function setWorkerGraceMs(ms: number): void {
  graceMs = ms;
}
/** How long a new worker may take to come up (it compiles the module). */
const START_TIMEOUT_MS = 10_000;

interface Live {
  handle: WorkerHandle;
  channel: Channel;
  death: string | null;
}

export class WorkerBackend implements Backend {
  #live: Live | null = null;
  /** A replacement worker being started (after a kill), for the next call. */
  #starting: Promise<PluginFailure | null> | null = null;

  private constructor(
    private readonly adapter: ThreadAdapter,
    private readonly bytes: Uint8Array,
    private readonly options: EngineOptions,
  ) {}

  /** Start the first worker now, so a module that cannot start fails at load. */
  static async start(bytes: Uint8Array, options: EngineOptions, name: string): Promise<WorkerBackend> {
    const backend = new WorkerBackend(await loadAdapter(), bytes, options);
    const failed = await backend.#spawn();
    if (failed) throw loadFailed(name, failed);
    return backend;
  }

  async run(fn: string, input: Uint8Array, budget: CallBudget): Promise<CallOutcome> {
    const started = performance.now();
    const fail = (f: PluginFailure): CallOutcome => ({
      ok: false,
      failure: f,
      fuelUsed: 0,
      durationMs: performance.now() - started,
    });
    if (!this.#live) {
      const error = await (this.#starting ?? this.#spawn());
      this.#starting = null;
      if (error) return fail(error);
    }
    const live = this.#live as Live;
    const { channel } = live;
    const request: RequestMeta = { fn, timeoutMs: finite(budget.timeoutMs), fuel: finite(budget.fuel) };
    channel.write(request, input);
    Atomics.store(channel.header, Slot.ABORT, 0);
    // The hard deadline: the call's own, or a grace period after an abort.
    let hardDeadline = performance.now() + budget.timeoutMs + graceMs;
    const onAbort = (): void => {
      Atomics.store(channel.header, Slot.ABORT, 1);
      hardDeadline = Math.min(hardDeadline, performance.now() + graceMs);
      Atomics.notify(channel.header, Slot.STATE); // wakes our own wait to re-arm it
    };
    budget.signal?.addEventListener('abort', onAbort);
    channel.signal(State.REQUEST);
    try {
      let state = channel.state;
      while (state === State.REQUEST) {
        const left = hardDeadline - performance.now();
        if (left <= 0) break;
        state = await waitWhile(channel, State.REQUEST, left);
      }
      if (state === State.RESPONSE) {
        const { meta, data } = channel.read<ResponseMeta>();
        // No wake-up: the worker sleeps on until the next request notifies it.
        Atomics.store(channel.header, Slot.STATE, State.IDLE);
        this.#deliver(meta);
        return outcomeOf(meta, data);
      }
      // Not awaited: the caller need not wait for the old worker to wind down,
      // and the next call should not wait for the new one to come up.
      void this.#kill();
      this.#starting = this.#spawn();
      if (state === State.DEAD) {
        return fail(failure('TRAP', `the sandbox worker died during the call: ${live.death ?? 'unknown reason'}`));
      }
      if (budget.signal?.aborted) {
        return fail(failure('ABORTED', `the call was aborted and did not stop within ${graceMs} ms; its worker was terminated`));
      }
      return fail(
        failure('TIMEOUT', `the call did not return within ${budget.timeoutMs} ms (+${graceMs} ms grace); its worker was terminated`),
      );
    } finally {
      budget.signal?.removeEventListener('abort', onAbort);
    }
  }

  async close(): Promise<void> {
    await this.#starting;
    this.#starting = null;
    this.#live?.channel.signal(State.SHUTDOWN);
    await this.#kill();
  }

  async #spawn(): Promise<PluginFailure | null> {
    const { limits } = this.options;
    const channel = Channel.create(Math.max(limits.maxInputBytes, limits.maxOutputBytes) + META_BYTES);
    const live: Live = { handle: { terminate: async () => undefined }, channel, death: null };
    const init = {
      wasmhooks: 'sandbox-worker' as const,
      bytes: this.bytes,
      buffer: channel.buffer,
      limits: { ...limits },
      config: this.options.config ?? {},
      wasi: this.options.wasi ?? null,
      wantsLogs: this.options.onLog !== undefined,
    };
    try {
      live.handle = await this.adapter.spawn(workerUrl(), init, (reason) => {
        live.death ??= reason;
        channel.signal(State.DEAD);
      });
    } catch (error) {
      return failure('LOAD_FAILED', `the sandbox worker could not be spawned: ${String(error)}`);
    }
    const state = await waitWhile(channel, State.STARTING, START_TIMEOUT_MS);
    if (state === State.IDLE) {
      this.#live = live;
      return null;
    }
    await live.handle.terminate().catch(() => undefined);
    // The worker says why it refused (its module would not instantiate), or it died.
    if (state === State.DEAD && Atomics.load(channel.header, Slot.META_LEN) > 0) {
      const reported = channel.read<ResponseMeta>().meta.failure;
      if (reported) return reported;
    }
    return failure('LOAD_FAILED', `the sandbox worker did not start: ${live.death ?? `no answer in ${START_TIMEOUT_MS} ms`}`);
  }

  async #kill(): Promise<void> {
    const live = this.#live;
    this.#live = null;
    await live?.handle.terminate().catch(() => undefined);
  }

  #deliver(meta: ResponseMeta): void {
    for (const [level, message] of meta.logs) safely(() => this.options.onLog?.(level, message));
    for (const message of meta.progress) safely(() => this.options.onProgress?.(message));
  }
}

/**
 * Wait, without blocking the event loop, until the state is no longer `value`
 * or `timeoutMs` passes; returns the state then. A timer keeps Deno and Bun
 * alive meanwhile (their `waitAsync` alone does not).
 */
async function waitWhile(channel: Channel, value: number, timeoutMs: number): Promise<number> {
  const wait = (Atomics as unknown as WaitAsync).waitAsync(channel.header, Slot.STATE, value, timeoutMs);
  if (wait.async) {
    const keepAlive = setInterval(() => undefined, 1_000_000_000);
    try {
      await wait.value;
    } finally {
      clearInterval(keepAlive);
    }
  }
  return channel.state;
}

/** `Atomics.waitAsync` (ES2024; on all three runtimes, but not in our TS lib). */
interface WaitAsync {
  waitAsync(
    array: Int32Array,
    index: number,
    value: number,
    timeoutMs: number,
  ): { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
}

function finite(n: number): number {
  return Number.isFinite(n) ? n : Number.MAX_SAFE_INTEGER;
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // Host callbacks must not throw; one that does must not break the call.
  }
}
