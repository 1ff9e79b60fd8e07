/**
 * `createSandbox`: instrument a plugin's wasm once, compile it once, and run
 * its exports with a deadline, a fuel budget, a memory cap and an abort
 * signal, on the caller's thread or in our own worker.
 */
import { WasmhooksError, messageOf } from '../errors.js';
import { InThreadBackend, type Backend } from './backend.js';
import type { EngineOptions } from './engine.js';
import { rerouteDenied } from './denied.js';
import { SELF_CHECKED } from './engine-imports.js';
import { loadFailed } from './failures.js';
import { compileInstrumented } from './compiled.js';
import { HealthTracker } from './health.js';
import { prepareGuest } from './guest-imports.js';
import { INTERNAL_EXPORTS } from './imports.js';
import { validateLoad } from './off-thread.js';
import { Sandboxed } from './module.js';
import { resolveOptions } from './options.js';

export { HOST_MEMORY_SLACK_BYTES, hostMemoryBound } from './options.js';
import type { SandboxOptions, SandboxedModule } from './types.js';

/**
 * Load a plugin into a sandbox: instrument, compile and instantiate it (its
 * start function runs under the module's limits). Throws `WasmhooksError`:
 * `INVALID_OPTIONS`, `INVALID_WASM` for unusable options or bytes,
 * `LOAD_FAILED` when the first instance cannot be built (an unknown import, a
 * start function that traps or loops; the `PluginFailure` is the `cause`).
 * Everything that goes wrong later, including rebuilding an instance after a
 * failure, is a `CallOutcome` failure.
 *
 * @example
 * const sandbox = await createSandbox(bytes, { limits: { timeoutMs: 50 } });
 * const outcome = await sandbox.call('hook', input, { signal });
 * if (!outcome.ok) console.warn(outcome.failure.code, outcome.failure.message);
 */
export async function createSandbox(
  wasm: Uint8Array | ArrayBuffer,
  options: SandboxOptions = {},
): Promise<SandboxedModule> {
  // Every option is read here, once: nothing below reads `options` again.
  const resolved = resolveOptions(options);
  // A copy, taken before anything checks the bytes: the caller's buffer may change while this
  // awaits (a reused or shared buffer), and what is validated must be what is instrumented.
  return build(toBytes(wasm).slice(), resolved);
}

/**
 * `createSandbox` of bytes handed over (nobody else holds or changes them: `loadPlugin`'s own read, or its copy
 * of a caller's), with their `sha256` when it is known: the load neither copies them again nor hashes them a
 * second time for the compiled-module cache (a 30 MB module: ~30 ms and 30 MB for the copy, ~25 ms for the hash).
 */
export function createOwnedSandbox(bytes: Uint8Array, options: SandboxOptions, sha256?: string): Promise<SandboxedModule> {
  return build(bytes, resolveOptions(options), sha256);
}

async function build(owned: Uint8Array, resolved: ReturnType<typeof resolveOptions>, sha256?: string): Promise<SandboxedModule> {
  let instrumented: Uint8Array;
  let module: WebAssembly.Module;
  const { maxMemoryPages, maxTableElements } = resolved.limits;
  // deferStart: the start function runs after instantiation, under a meter that can read the fuel global (instance.ts).
  const plan = { maxMemoryPages, maxTableElements, allowExceptions: resolved.allowExceptions, selfChecked: SELF_CHECKED, deferStart: true };
  let guest: Awaited<ReturnType<typeof prepareGuest>>;
  let validated: Uint8Array;
  const job = { name: resolved.name, signal: resolved.signal };
  try {
    // An invalid module is refused before it is rewritten: rewriting could make it valid (an index one
    // past the module's own locals or functions is one of ours afterwards).
    // A large module is validated in a worker: WebAssembly.validate alone holds the thread about 1 ms per MB.
    validated = await validateLoad(owned, plan, job);
    guest = await prepareGuest(validated, resolved, resolved.name);
  } catch (error) {
    if (error instanceof WasmhooksError) throw error;
    throw new WasmhooksError('INVALID_WASM', `${resolved.name} is not a usable wasm module: ${messageOf(error)}`, { cause: error });
  }
  try {
    const bytes = rerouteDenied(guest.bytes);
    // The known digest is these bytes' only when nothing rewrote them (WASI, denied imports: a new array).
    const digest = bytes === validated ? sha256 : undefined;
    ({ instrumented, module } = await compileInstrumented(bytes, { ...plan, metering: resolved.metering }, job, digest));
  } catch (error) {
    if (error instanceof WasmhooksError) throw error;
    throw new WasmhooksError('INVALID_WASM', `${resolved.name} is not a usable wasm module: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const exports = WebAssembly.Module.exports(module)
    .filter((e) => e.kind === 'function' && !INTERNAL_EXPORTS.has(e.name))
    .map((e) => e.name);
  const engine: EngineOptions = { limits: resolved.limits, ...guest.imports };
  if (resolved.config) engine.config = resolved.config;
  // Progress and log lines go to the call that is running (Sandboxed.progress, .log): a call may
  // have its own (CallOptions). No progress reaches anyone before `sandboxed` exists (a start
  // function); log lines then go to the module's host.onLog.
  let sandboxed: Sandboxed | undefined;
  const moduleLog = resolved.host.onLog;
  engine.onLog = (level, message) => (sandboxed ? sandboxed.log(level, message) : moduleLog?.(level, message));
  engine.onProgress = (message) => sandboxed?.progress(message);
  let backend: Backend;
  if (resolved.isolation === 'worker') {
    // Loaded here: a process whose plugins all run in-thread never parses the worker side.
    const { WorkerBackend } = await import('./worker/host.js');
    backend = await WorkerBackend.start(instrumented, engine, resolved.name);
  } else {
    const inThread = new InThreadBackend(module, engine);
    const failed = await inThread.prepare(resolved.limits.timeoutMs, resolved.limits.fuel);
    if (failed) throw loadFailed(resolved.name, failed);
    backend = inThread;
  }
  const tracker = new HealthTracker(resolved.quarantine);
  if (resolved.onHealth) tracker.subscribe(resolved.onHealth);
  sandboxed = new Sandboxed(exports, resolved.limits, backend, tracker, resolved.name, resolved.host.onProgress, moduleLog);
  return sandboxed;
}

function toBytes(wasm: unknown): Uint8Array {
  if (wasm instanceof Uint8Array) return wasm;
  if (wasm instanceof ArrayBuffer) return new Uint8Array(wasm);
  if (wasm instanceof WebAssembly.Module) {
    throw new WasmhooksError(
      'INVALID_OPTIONS',
      'createSandbox needs the wasm bytes, not a compiled WebAssembly.Module: the bytes are instrumented before compiling',
    );
  }
  throw new WasmhooksError('INVALID_OPTIONS', 'createSandbox needs the wasm bytes (a Uint8Array or an ArrayBuffer)');
}
