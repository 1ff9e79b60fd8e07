/**
 * Worker isolation, host side: each module gets its own worker running the
 * in-thread engine. The host never blocks: it waits on the channel with
 * `Atomics.waitAsync` and a hard deadline (the call's timeout plus a grace
 * period). A worker that overruns it is terminated and a new one is spawned
 * for the next call.
 */
import type { Backend } from '../backend.js';
import type { EngineOptions, Settle } from '../engine.js';
import { failure, loadFailed, sandboxError } from '../failures.js';
import { tell } from '../plugin-messages.js';
import type { PluginFailure } from '../../failure.js';
import type { CallOutcome } from '../types.js';
import { Channel, META_BYTES, Slot, State, WAKE_MS, outcomeOf, type RequestMeta, type ResponseMeta } from './channel.js';
import { loadAdapter, workerUrl, type ThreadAdapter, type WorkerHandle } from './thread.js';

/**
 * Past the deadline, how long the in-worker checks get before the worker is
 * killed. They answer within about a millisecond; the rest is room for a
 * busy machine, since a kill costs a respawn (tens to hundreds of ms). 50 ms
 * keeps the documented slack, max(2 × deadline, deadline + 50 ms).
 */
export const DEFAULT_GRACE_MS = 50;
let graceMs = DEFAULT_GRACE_MS;

/** Tests only: a negative grace kills a worker before its own deadline fires. */
export function setWorkerGraceMs(ms: number): void {
  graceMs = ms;
}
/** How long a finished call's answer may take to cross the channel, once its first part arrived. */
const TRANSFER_MS = 1_000;
/** How long a new worker may take to come up (it compiles the module). */
const START_TIMEOUT_MS = 10_000;

interface CallBudget {
  timeoutMs: number;
  fuel: number;
  signal: AbortSignal | undefined;
}

interface Live {
  handle: WorkerHandle;
  channel: Channel;
  death: string | null;
}

export class WorkerBackend implements Backend {
  /** A call may first wait for a worker to start. */
  readonly readsInputAtOnce = false;
  #live: Live | null = null;
  /** A replacement worker being started (after a kill), for the next call. */
  #starting: Promise<PluginFailure | null> | null = null;
  /** Terminations under way: `close()` waits for them, so no thread of this sandbox outlives it. */
  readonly #dying = new Set<Promise<void>>();

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

  run<T>(fn: string, input: Uint8Array, timeoutMs: number, fuel: number, signal: AbortSignal | undefined, settle: Settle<T>): Promise<T> {
    return this.#run(fn, input, { timeoutMs, fuel, signal }).then(settle, (error: unknown) => settle(sandboxError(error)));
  }

