/**
 * The imports a plugin gets beyond Extism's and the meter's: WASI (when
 * granted) and the embedder's host functions, plus starting an instance
 * whose entry points `redirectWasi` renamed. Kept apart from the engine so
 * the engine only wires them in.
 */
import type { CallContext } from '@extism/extism';
import { WasmhooksError } from '../errors.js';
import { checkUserImports, userImports, type HostFunctions } from './host-functions.js';
import { functionImports, HS_INIT_EXPORT, INITIALIZE_EXPORT, redirectWasi, renameEntryPoints, START_EXPORT, WASI_MODULE, WASI_REDIRECT } from './imports.js';
import { START_FUNCTION_EXPORT } from './instrument/index.js';
import type { Meter } from './meter.js';
import type { SandboxOptions } from './types.js';
import { resolveWasi, type WasiConfig } from './wasi/options.js';
import type { Wasi } from './wasi/preview1.js';

type Preview1 = typeof import('./wasi/preview1.js');
let preview1: Preview1 | undefined;

/**
 * Loads WASI's implementation (wasi/preview1.ts and the files, poll and stdio
 * code behind it), once per thread. `prepareGuest` does for a module that
 * imports WASI or is given it, and the worker before it builds an engine with
 * WASI: everyone else, a guard among them, never parses it.
 */
export async function loadWasi(): Promise<void> {
  preview1 ??= await import('./wasi/preview1.js');
}

/** WASI's implementation, which `loadWasi` loaded (a bug of ours if it did not). */
function wasiModule(): Preview1 {
  if (!preview1) throw new Error('WASI is used before loadWasi() loaded it');
  return preview1;
}

export interface GuestImportOptions {
  wasi?: WasiConfig | null;
  hostFunctions?: HostFunctions;
}

type Functions = Record<string, Record<string, (cc: CallContext, ...args: never[]) => unknown>>;

export class GuestImports {
  readonly wasi: Wasi | null;

  constructor(
    private readonly options: GuestImportOptions,
    private readonly meter: () => Meter | null,
    log: (level: 'info' | 'warn', line: string) => void,
    /** Before an embedder host function stores a block for the plugin (engine-imports.ts `blockMade`). */
    private readonly blockMade: () => void = () => {},
  ) {
    this.wasi = options.wasi ? new (wasiModule().Wasi)(options.wasi, { meter, log }) : null;
  }

  /** Extism `functions` entries for WASI and the host functions. */
  functions(): Functions {
    const out: Functions = {};
    if (this.wasi) {
      const wasi: Functions[string] = {};
      // Extism passes its call context first; WASI functions do not use it.
      for (const [name, fn] of Object.entries(this.wasi.imports())) wasi[name] = (_cc, ...args) => fn(...args);
      out[WASI_REDIRECT] = wasi;
    }
    const user = this.options.hostFunctions;
    if (user && Object.keys(user).length > 0) out['extism:host/user'] = userImports(user, this.meter, this.blockMade) as Functions[string];
    return out;
  }

  /**
   * A new instance: WASI gets its memory and fresh descriptors, then the
   * module's own initialisation runs, under the caller's meter like any
   * other code, which can read the instance's fuel global by now: its start
   * function (exported by the instrumenter, deferStart), then, with WASI,
   * `_initialize` and `hs_init` (wasi-libc constructors, a Haskell runtime),
   * without, the one entry point Extism would have run at instantiation
   * (`hs_init`, else `_initialize`, else `_start`; renamed, imports.ts).
   */
  start(instance: WebAssembly.Instance): void {
    if (this.wasi) {
      const memory = instance.exports.memory;
      this.wasi.attach(memory instanceof WebAssembly.Memory ? memory : null);
    }
    run(instance, START_FUNCTION_EXPORT);
    if (this.wasi) for (const name of [INITIALIZE_EXPORT, HS_INIT_EXPORT]) run(instance, name);
    else [HS_INIT_EXPORT, INITIALIZE_EXPORT, START_EXPORT].some((name) => run(instance, name));
  }

  /** End of a call: unfinished stdout/stderr lines are passed on. */
  flush(): void {
    this.wasi?.flush();
  }
}

/**
 * Checks what a module imports against what it is given, before anything
 * compiles it, and prepares its bytes: WASI imports redirected when WASI is
 * on. `options` are createSandbox's resolved ones (host functions already
 * checked). Throws `WasmhooksError`: LOAD_FAILED for an import that will not be
 * served (WASI off, a host function not given), INVALID_OPTIONS for options
 * that cannot work together.
 */
export async function prepareGuest(
  bytes: Uint8Array,
  options: { wasi: SandboxOptions['wasi']; hostFunctions: HostFunctions; isolation: 'in-thread' | 'worker' },
  name: string,
): Promise<{ bytes: Uint8Array; imports: GuestImportOptions }> {
  const { hostFunctions } = options;
  if (options.isolation === 'worker' && Object.keys(hostFunctions).length > 0) {
    throw new WasmhooksError(
      'INVALID_OPTIONS',
      `${name}: host functions run on the caller's thread and cannot be given to a plugin in worker isolation; use isolation "in-thread"`,
    );
  }
  const wasi = await resolveWasi(options.wasi, name);
  const imports = functionImports(bytes);
  const wasiImports = imports.filter((i) => i.module === WASI_MODULE).map((i) => i.name);
  if (wasiImports.length > 0 && !wasi) {
    throw new WasmhooksError(
      'LOAD_FAILED',
      `${name} imports WASI (${WASI_MODULE}: ${wasiImports.slice(0, 6).join(', ')}${wasiImports.length > 6 ? ', …' : ''}), which is off by default. Pass wasi: true to give it clocks, random bytes and stdout/stderr as logs (no files, args or env), or the object form to grant those.`,
    );
  }
  if (wasi || wasiImports.length > 0) await loadWasi();
  const unknown = wasiImports.filter((n) => !wasiModule().preview1Functions().has(n));
  if (unknown.length > 0) {
    throw new WasmhooksError('LOAD_FAILED', `${name} imports ${WASI_MODULE} functions that do not exist in WASI preview1: ${unknown.join(', ')}`);
  }
  checkUserImports(name, imports, hostFunctions);
  return { bytes: wasi ? redirectWasi(bytes) : renameEntryPoints(bytes), imports: { wasi, hostFunctions } };
}

/** Calls export `name` of `instance` if it is a function; whether it was. */
function run(instance: WebAssembly.Instance, name: string): boolean {
  const fn = instance.exports[name];
  if (typeof fn !== 'function') return false;
  (fn as () => void)();
  return true;
}
