/**
 * The host functions the engine hands a plugin in place of, or besides,
 * Extism's own: the meter's `wasmhooks:sandbox` imports, `alloc` with the
 * memory cap, the variable store, `config_get`, `log_*` and progress (with
 * their caps, plugin-messages.ts), refusals for what the sandbox never grants, and (passed in) WASI
 * and the embedder's functions. Every one of them goes through `final`, which makes a stop final: after the
 * first StopSignal, HostRefusal or other error of a call (a plugin's own exit aside), each throws it again, so
 * a plugin that catches the stop (wasm exception handling) cannot call its
 * way back to doing work that matters.
 */
import type { CallContext, ExtismPluginOptions } from '@extism/extism';
import { DENIED_MODULE, NETWORK_IMPORTS } from './denied.js';
import { isAsyncFunction } from './extism.js';
import { HostRefusal } from './failures.js';
import { copyToBlock, newBlock } from './blocks.js';
import { bytesFuel, freeBlock } from './host-call.js';
import { REFUEL_MODULE, StopSignal, type Meter } from './meter.js';
import type { VarStore } from './vars.js';
import { LOG_LEVELS, log, progress, type HostFunction, type MessageScope } from './plugin-messages.js';

const PAGE = 65_536;
const encoder = new TextEncoder();
const U64 = 64;

/**
 * Our host functions that make the gate's checks themselves (`scope.check`)
 * before any work, so the instrumenter gives them no gate call of their own
 * (InstrumentOptions.selfChecked): `alloc`, on every WASM hook's path.
 */
export const SELF_CHECKED: Readonly<Record<string, readonly string[]>> = Object.freeze({ 'extism:host/env': Object.freeze(['alloc']) });

/**
 * The self-checked functions read the clock on every this-many-th call of a
 * call (the stop and the abort flag: every time). The time between reads is
 * bounded: at most 7 `alloc`s, each at most a zero-filled block under the
 * memory cap plus Extism's scan of the call's blocks (whose count the 1000
 * fuel an alloc costs bounds), run past the deadline before one reads it; and
 * every refuel reads it too. The first alloc of a call, on every WASM hook's
 * path, reads none: the call read the clock when it started.
 */
export const SELF_CHECK_CLOCK_EVERY = 8;

/** What the host functions need from the engine's current call. */
export interface ImportScope extends MessageScope {
  /**
   * The gate's checks (the call's stop, abort, deadline), for the functions
   * in SELF_CHECKED: throws a StopSignal, or returns.
   */
  readonly check: () => void;
  /** Charges fuel to the running call (host-call.ts `charge`): throws its stop when the budget cannot cover it. */
  readonly charge: (units: number) => void;
  /** Blocks the host made for the plugin in the current call (`alloc`, `var_get`, `config_get`): see `blockMade`. */
  blocks: number;
  readonly vars: VarStore;
  /** The granted config keys and their values. */
  readonly config: Readonly<Record<string, string>>;
  /** The call's first stop, once there is one. */
  stop: Error | null;
}


/** A call starts with a clean scope: no stop, no progress, no blocks, no log lines yet, nothing said. */
export function beginCall(scope: ImportScope): void {
  scope.stop = null;
  scope.progressBytes = 0;
  scope.progressMessages = 0;
  scope.blocks = 0;
  // Delivered at the end of each call (plugin-messages.ts): anything left is no call's to hear.
  scope.said.length = 0;
  const log = scope.log;
  log.lines = 0;
  log.bytes = 0;
  log.dropped = 0;
}

/**
 * The call's stop: the first one a host function raised (every meter import
 * goes through `hostImports`' wrapper, which records it), a stop the meter
 * kept itself (`stopped`, where meter.ts records its sticky stop), or an
 * abort seen after the plugin returned.
 */
export function callStop(scope: ImportScope, meter: Meter): Error | null {
  if (scope.stop) return scope.stop;
  if (meter.stopped) return meter.stopped;
  if (meter.budget.signal?.aborted) return new StopSignal('ABORTED', 'the call was aborted');
  return null;
}

/**
 * Extism `functions`: the meter's imports, ours, and `guest` (WASI, the
 * embedder's), every one of them behind `final`.
 */
