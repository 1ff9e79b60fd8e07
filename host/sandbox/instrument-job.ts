/**
 * The load's CPU-heavy step, validation and instrumentation of the bytes, as
 * one job that runs the same on either thread: inline for a small module, in
 * a worker for a large one (off-thread.ts). Both paths run this code, so a
 * refusal is the same error with the same message wherever it ran.
 */
import { WasmhooksError, messageOf } from '../errors.js';
import { instrument, type InstrumentOptions } from './instrument/index.js';
import { typedRefsRefusal } from './typed-refs.js';

export interface InstrumentJob {
  bytes: Uint8Array;
  plan: InstrumentOptions;
  /** Validate the bytes first and refuse them as INVALID_WASM under this name. */
  validateAs?: string;
  /** Instrument the bytes (false: validate only). */
  instrument: boolean;
}

/** What the instrumenting worker sends back: exactly one of these. */
export type JobAnswer =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; code: WasmhooksError['code'] | undefined; message: string };

/**
 * Runs `job`: the instrumented bytes, or for a validation alone the bytes it was given (which a worker
 * hands back, moved rather than copied). Throws INVALID_WASM (or what the instrumenter throws).
 */
export function runJob(job: InstrumentJob): Uint8Array {
  const { bytes, plan } = job;
  if (job.validateAs !== undefined && !WebAssembly.validate(bytes as Uint8Array<ArrayBuffer>)) refuseInvalid(job.validateAs, bytes, plan);
  return job.instrument ? instrument(bytes, plan).bytes : bytes;
}

/**
 * Throws INVALID_WASM for bytes the engine does not validate (with this
 * runtime's features): the instrumenter's own message if it finds the
 * problem (it names the function and byte offset), else the engine's.
 * An invalid module is refused before it is rewritten: rewriting could make
 * it valid (an index one past the module's own locals or functions is one of
 * ours afterwards).
 */
function refuseInvalid(name: string, bytes: Uint8Array, plan: InstrumentOptions): never {
  instrument(bytes, plan);
  let detail = 'the engine refused it';
  try {
    new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
  } catch (error) {
    detail = messageOf(error);
  }
  // Node 20's engine names a typed reference it lacks as something else (typed-refs.ts): said plainly first.
  const typed = typedRefsRefusal(bytes, detail);
  if (typed) detail = `${typed}. The engine said: ${detail}`;
  throw new WasmhooksError('INVALID_WASM', `${name} is not a valid wasm module on this runtime: ${detail}`);
}
