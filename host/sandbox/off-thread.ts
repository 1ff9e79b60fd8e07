/**
 * Runs a load job (instrument-job.ts) without holding the caller's event loop
 * for long: a module of `OFF_THREAD_BYTES` or more is validated and
 * instrumented in a worker of its own (the instrumenter is synchronous, about
 * 30–65 ms per MB: a 57 MB module held the thread 1.8 s, freezing every SSE
 * stream and session of `wasmhooks serve`). A smaller one runs inline, since
 * starting a worker costs tens of milliseconds. The worker is the sandbox's
 * own worker infrastructure (worker/thread.ts picks the runtime's adapter).
 */
import { WasmhooksError } from '../errors.js';
import { runJob, type InstrumentJob, type JobAnswer } from './instrument-job.js';
import type { InstrumentOptions } from './instrument/index.js';
import { abortedLoad, loadJobs, type LoadJobQueue } from './job-queue.js';
import { loadAdapter, workerUrl, type WorkerHandle } from './worker/thread.js';

/** Modules from this size on are validated and instrumented in a worker (512 KiB: about 15–35 ms inline). */
export const OFF_THREAD_BYTES = 512 * 1024;

export interface JobOptions {
  /** The module's name, for errors. */
  name: string;
  /** Ends the job: the worker is terminated, and the load fails with LOAD_FAILED. */
  signal?: AbortSignal | undefined;
  /** The size from which the job runs in a worker (tests). Default `OFF_THREAD_BYTES`. */
  offThreadBytes?: number;
  /** Where a worker job waits its turn (tests). Default: the process's `loadJobs` (job-queue.ts). */
  queue?: LoadJobQueue;
}

/**
 * Validates `bytes` (INVALID_WASM under `options.name`), inline or in a worker by their size. Takes
 * the bytes over (a worker's are moved to it, not copied): use the ones it returns, the same content.
 */
export async function validateLoad(bytes: Uint8Array, plan: InstrumentOptions, options: JobOptions): Promise<Uint8Array> {
  return runLoadJob({ bytes, plan, validateAs: options.name, instrument: false }, options);
}

/**
 * The instrumented `bytes`, inline or in a worker by their size; validated first (INVALID_WASM)
 * when `validate` is set. The same bytes and the same errors either way. Takes `bytes` over (moved
 * to a worker, not copied).
 */
export async function instrumentLoad(
  bytes: Uint8Array,
  plan: InstrumentOptions,
  options: JobOptions & { validate?: boolean },
): Promise<Uint8Array<ArrayBuffer>> {
  const job: InstrumentJob = { bytes, plan, instrument: true, ...(options.validate ? { validateAs: options.name } : {}) };
  return (await runLoadJob(job, options)) as Uint8Array<ArrayBuffer>;
}

/**
 * `instrument(wasm, options).bytes` without holding the caller's thread for
 * long: a module of 512 KiB or more is instrumented in a worker (the same
 * bytes, the same errors). `signal` ends it (LOAD_FAILED), worker and all.
 *
 * @example
 * const bytes = await instrumentOffThread(wasm, { maxMemoryPages: 256 }, { signal });
 */
export function instrumentOffThread(
  wasm: Uint8Array,
  options: InstrumentOptions,
  load: { name?: string; signal?: AbortSignal } = {},
): Promise<Uint8Array<ArrayBuffer>> {
  // A copy: the caller's buffer may change while the worker reads its own.
  return instrumentLoad(wasm.slice(), options, { name: load.name ?? 'module', signal: load.signal });
}

/** Runs `job` inline or, in its turn (job-queue.ts), in a worker by its size. */
async function runLoadJob(job: InstrumentJob, options: JobOptions): Promise<Uint8Array> {
  if (options.signal?.aborted) throw abortedLoad(options.name);
  if (job.bytes.byteLength < (options.offThreadBytes ?? OFF_THREAD_BYTES)) return runJob(job);
  return (options.queue ?? loadJobs).run(options.name, job.bytes.byteLength, options.signal, () => inWorker(job, options));
}

async function inWorker(job: InstrumentJob, options: JobOptions): Promise<Uint8Array> {
  if (options.signal?.aborted) throw abortedLoad(options.name);
  const adapter = await loadAdapter();
  const bytes = movable(job.bytes);
  return new Promise((resolve, reject) => {
    let handle: WorkerHandle | undefined;
    let settled = false;
    const finish = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      void handle?.terminate().catch(() => undefined);
      settle();
    };
    const onAbort = (): void => finish(() => reject(abortedLoad(options.name)));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    adapter
      .spawn(workerUrl('instrument-worker'), { ...job, bytes }, {
        holdsProcess: true,
        // Moved, not copied: a structured copy of 30 MB held the thread 50–150 ms.
        transfer: [bytes.buffer as ArrayBuffer],
        onDeath: (reason) =>
          finish(() => reject(new WasmhooksError('LOAD_FAILED', `${options.name}: the worker instrumenting it died: ${reason}`))),
        onMessage: (message) => finish(() => settleAnswer(message as JobAnswer, resolve, reject)),
      })
      .then(
        (spawned) => {
          handle = spawned;
          // Aborted or answered while it was being spawned.
          if (settled) void spawned.terminate().catch(() => undefined);
        },
        (error: unknown) =>
          finish(() => reject(new WasmhooksError('LOAD_FAILED', `${options.name}: no worker to instrument it could be started: ${String(error)}`))),
      );
  });
}

/** `bytes` if they alone own a plain ArrayBuffer (which may then be moved); else a copy that does. */
function movable(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && !(bytes.buffer instanceof SharedArrayBuffer);
  return whole ? bytes : bytes.slice();
}

function settleAnswer(answer: JobAnswer, resolve: (bytes: Uint8Array) => void, reject: (error: Error) => void): void {
  if (answer.ok) return resolve(answer.bytes);
  // The same error the inline path throws: a WasmhooksError with its code, or a plain one the caller wraps.
  reject(answer.code ? new WasmhooksError(answer.code, answer.message) : new Error(answer.message));
}
