import { readFile } from 'node:fs/promises';
import { instrument } from '../../host/sandbox/instrument/index.js';

type Wabt = Awaited<ReturnType<typeof import('wabt')>>;
let wabtPromise: Promise<Wabt> | undefined;

export const FEATURES = {
  simd: true,
  tail_call: true,
  bulk_memory: true,
  reference_types: true,
  multi_value: true,
  sat_float_to_int: true,
  sign_extension: true,
  mutable_globals: true,
  exceptions: true,
};

export function wabt(): Promise<Wabt> {
  wabtPromise ??= import('wabt').then((m) => m.default());
  return wabtPromise;
}

/** Assembles a WAT source (with debug names) into wasm bytes; `features` on top of `FEATURES` (multi-memory). */
export async function assemble(source: string, name = 'inline.wat', features: Record<string, boolean> = {}): Promise<Uint8Array<ArrayBuffer>> {
  const w = await wabt();
  const mod = w.parseWat(name, source, { ...FEATURES, ...features });
  try {
    mod.resolveNames();
    mod.validate();
    return new Uint8Array(mod.toBinary({ write_debug_names: true }).buffer);
  } finally {
    mod.destroy();
  }
}

/** Assembles `test/fixtures/wat/<name>.wat`. */
export async function fixture(name: string): Promise<Uint8Array<ArrayBuffer>> {
  const text = await readFile(new URL(`../fixtures/wat/${name}.wat`, import.meta.url), 'utf8');
  return assemble(text, `${name}.wat`);
}

/** A `refuel` import that hands out `slice` each time and counts calls; throws after `limit` calls. */
export function meter(slice: bigint, limit = Infinity) {
  const state = { calls: 0, handedOut: 0n };
  const refuel = (): bigint => {
    state.calls++;
    if (state.calls > limit) throw new Error('out of fuel');
    state.handedOut += slice;
    return slice;
  };
  // The gate of host calls and handlers (hostcalls.ts): never stops here, charges nothing extra.
  const gate = (): number => 0;
  return { state, imports: { 'wasmhooks:sandbox': { refuel, gate } } };
}

/** Instantiates original and instrumented modules side by side. */
export async function pair(wasm: Uint8Array<ArrayBuffer>, imports: WebAssembly.Imports = {}, maxMemoryPages = 256) {
  const result = instrument(wasm, { maxMemoryPages, allowExceptions: true });
  const fuel = meter(1_000_000_000n);
  const original = await WebAssembly.instantiate(wasm, imports);
  const instrumented = await WebAssembly.instantiate(result.bytes, { ...imports, ...fuel.imports });
  return { original: original.instance, instrumented: instrumented.instance, result, fuel: fuel.state };
}

/** Fuel burnt so far by an instance: slices handed out minus what is left in the global. */
export function fuelUsed(instance: WebAssembly.Instance, handedOut: bigint): bigint {
  const g = instance.exports.__wasmhooks_fuel as WebAssembly.Global;
  return handedOut - (g.value as bigint);
}
