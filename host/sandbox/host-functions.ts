/**
 * Embedder host functions: named, typed, synchronous functions the
 * application gives a plugin (Extism's `extism:host/user` namespace). Each
 * call is charged and checked on entry by its import wrapper (host-call.ts),
 * pays for the bytes it reads and stores, and checks the deadline and the
 * abort flag on return, so a host function cannot become a way around the limits; a
 * plugin that imports one it was not given is refused at load.
 */
import type { CallContext } from '@extism/extism';
import { WasmhooksError } from '../errors.js';
import { HostRefusal, isStackOverflow } from './failures.js';
import { isAsyncFunction } from './extism.js';
import { copyToBlock } from './blocks.js';
import { bytesFuel, charge, checkDeadline } from './host-call.js';
import type { FunctionImport, ValType } from './imports.js';
import type { Meter } from './meter.js';

/** The namespace Extism's PDKs import host functions from. */
export const USER_MODULE = 'extism:host/user';

export type HostValueType = 'i32' | 'i64' | 'f32' | 'f64';
/** i64 values are bigint (Extism memory offsets are i64); the others are number. */
export type HostValue = number | bigint;

/** What a host function can do with the plugin's Extism memory. */
export interface HostCallContext {
  /** The bytes of the Extism memory block at `offset` (a copy), or null for no block. */
  readBytes(offset: bigint): Uint8Array | null;
  /** The UTF-8 text of the block at `offset`, or null. */
  readText(offset: bigint): string | null;
  /** Stores `value` in a new block and returns its offset, to hand back to the plugin. */
  store(value: string | Uint8Array): bigint;
}

/**
 * One host function.
 *
 * @example
 * const lookup: HostFunction = {
 *   params: ['i64'], results: ['i64'],
 *   fn: (ctx, offset) => ctx.store(users.get(ctx.readText(offset as bigint) ?? '') ?? ''),
 * };
 */
export interface HostFunction {
  /** The wasm parameter types the plugin must import it with (checked at load). */
  params: HostValueType[];
  /** At most one result type. */
  results: HostValueType[];
  /**
   * Runs on the plugin's call, on the caller's thread, on the plugin's own
   * stack. Contract: synchronous, quick and shallow (a plugin may call it
   * from deep recursion: out of stack, the call fails as STACK_OVERFLOW
   * naming it); a throw stops the plugin's call (a TRAP failure naming it).
   * Called as a plain function (`this` is undefined): bind it, or close over
   * its state, if it needs an object.
   */
  fn: (ctx: HostCallContext, ...args: HostValue[]) => HostValue | void;
}

export type HostFunctions = Record<string, HostFunction>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const sameTypes = (a: readonly ValType[], b: readonly ValType[]) => a.length === b.length && a.every((t, i) => t === b[i]);
const signature = (params: readonly string[], results: readonly string[]) => `(${params.join(', ')}) -> (${results.join(', ')})`;

/**
 * Checks a module's `extism:host/user` imports against what it was given:
 * every one present, with the declared signature. Throws LOAD_FAILED.
 */
export function checkUserImports(name: string, imports: readonly FunctionImport[], given: HostFunctions): void {
  for (const i of imports) {
    if (i.module !== USER_MODULE) continue;
    const fn = Object.hasOwn(given, i.name) ? given[i.name] : undefined;
    if (!fn) {
      const offered = Object.keys(given);
      throw new WasmhooksError(
        'LOAD_FAILED',
        `${name} imports the host function "${i.name}" (${USER_MODULE}), which it was not given (given: ${offered.join(', ') || 'none'}). Pass it in hostFunctions (and grants.hostFunctions for a plugin) if you trust the plugin with it.`,
      );
    }
    if (!sameTypes(i.params, fn.params) || !sameTypes(i.results, fn.results)) {
      throw new WasmhooksError(
        'LOAD_FAILED',
        `${name} imports the host function "${i.name}" as ${signature(i.params, i.results)}, but it is ${signature(fn.params, fn.results)}`,
      );
    }
  }
}

/**
 * Validates host function definitions at the edge. Throws INVALID_OPTIONS.
 * Gives a frozen copy, each field read once: what is checked (the signature,
 * a synchronous `fn`) is what runs, whatever a getter answers later.
 */
