/**
 * Calls into an in-thread Extism plugin without Extism's per-call wrapper:
 * the plugin's own call context (its blocks, its input and output, the
 * kernel functions it imports) driven the way `Plugin.call` drives it, but
 * synchronously, so a call costs no promise, no async frame and no output
 * object of Extism's (two microtask hops and a WeakMap entry per call: about
 * 0.6 µs of a 6 µs guard call on Node). Everything the plugin can reach is
 * unchanged: the same context, the same host functions, the same blocks.
 *
 * The context is Extism's own, reached through its symbol-keyed methods,
 * found by their descriptions (`@extism/extism` is pinned to one exact
 * version in package.json; the engine's `freeBlock` reaches its env table the
 * same way). With a build that lacks any of them, or for a plugin whose host
 * functions suspend (JSPI), `directCaller` gives null and the engine calls
 * `plugin.call` instead. test/xrt/sandbox.xrt.ts checks that the direct
 * path is the one in use, on Node, Deno and Bun.
 */
import type { ExtismPluginOptions } from '@extism/extism';
import { HostRefusal, errorText } from './failures.js';
import { isAsyncFunction } from './extism.js';
import { KernelAccessors, type KernelRefusal } from './extism-kernel.js';

type Functions = NonNullable<ExtismPluginOptions['functions']>;

/** The call context's methods `Plugin.call` uses, by their symbols' descriptions (Extism 2.0.0-rc13). */
interface ContextMethods {
  reset: symbol;
  store: symbol;
  begin: symbol;
  end: symbol;
  block: symbol;
}
const DESCRIPTIONS: Record<keyof ContextMethods, string> = {
  reset: 'reset',
  store: 'store-value',
  begin: 'begin',
  end: 'end',
  block: 'get-block',
};

type Context = Record<symbol, (...args: unknown[]) => unknown>;

const NOTHING = new Uint8Array(0);
const ENV = 'extism:host/env';

/** One in-thread plugin's calls, made synchronously. */
export interface DirectCaller {
  /**
   * Runs export `fn` on `input` (which becomes the plugin's input block
   * as it is: the caller owns it exclusively). Returns the output, empty if
   * the plugin set none. Throws what the plugin's run threw, and, for an
   * error the plugin set with `error_set`, the Error `Plugin.call` throws.
   */
  call(fn: string, input: Uint8Array): Uint8Array;
  /**
   * The last call's return code as Extism's Rust host reads it (`returnCode`): the export's i32
   * result, 0 for an export with none, -1 for a result that is not one i32. `Plugin.call` drops it.
   */
  code: number;
  /**
   * For a call that ended in the plugin's own exit (a throw out of `call`): the output it set
   * before exiting, or the Error `call` throws for an error it set.
   */
  exited(): Uint8Array;
}

/**
 * An export's result as an Extism return code, read as Extism's Rust host reads it
 * (runtime/src/plugin.rs: no result is 0, a result that is not an i32 is -1). JavaScript cannot
 * tell an f64 result from an i32: an integral one in the i32 range counts as that i32.
 */
function returnCode(result: unknown): number {
  if (result === undefined) return 0;
  return typeof result === 'number' && (result | 0) === result ? result : -1;
}

/**
 * Adds to `functions` a probe that catches the call context Extism binds to
 * every host function while it builds a plugin (`fn.bind(null, context)`),
 * and the memory accessors a direct call answers itself (extism-kernel.ts).
 * The probe sits in the sandbox's own import namespace, which the
 * instrumenter refuses to let a plugin import; called anyway, it refuses.
 */
