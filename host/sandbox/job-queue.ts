/**
 * How many large loads run off-thread at once (off-thread.ts). Each holds a
 * worker (an isolate of its own) and several copies of its module; without a
 * bound, 8 concurrent loads of 30 MB modules took 1.7 GB RSS and held the event
 * loop up to 3 s on a 2-core machine (review red22), and N more would take N
 * times more. At most `LOAD_JOBS` run, holding at most `LOAD_JOB_BYTES` of
 * modules together (one larger than that runs alone); the rest wait in order.
 * A waiting load whose signal aborts leaves the line (LOAD_FAILED, cause
 * ABORTED, or busy as below when the signal's reason is a `TimeoutError`: the
 * caller's deadline ran out in the line); one that waits `LOAD_WAIT_MS` gives up (LOAD_FAILED, cause
 * TIMEOUT, the host is busy: `POST /plugins` answers 503, retry later).
 */
import { WasmhooksError } from '../errors.js';
import type { PluginFailure } from '../failure.js';
import { Turns } from '../turns.js';

/** Off-thread load jobs at once. */
export const LOAD_JOBS = 2;
/** Bytes of modules the running jobs may hold together. */
const LOAD_JOB_BYTES = 256 << 20;
/** The longest a load waits for its turn. */
const LOAD_WAIT_MS = 60_000;
/** Loads waiting at once; past them a load is refused as busy at once. */
const LOAD_JOBS_WAITING = 64;

/** The `cause` of a load refused because the host is busy (a TIMEOUT that is the host's, not the plugin's). */
interface BusyFailure extends PluginFailure {
  code: 'TIMEOUT';
  hostBusy: true;
}

/** A load that could not get its turn: LOAD_FAILED, its cause a `BusyFailure`. */
export function isHostBusy(error: unknown): boolean {
  return error instanceof WasmhooksError && (error.cause as Partial<BusyFailure> | undefined)?.hostBusy === true;
}

/** The error of a load given up by its signal (waiting for its turn, or running): cause ABORTED. */
export function abortedLoad(name: string, when = 'while it was validated and instrumented'): WasmhooksError {
  const message = `${name}: the load was aborted ${when}`;
  return new WasmhooksError('LOAD_FAILED', message, { cause: { code: 'ABORTED', message } satisfies PluginFailure });
}

function busy(message: string): WasmhooksError {
  return new WasmhooksError('LOAD_FAILED', message, { cause: { code: 'TIMEOUT', message, hostBusy: true } satisfies BusyFailure });
}

export class LoadJobQueue {
  readonly #turns: Turns;

  constructor(
    readonly jobs = LOAD_JOBS,
    readonly maxBytes = LOAD_JOB_BYTES,
    readonly waitMs = LOAD_WAIT_MS,
    waiting = LOAD_JOBS_WAITING,
  ) {
    const full = () => busy(`the host is busy: ${jobs} large plugin loads are running and ${waiting} are waiting; retry later`);
    this.#turns = new Turns(jobs, waiting, full, maxBytes);
  }

  /** Jobs running now. */
  get active(): number {
    return this.#turns.active;
  }

  /** Runs `work` (the load of `bytes` of module `name`) in its turn. */
  async run<T>(name: string, bytes: number, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    const waited = new AbortController();
    const timer = setTimeout(() => waited.abort(), this.waitMs);
    let release: () => void;
    try {
      release = await this.#turns.take(signal ? AbortSignal.any([signal, waited.signal]) : waited.signal, bytes);
    } catch (error) {
      if (signal?.aborted) {
        // The caller's own deadline (a `TimeoutError` reason, as `AbortSignal.timeout` gives and `POST /plugins`'s slot
        // timer sets) ran out while others held the turns: the host was busy, not the plugin or its client.
        const reason: unknown = signal.reason;
        if (reason instanceof Error && reason.name === 'TimeoutError') {
          throw busy(`${name}: the host is busy: its deadline ran out while it waited for its turn to load (${reason.message}); retry later`);
        }
        throw abortedLoad(name, 'while it waited for its turn to load');
      }
      if (!waited.signal.aborted) throw busy(`${name}: ${(error as Error).message}`);
      const held = Math.round(this.#turns.weight / 2 ** 20);
      throw busy(`${name}: the host is busy: it waited ${this.waitMs} ms while ${this.jobs} large plugin loads held ${held} MiB of modules; retry later`);
    } finally {
      clearTimeout(timer);
    }
    try {
      return await work();
    } finally {
      release();
    }
  }
}

/** The process's queue, shared by every load. */
export const loadJobs = new LoadJobQueue();
