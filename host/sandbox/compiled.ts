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
 *
 * One exception to "in memory only", for the package's own plugins: the
 * build instruments each first-party plugin with the options `loadPlugin`
 * uses by default and ships the result beside it (plugins/prebuilt.json,
 * scripts/preinstrument.ts), which spares a cold start the instrumenter
 * (20–35 ms of CPU before the JIT warms up). Those files are exactly as
 * trusted as the package's own code, which sits in the same folder; a
 * user-writable cache folder would not be. They are registered under the same
 * key (sha256 of the input bytes plus every option), so they are used only for
 * those exact bytes and options, and a file that does not match the sha256
 * the package recorded for it is ignored (the plugin is instrumented here).
 * test/plugins/prebuilt.test.ts checks that each shipped file is what the
 * instrumenter makes of its plugin today.
 */
import { sha256 } from './digest.js';
import type { InstrumentOptions } from './instrument/index.js';
import { abortedLoad } from './job-queue.js';
import { instrumentLoad, type JobOptions } from './off-thread.js';

export interface Compiled {
  /** The instrumented bytes (what a worker compiles again on its side). */
  instrumented: Uint8Array;
  module: WebAssembly.Module;
}

/** Entries kept (least recently used dropped first): a bound on the code held for plugins no longer loaded. */
export const COMPILED_CACHE_ENTRIES = 32;
/**
 * Instrumented bytes kept, over all entries (least recently used dropped
 * first): 64 MiB. The compiled code held beside them is of the same order
 * (a few times the wasm size), so a process that loads many large modules
 * once holds a bounded amount of code, not 32 of its largest modules. A
 * module larger than this alone is compiled and used, but not kept.
 */
export const COMPILED_CACHE_BYTES = 64 * 1024 * 1024;

interface Slot {
  compiled: Promise<Compiled>;
  /** Loads awaiting it; when every one of them is aborted, so is the work (its worker terminated). */
  waiters: number;
  stop: AbortController;
  /** The instrumented size, once compiled (0 while compiling). */
  bytes: number;
}

const cache = new Map<string, Slot>();
/** The sum of the kept entries' `bytes`. */
let held = 0;

/** Reads shipped instrumented bytes; `undefined` when they are missing or not the recorded ones. */
export type PrebuiltReader = () => Promise<Uint8Array | undefined>;

const prebuilt = new Map<string, PrebuiltReader>();

/**
 * Registers the package's pre-instrumented bytes for one cache key (plugins/first-party.ts, from
 * the package's plugins/prebuilt.json). Not public API: only the package's own files may be registered.
 */
export function registerPrebuilt(key: string, read: PrebuiltReader): void {
  prebuilt.set(key, read);
}

/** The key `compileInstrumented` files these bytes and options under. */
async function compiledKey(bytes: Uint8Array, plan: Required<InstrumentOptions>, digest?: string): Promise<string> {
  // Every option, by name: one added to InstrumentOptions later is in the key without anyone remembering it here.
  const options = Object.entries(plan).sort(([a], [b]) => (a < b ? -1 : 1));
  return `${digest ?? (await sha256(bytes))}:${JSON.stringify(options)}`;
}

/**
 * `instrument` + `WebAssembly.compile`, or the result of an earlier identical call. Takes `bytes`
 * over (a large module's are moved to the worker that instruments them). Throws what they
 * throw (never cached). A large module is instrumented in a worker (off-thread.ts); `options.signal`
 * gives up this load, and the work with it once no other load awaits it.
 */
export async function compileInstrumented(
  bytes: Uint8Array,
  plan: Required<InstrumentOptions>,
  options: JobOptions = { name: 'module' },
  /** The sha256 of `bytes` when the caller has it (a plugin's pin was checked on them): not computed again. */
  digest?: string,
): Promise<Compiled> {
  const key = await compiledKey(bytes, plan, digest);
  let slot = cache.get(key);
  if (slot) {
    // Most recently used last.
    cache.delete(key);
    cache.set(key, slot);
  } else {
    const stop = new AbortController();
    const compiling = (async () => {
      const instrumented =
        (await prebuilt.get(key)?.()) ?? (await instrumentLoad(bytes, plan, { ...options, signal: stop.signal }));
      return { instrumented, module: await WebAssembly.compile(instrumented as Uint8Array<ArrayBuffer>) };
    })();
    const fresh: Slot = { compiled: compiling, bytes: 0, waiters: 0, stop };
    slot = fresh;
    cache.set(key, fresh);
    evict();
    compiling.then(
      ({ instrumented }) => {
        // Only while still kept: an entry pushed out while it compiled is not counted.
        if (cache.get(key) !== fresh) return;
        // Larger than the whole bound: not kept, and the others stay.
        if (instrumented.byteLength > COMPILED_CACHE_BYTES) return drop(key, fresh);
        fresh.bytes = instrumented.byteLength;
        held += fresh.bytes;
        evict();
      },
      () => drop(key, fresh),
    );
  }
  return awaitSlot(slot, options);
}

/** Awaits `slot` for one load; its abort rejects this load alone, and stops the work when no other load awaits it. */
async function awaitSlot(slot: Slot, options: JobOptions): Promise<Compiled> {
  const { signal } = options;
  if (signal?.aborted) throw abortedLoad(options.name);
  // Every waiter counts, with a signal or not: one that cannot be aborted keeps the work going.
  slot.waiters++;
  let gone = false;
  const leave = (): void => {
    if (gone) return;
    gone = true;
    if (--slot.waiters === 0 && signal?.aborted) slot.stop.abort();
  };
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      leave();
      reject(abortedLoad(options.name));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([slot.compiled, aborted]);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    leave();
  }
}

/** Drops least recently used entries until both bounds hold. */
function evict(): void {
  while (cache.size > COMPILED_CACHE_ENTRIES || held > COMPILED_CACHE_BYTES) {
    const [key, slot] = cache.entries().next().value as [string, Slot];
    drop(key, slot);
  }
}

function drop(key: string, slot: Slot): void {
  if (cache.get(key) !== slot) return;
  cache.delete(key);
  held -= slot.bytes;
}

/** Drops every cached module (tests; an embedder that wants the memory back). */
export function clearCompiledCache(): void {
  cache.clear();
  held = 0;
}

/** The cached instrumented bytes by key (scripts/preinstrument.ts writes them out; tests). */
export async function compiledEntries(): Promise<[string, Uint8Array][]> {
  return Promise.all([...cache].map(async ([key, slot]) => [key, (await slot.compiled).instrumented] as [string, Uint8Array]));
}

/** Forgets every registered pre-instrumented file (scripts/preinstrument.ts, tests). */
export function clearPrebuilt(): void {
  prebuilt.clear();
}