  async #run(fn: string, input: Uint8Array, budget: CallBudget): Promise<CallOutcome> {
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
    if (Number.isFinite(budget.timeoutMs)) {
      request.left = { ms: Math.max(started + budget.timeoutMs - performance.now(), 0), postedAt: Date.now() };
    }
    if (!channel.write(request, input)) {
      return fail(failure('INPUT_TOO_LARGE', `the request (${input.byteLength} bytes of input) does not fit the worker channel`));
    }
    Atomics.store(channel.header, Slot.ABORT, 0);
    // The hard deadline: the call's own, or a grace period after an abort.
    let hardDeadline = performance.now() + budget.timeoutMs + graceMs;
    let aborted = false;
    const onAbort = (): void => {
      aborted = true;
      Atomics.store(channel.header, Slot.ABORT, 1);
      hardDeadline = Math.min(hardDeadline, performance.now() + graceMs);
      Atomics.notify(channel.header, Slot.STATE); // wakes our own wait to re-arm it
    };
    if (budget.signal?.aborted) onAbort();
    budget.signal?.addEventListener('abort', onAbort);
    channel.signal(State.REQUEST);
    try {
      const parts: Uint8Array[] = [];
      let state = channel.state;
      // The worker's turn while it runs the call, and between parts of its answer.
      while (state === State.REQUEST || state === State.CHUNK_TAKEN || state === State.CHUNK) {
        if (state === State.CHUNK) {
          // The plugin is done; only our own copying remains: give it room
          // rather than call a finished call a timeout on a busy machine.
          if (parts.length === 0) hardDeadline = Math.max(hardDeadline, performance.now() + TRANSFER_MS);
          parts.push(channel.part());
          channel.signal(State.CHUNK_TAKEN);
          state = State.CHUNK_TAKEN;
          continue;
        }
        const left = hardDeadline - performance.now();
        if (left <= 0) break;
        state = await waitWhile(channel, state, left);
      }
      if (state === State.RESPONSE) {
        parts.push(channel.part());
        const { meta, data } = channel.decode<ResponseMeta>(parts);
        // No wake-up: the worker sleeps on until the next request notifies it.
        Atomics.store(channel.header, Slot.STATE, State.IDLE);
        this.#deliver(meta);
        const outcome = outcomeOf(meta, data);
        // A stop is final: once the caller aborted, no answer of this call is used.
        if (aborted && (outcome.ok || outcome.failure.code !== 'ABORTED')) {
          return { ok: false, failure: failure('ABORTED', 'the call was aborted'), fuelUsed: outcome.fuelUsed, durationMs: outcome.durationMs };
        }
        return outcome;
      }
      // Not awaited: the caller need not wait for the old worker to wind down,
      // and the next call should not wait for the new one to come up.
      void this.#kill();
      this.#starting = this.#spawn();
      if (state === State.DEAD) return fail(deathOf(live, channel));
      if (aborted) {
        return fail(failure('ABORTED', `the call was aborted and did not stop within ${graceMs} ms; its worker was terminated`));
      }
      return fail(
        failure('TIMEOUT', `the call ran past its deadline of ${budget.timeoutMs} ms and did not return within a ${graceMs} ms grace; its worker was terminated`),
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
    await Promise.all(this.#dying);
  }

  async #spawn(): Promise<PluginFailure | null> {
    const { limits } = this.options;
    // Sized for the largest request; responses beyond it come in parts.
    const channel = Channel.create(limits.maxInputBytes + META_BYTES);
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
      live.handle = await this.adapter.spawn(workerUrl('sandbox-worker'), init, {
        onDeath: (reason) => {
          live.death ??= reason;
          channel.signal(State.DEAD);
        },
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
    const reported = state === State.DEAD ? reportedFailure(channel) : null;
    if (reported) return reported;
    return failure('LOAD_FAILED', `the sandbox worker did not start: ${live.death ?? `no answer in ${START_TIMEOUT_MS} ms`}`);
  }

  async #kill(): Promise<void> {
    const live = this.#live;
    this.#live = null;
    if (!live) return;
    // Until the thread is gone, a plugin still running there stops at its
    // next refuel or host call: the abort flag is the first thing they read.
    Atomics.store(live.channel.header, Slot.ABORT, 1);
    // And once it has stopped, the worker leaves its loop (where terminate cannot end it: Deno); an idle one now.
    Atomics.store(live.channel.header, Slot.KILLED, 1);
    Atomics.notify(live.channel.header, Slot.STATE);
    const dying = live.handle.terminate().catch(() => undefined);
    this.#dying.add(dying);
    await dying;
    this.#dying.delete(dying);
  }

  #deliver(meta: ResponseMeta): void {
    tell(meta.said, this.options);
  }
}

/** What a worker that died said before dying, if anything. */
function reportedFailure(channel: Channel): PluginFailure | null {
  if (Atomics.load(channel.header, Slot.META_LEN) === 0) return null;
  try {
    return channel.read<ResponseMeta>().meta.failure ?? null;
  } catch {
    return null;
  }
}

/** The true label of a worker that died mid-call: its own report, or why the runtime says it died. */
function deathOf(live: Live, channel: Channel): PluginFailure {
  const reported = reportedFailure(channel);
  if (reported) return reported;
  const reason = live.death ?? 'unknown reason';
  // Node names a worker's heap overflow ERR_WORKER_OUT_OF_MEMORY.
  if (/out of memory/i.test(reason)) return failure('MEMORY_LIMIT', `the sandbox worker ran out of memory during the call: ${reason}`);
  return failure('TRAP', `the sandbox worker died during the call: ${reason}`);
}

/**
 * Wait, without blocking the event loop, until the state is no longer `value`
 * or `timeoutMs` passes; returns the state then. Each `waitAsync` is short
 * (WAKE_MS), so a notify the runtime lost costs one slice, and each slice that
 * ends with no change notifies the worker again, in case it was the worker's
 * wake-up that was lost (its idle wait has no timeout). A timer keeps Deno
 * and Bun alive meanwhile (their `waitAsync` alone does not).
 */
async function waitWhile(channel: Channel, value: number, timeoutMs: number): Promise<number> {
  const until = performance.now() + timeoutMs;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  try {
    for (let left = timeoutMs; channel.state === value && left > 0; left = until - performance.now()) {
      const wait = (Atomics as unknown as WaitAsync).waitAsync(channel.header, Slot.STATE, value, Math.min(left, WAKE_MS));
      if (!wait.async) break;
      keepAlive ??= setInterval(() => undefined, 1_000_000_000);
      if ((await wait.value) === 'timed-out') Atomics.notify(channel.header, Slot.STATE);
    }
  } finally {
    if (keepAlive !== undefined) clearInterval(keepAlive);
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