export function hostImports(
  scope: ImportScope,
  meterImports: Record<string, HostFunction>,
  guest: Record<string, Record<string, (cc: CallContext, ...args: never[]) => unknown>> = {},
): NonNullable<ExtismPluginOptions['functions']> {
  const stopped = (error: unknown): unknown => {
    // Any failure of a host call is final, not only our stops: an embedder's function that threw, a
    // WASI or Extism function refusing its arguments. A plain error was the plugin's to catch (wasm
    // exception handling) and go on from, at an exception's cost.
    // A thrown value that is not an Error (an embedder's `throw 'no such user'`, `throw undefined`) is
    // as final as one that is: recorded as such it was the plugin's to catch with catch_all (rv12).
    // So is a plugin's own exit (proc_exit never returns): caught, it was a loop of ~6 µs stack traces
    // at a host call's fuel that then answered; its outcome is still the exit's (Engine.#outcome).
    const stop = error instanceof Error ? error : notAnError(error);
    scope.stop ??= stop;
    return stop;
  };
  const final = <F extends HostFunction>(fn: F): F =>
    // An async host function (the embedder's, under JSPI) stays as it is: Extism tells them apart by their constructor.
    isAsyncFunction(fn) ? fn : ((cc: CallContext, ...args: unknown[]) => {
      if (scope.stop) throw scope.stop;
      try {
        return fn(cc, ...args);
      } catch (error) {
        throw stopped(error);
      }
    }) as F;
  /**
   * `final` for our own functions, which take at most three arguments after
   * the call context and never read `arguments`: no rest array per call (the
   * gate runs before most host calls a plugin makes).
   */
  const finalOwn = <F extends HostFunction>(fn: F): F => {
    const f = fn as unknown as (cc: CallContext, a: unknown, b: unknown, c: unknown) => unknown;
    return ((cc: CallContext, a: unknown, b: unknown, c: unknown) => {
      if (scope.stop) throw scope.stop;
      try {
        return f(cc, a, b, c);
      } catch (error) {
        throw stopped(error);
      }
    }) as unknown as F;
  };
  const wrap = (fns: Record<string, HostFunction>, own = false): Record<string, HostFunction> =>
    Object.fromEntries(Object.entries(fns).map(([name, fn]) => [name, own && fn.length <= 4 ? finalOwn(fn) : final(fn)]));
  const denied = Object.fromEntries(
    NETWORK_IMPORTS.map((name) => [
      name,
      () => {
        throw new HostRefusal(
          'TRAP',
          `the plugin called ${name}, but the sandbox grants no network access (no allowedHosts); the call was refused`,
        );
      },
    ]),
  );
  return {
    ...Object.fromEntries(Object.entries(guest).map(([namespace, fns]) => [namespace, wrap(fns as Record<string, HostFunction>)])),
    [REFUEL_MODULE]: wrap(meterImports, true),
    'extism:host/env': wrap({
      alloc: alloc(scope),
      var_get: varGet(scope),
      var_set: varSet(scope),
      config_get: configGet(scope),
      ...Object.fromEntries(LOG_LEVELS.map((level) => [`log_${level}`, log(scope, level)])),
    }, true),
    'wasmhooks:host': wrap({ progress: progress(scope) }, true),
    [DENIED_MODULE]: wrap(denied, true),
  };
}

/**
 * Extism's own alloc logs "memory limit exceeded" and returns 0, after which
 * the plugin fails on an unrelated error; refuse here instead. The size is an
 * unsigned i64 (so `alloc(-1)` asks for 2^64 - 1 bytes, on every runtime).
 */
function alloc(scope: ImportScope): HostFunction {
  const cap = BigInt(scope.limits.maxMemoryPages * PAGE);
  return (cc: CallContext, size: bigint) => {
    // In SELF_CHECKED: the instrumenter left the gate to us, so it comes before any work.
    scope.check();
    // No BigInt of our own made per call (a negative i64 is a size past 2^63, past any cap).
    const fits = size >= 0n && size <= cap;
    if (fits) blockMade(scope);
    const address = fits ? newBlock(cc, Number(size)) : 0n;
    if (address === 0n) {
      const bytes = BigInt.asUintN(U64, BigInt(size));
      throw new HostRefusal(
        'MEMORY_LIMIT',
        `the plugin asked the host for ${bytes} bytes, beyond its cap of ${scope.limits.maxMemoryPages} pages (maxMemoryPages)`,
      );
    }
    return address;
  };
}

