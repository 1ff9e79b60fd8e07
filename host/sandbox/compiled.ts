/**
 * Instrument and compile, once per (bytes, plan) in a process. Loading the
 * same plugin again (another host, a session per request, a reload) reuses
 * the instrumented bytes and the compiled `WebAssembly.Module`; every load
 * still builds its own instance, so nothing but immutable code is shared.
 *
 * Kept in memory only: a copy on disk could be swapped by whoever can write
 * there, and an uninstrumented module would run without fuel or memory cap.
 * The key is the sha256 of the exact bytes handed to the instrumenter with
 * every option that changes its output, so a hit is byte for byte the module
 * a miss would compile.
 */
import { sha256 } from './digest.js';
import { instrument, type InstrumentOptions } from './instrument/index.js';

export interface Compiled {
  /** The instrumented bytes (what a worker compiles again on its side). */
  instrumented: Uint8Array;
  module: WebAssembly.Module;
}

/** Entries kept (least recently used dropped first): a bound on the code held for plugins no longer loaded. */
export const COMPILED_CACHE_ENTRIES = 32;

const cache = new Map<string, Promise<Compiled>>();

/** `instrument` + `WebAssembly.compile`, or the result of an earlier identical call. Throws what they throw (never cached). */
export async function compileInstrumented(bytes: Uint8Array, plan: Required<InstrumentOptions>): Promise<Compiled> {
  // Every option in the key, listed by none: one added to InstrumentOptions cannot be left out of it.
  const key = `${await sha256(bytes)}:${JSON.stringify(plan)}`;
  const hit = cache.get(key);
  if (hit) {
    // Most recently used last.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const compiling = (async () => {
    const instrumented = instrument(bytes, plan).bytes;
    return { instrumented, module: await WebAssembly.compile(instrumented as Uint8Array<ArrayBuffer>) };
  })();
  cache.set(key, compiling);
  compiling.catch(() => cache.delete(key));
  while (cache.size > COMPILED_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return compiling;
}

/** Drops every cached module (tests; an embedder that wants the memory back). */
export function clearCompiledCache(): void {
  cache.clear();
}