export function probeContext(functions: Functions, namespace: string, refuse?: KernelRefusal): () => object | undefined {
  let caught: object | undefined;
  const probe = (): never => {
    throw new HostRefusal('TRAP', 'the plugin called the sandbox context probe');
  };
  Object.defineProperty(probe, 'bind', {
    value(this: typeof probe, self: unknown, context: unknown) {
      if (typeof context === 'object' && context !== null) caught = context;
      return Function.prototype.bind.call(this, self, context);
    },
  });
  functions[namespace] = { ...functions[namespace], context: probe };
  const accessors = new KernelAccessors(refuse);
  // Unbound (see KernelAccessors#functions): they take no context argument, unlike the type Extism declares.
  // A function of that name the caller gives stays in place.
  functions[ENV] = { ...(accessors.functions() as unknown as Functions[string]), ...functions[ENV] };
  return () => {
    if (caught) kernels.set(caught, accessors);
    return caught;
  };
}

/** The direct caller of `instance` through `context`, or null when this Extism build does not allow one. */
export function directCaller(context: object | undefined, instance: WebAssembly.Instance, functions: Functions): DirectCaller | null {
  if (!context || suspends(functions)) return null;
  const methods = methodsOf(context);
  if (!methods) return null;
  const cc = context as Context;
  const exports = instance.exports;
  const accessors = kernels.get(context);
  accessors?.attach(context, methods.block);
  /** The last call's [error, output] block indices, kept for `exited` (the blocks live until the next call's reset). */
  let last: [number | null, number | null] = [null, null];
  const read = ([error, output]: [number | null, number | null]): Uint8Array => {
    const index = error ?? output;
    if (index === null) return NOTHING;
    const block = cc[methods.block]!(index) as { buffer: ArrayBuffer } | null;
    if (!block) return NOTHING;
    if (error !== null) throw new Error(`Plugin-originated error: ${errorText(new Uint8Array(block.buffer))}`);
    return accessors ? accessors.output(block.buffer) : new Uint8Array(block.buffer);
  };
  return {
    code: 0,
    call(fn, input) {
      const run = exports[fn];
      // Extism's own words, so failures classify as they did through Plugin.call.
      if (run === undefined) throw new Error(`Plugin error: function "${fn}" does not exist`);
      if (typeof run !== 'function') throw new Error(`Plugin error: export "${fn}" is not a function`);
      // An ABI export takes nothing. JS would pass `undefined` for each parameter, which an i64 or
      // v128 one refuses with an engine TypeError that reads like a bad host call (and an i32 one
      // reads as 0, a call the Rust host would refuse).
      if (run.length !== 0) throw new HostRefusal('TRAP', exportTakesParams(fn, run.length));
      cc[methods.reset]!();
      const stored = cc[methods.store]!(input) as number;
      cc[methods.begin]!(stored);
      accessors?.begin(stored);
      this.code = -1;
      try {
        this.code = returnCode((run as () => unknown)());
      } finally {
        accessors?.end();
        last = cc[methods.end]!() as [number | null, number | null];
      }
      return read(last);
    },
    exited: () => read(last),
  };
}

/** Why an export with parameters cannot be called as a plugin function. */
function exportTakesParams(fn: string, count: number): string {
  return `export "${fn}" takes ${count} parameter${count === 1 ? '' : 's'}, so it is not a plugin function: under the Extism ABI the host calls an export with none, and it returns an i32`;
}

/** Each probed context's accessors (probeContext), for its direct caller. */
const kernels = new WeakMap<object, KernelAccessors>();

function methodsOf(context: object): ContextMethods | null {
  const found: Partial<ContextMethods> = {};
  const symbols = Object.getOwnPropertySymbols(Object.getPrototypeOf(context) as object);
  for (const key of Object.keys(DESCRIPTIONS) as (keyof ContextMethods)[]) {
    const symbol = symbols.find((s) => s.description === DESCRIPTIONS[key]);
    if (!symbol || typeof (context as Context)[symbol] !== 'function') return null;
    found[key] = symbol;
  }
  return found as ContextMethods;
}

/** Extism runs a plugin with an async host function under JSPI (`promising`): only `Plugin.call` does that. */
function suspends(functions: Functions): boolean {
  for (const namespace of Object.values(functions)) {
    for (const fn of Object.values(namespace)) if (isAsyncFunction(fn)) return true;
  }
  return false;
}