/** Blocks a call makes before each new one is charged for the ones before it. */
const FREE_BLOCKS = 64;
/**
 * Fuel per block the call already made, charged when it makes another. Extism's `alloc` sums the sizes
 * of all the call's blocks (freed ones included: the list never shrinks within a call) to check the
 * memory cap, about 7 ns a block here, so n allocs cost the host n²/2 of those. At a flat 1,000 fuel an
 * alloc, a loop of alloc(0) burnt 2.4 s of CPU on 26M fuel (the default budget is 1e9, ~90 ms):
 * only the deadline stopped it. At 64 a block it stops near 5,600 allocs, about 100 ms.
 */
const FUEL_PER_BLOCK = 64;

/**
 * Before the host makes a block for the plugin (`alloc`, `var_get`, `config_get`, an embedder host
 * function's `ctx.store`): past FREE_BLOCKS, the call pays for Extism's scan of the others.
 */
export function blockMade(scope: ImportScope): void {
  if (++scope.blocks > FREE_BLOCKS) scope.charge(scope.blocks * FUEL_PER_BLOCK);
}

function varGet(scope: ImportScope): HostFunction {
  return (cc: CallContext, keyAddress: bigint) => {
    const key = cc.read(keyAddress);
    if (key === null) return 0n;
    const value = scope.vars.get(key.string());
    freeBlock(cc, keyAddress); // as Extism does: the PDKs do not free the key themselves
    return value ? copyOut(cc, scope, value, 'var_get') : 0n;
  };
}

/** Like Extism's, but the value goes out through `copyOut`, under the memory cap. */
function configGet(scope: ImportScope): HostFunction {
  return (cc: CallContext, keyAddress: bigint) => {
    const key = cc.read(keyAddress);
    if (key === null) return 0n;
    const name = key.string();
    freeBlock(cc, keyAddress);
    if (!Object.hasOwn(scope.config, name)) return 0n;
    return copyOut(cc, scope, encoder.encode(scope.config[name]), 'config_get');
  };
}

/** A copy of `bytes` for the plugin (`copyToBlock`), or a refusal naming `what` needed it. */
function copyOut(cc: CallContext, scope: ImportScope, bytes: Uint8Array, what: string): bigint {
  // The copy is a block of the value's size, filled: charged as alloc charges its size (its wrapper
  // charged only the key's). A loop of var_get and free on a 1 MB value cost ~100 µs a turn for ~1,000 fuel.
  scope.charge(bytesFuel(bytes.byteLength));
  blockMade(scope);
  const address = copyToBlock(cc, bytes);
  if (address === 0n) {
    throw new HostRefusal(
      'MEMORY_LIMIT',
      `${what} needs a block of ${bytes.byteLength} bytes, beyond the plugin's cap of ${scope.limits.maxMemoryPages} pages (maxMemoryPages)`,
    );
  }
  return address;
}

function varSet(scope: ImportScope): HostFunction {
  return (cc: CallContext, keyAddress: bigint, valueAddress: bigint) => {
    const keyBlock = cc.read(keyAddress);
    if (keyBlock === null) throw new HostRefusal('TRAP', `the plugin called var_set with an invalid key address (${keyAddress})`);
    scope.vars.admitKey(keyBlock.arrayBuffer().byteLength);
    const key = keyBlock.string();
    if (valueAddress === 0n) return scope.vars.delete(key);
    const value = cc.read(valueAddress);
    if (value === null) throw new HostRefusal('TRAP', `the plugin called var_set with an invalid value address (${valueAddress})`);
    scope.vars.set(key, keyBlock.arrayBuffer().byteLength, value.bytes());
  };
}

/** What a host function's throw of a non-Error value is recorded as (never calls into the value: a hostile toString). */
function notAnError(value: unknown): Error {
  const what = typeof value === 'string' ? JSON.stringify(value.slice(0, 200)) : value === null ? 'null' : typeof value;
  return new Error(`a host function threw a value that is not an Error: ${what}`);
}