export function validateHostFunctions(given: unknown): HostFunctions {
  if (given === undefined) return {};
  const bad = (why: string): never => {
    throw new WasmhooksError('INVALID_OPTIONS', `invalid hostFunctions: ${why}`);
  };
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return bad('expected an object of name → { params, results, fn }');
  const types = new Set(['i32', 'i64', 'f32', 'f64']);
  const out: HostFunctions = Object.create(null) as HostFunctions;
  const valueTypes = (v: unknown): HostValueType[] | undefined =>
    Array.isArray(v) ? Array.from(v as unknown[], (t) => (types.has(t as string) ? (t as HostValueType) : bad(`"${String(t)}" is not a wasm value type`))) : undefined;
  for (const [key, value] of Object.entries(given as Record<string, unknown>)) {
    if (!key) bad('a function name must not be empty');
    if (typeof value !== 'object' || value === null) return bad(`${key}: expected { params, results, fn } with fn a function`);
    const { params: rawParams, results: rawResults, fn } = value as Record<keyof HostFunction, unknown>;
    if (typeof fn !== 'function') bad(`${key}: expected { params, results, fn } with fn a function`);
    const params = valueTypes(rawParams) ?? bad(`${key}: params must be an array of "i32", "i64", "f32", "f64"`);
    const results = valueTypes(rawResults);
    if (!results || results.length > 1) bad(`${key}: results must be [] or one of "i32", "i64", "f32", "f64"`);
    if (isAsyncFunction(fn as HostFunction['fn'])) bad(`${key}: host functions are synchronous (got an async function)`);
    out[key] = Object.freeze({ params: Object.freeze(params), results: Object.freeze(results!), fn: fn as HostFunction['fn'] }) as HostFunction;
  }
  return Object.freeze(out);
}

/** The Extism `functions` entries for the given host functions, metered. */
export function userImports(
  given: HostFunctions,
  meter: () => Meter | null,
  blockMade: () => void,
): Record<string, (cc: CallContext, ...args: HostValue[]) => HostValue | void> {
  const out: Record<string, (cc: CallContext, ...args: HostValue[]) => HostValue | void> = {};
  for (const [name, spec] of Object.entries(given)) {
    // Called as a plain function: as a method of `spec` its `this` was our frozen copy, not the
    // embedder's object (a `fn` that kept state on `this` threw at its first write, as a TRAP).
    const fn = spec.fn;
    out[name] = (cc, ...args) => {
      // The call was charged and checked by its import wrapper; what it reads and stores is charged here.
      const ctx = contextOf(cc, meter, blockMade);
      let result: HostValue | void;
      try {
        result = fn(ctx, ...args);
      } catch (error) {
        throw isStackOverflow(error) ? outOfStack(name, error as RangeError) : error;
      }
      checkDeadline(meter());
      return checked(name, spec, result);
    };
  }
  return out;
}

/**
 * A host function runs on the plugin's own stack (in-thread, wasm and JS share one): a plugin that
 * calls it from deep recursion leaves it what is left. Said so, naming it, rather than as the plugin's
 * own overflow; the call fails closed either way (STACK_OVERFLOW).
 */
function outOfStack(name: string, error: RangeError): HostRefusal {
  return new HostRefusal(
    'STACK_OVERFLOW',
    `the host function "${name}" ran out of stack (${error.message}): it runs on the plugin's stack, which the plugin may have used up (recursing before the call); keep host functions shallow`,
  );
}

function contextOf(cc: CallContext, meter: () => Meter | null, blockMade: () => void): HostCallContext {
  const bytesOf = (offset: bigint): Uint8Array | null => {
    const block = cc.read(offset);
    if (!block) return null;
    const view = block.bytes();
    // Charged before the copy: a call out of fuel stops without copying the block first.
    charge(meter(), bytesFuel(view.length));
    return new Uint8Array(view);
  };
  return {
    readBytes: bytesOf,
    readText: (offset) => {
      const bytes = bytesOf(offset);
      return bytes && decoder.decode(bytes);
    },
    store: (value) => {
      const size = typeof value === 'string' ? value.length * 3 : value.byteLength;
      charge(meter(), bytesFuel(size));
      // Counted with the call's other blocks: Extism's alloc scans them all, so a loop of empty stores
      // cost the host n²/2 block visits at a flat 1,000 fuel a call (only the deadline stopped it).
      blockMade();
      // A new block, under the memory cap. Not `cc.store`: Extism takes a Uint8Array that spans its
      // whole buffer as the block itself, uncapped, and the plugin may write every block: it would
      // rewrite the application's bytes (a cached table), and what later calls of any plugin get.
      const bytes = typeof value === 'string' ? encoder.encode(value) : value;
      const address = copyToBlock(cc, bytes);
      if (address === 0n) {
        throw new HostRefusal('MEMORY_LIMIT', `a host function stored ${bytes.byteLength} bytes for the plugin, beyond its memory cap (maxMemoryPages)`);
      }
      return address;
    },
  };
}

function checked(name: string, spec: HostFunction, result: HostValue | void): HostValue | void {
  const type = spec.results[0];
  const ok =
    type === undefined
      ? result === undefined
      : type === 'i64'
        ? typeof result === 'bigint'
        : typeof result === 'number';
  if (!ok) {
    throw new TypeError(`host function "${name}" returned ${typeof result}, but its result type is ${type ?? 'none'}`);
  }
  return result;
}
