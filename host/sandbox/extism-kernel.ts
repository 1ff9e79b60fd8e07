/**
 * Extism's memory accessors (`input_*`, `load_*`, `store_*`), answered
 * without Extism's BigInt address arithmetic while a direct call
 * (extism-call.ts) runs. A guest reads its input and writes its output
 * through them eight bytes a host call, and Extism's own split every
 * address with three to five BigInt operations (`addressToIndex`,
 * `maskAddress`), each a heap allocation: on a small hook that is more than
 * the host's whole codec, and it costs about three times as much inside the
 * agent loop as in a tight loop (bench: "where the added time goes").
 *
 * What a plugin can reach is unchanged: every read and write goes to the
 * block Extism's own `GET_BLOCK` gives for the address's block index at that
 * moment (no cached view, so a block freed by any path is seen as freed),
 * through that block's own DataView, at an offset the DataView bounds-checks.
 * Whatever the fast path does not answer exactly as Extism would (no direct
 * call running, an address that is not exact as a Number, a missing block,
 * an offset past the block's end) goes to Extism's own function, for Extism's
 * own answer or error.
 */

/** An Extism address: the block index in the top 16 bits, the offset in the low 48. */
const BLOCK = 2 ** 48;
/** Addresses below this are exact as Numbers (block indexes 0–31: a call's first blocks). */
const EXACT = 2 ** 53;
/** An address's offset in its block: the low 48 bits. */
const OFFSET_MASK = (1n << 48n) - 1n;

type Fn = (...args: never[]) => unknown;
type Context = Record<symbol, (index: number) => { view: DataView }>;

/** The accessors a direct call answers itself; each falls back to Extism's own of the same name. */
const NAMES = ['input_length', 'input_load_u64', 'input_load_u8', 'load_u8', 'load_u64', 'store_u8', 'store_u64'] as const;
/**
 * Extism's own functions that throw on a plugin's arguments (a block that is not there, a length
 * past it), always answered by Extism: here only so that their error is a refusal, as the
 * accessors' are. Unwrapped, `output_set(block, more than its length)` in a try/catch_all loop
 * cost ~5 µs a turn (a stack trace) for a host call's fuel, and the call answered (rv12).
 */
const REFUSING = ['output_set', 'error_set'] as const;
type Name = (typeof NAMES)[number] | (typeof REFUSING)[number];

/**
 * What an error of Extism's own accessor becomes (an address it refuses): the error to throw, made
 * final by the caller (engine-imports.ts records it as the call's stop). Extism's function threw a
 * plain Error, which wasm exception handling catches: a plugin looped on refused reads at an
 * exception's cost (its stack trace, microseconds) for a constant-time accessor's fuel, and went
 * on to answer as if nothing had happened.
 */
export type KernelRefusal = (name: string, error: unknown) => Error;

export class KernelAccessors {
  constructor(private readonly refuse: KernelRefusal = (_name, error) => (error instanceof Error ? error : new Error(String(error)))) {}

  /** Extism's own function `name`, its error made a refusal. */
  #extismCall(name: Name, a?: bigint, b?: number | bigint): never | number | bigint | undefined {
    try {
      return (this.#extism[name] as (a?: bigint, b?: number | bigint) => number | bigint | undefined)(a, b);
    } catch (error) {
      throw this.refuse(name, error);
    }
  }

  /** The call context and its `GET_BLOCK` method, once the direct caller is built. */
  #context: Context | null = null;
  #getBlock: symbol | null = null;
  /** The input block's index while a direct call runs; -1 otherwise (Extism's functions answer). */
  #input = -1;
  /** BigInt(input length) of the last call, kept while calls have that length. */
  #length = -1;
  #lengthBig = 0n;
  /** Extism's own functions, caught as Extism binds ours in their place. */
  readonly #extism: Record<string, Fn> = {};
  /** Extism lacked one of its own (another build): the direct call does not use these. */
  #broken = false;

  /** Reads blocks through `context[getBlock]` (Extism's `GET_BLOCK`, which throws for a missing block). */
  attach(context: object, getBlock: symbol): void {
    if (this.#broken) return;
    this.#context = context as Context;
    this.#getBlock = getBlock;
  }

  /**
   * The direct call's output range in its block, as `output_set(address, length)` gave it (-1: none
   * recorded, the whole block). Extism's JavaScript host outputs the whole block whatever the two
   * say; its Rust host, and the ABI, the range: a guard that wrote `deny` into the start of a
   * reused block whose stale tail said `allow` (last field wins) was read as allowing.
   */
  #outputOffset = -1;
  #outputLength = 0;

  /** A direct call starts, with its input in block `inputIndex`. */
  begin(inputIndex: number): void {
    this.#input = this.#context ? inputIndex : -1;
    this.#outputOffset = -1;
  }

  /** The output the last direct call set, within `block` (the block its output_set named). */
  output(block: ArrayBuffer): Uint8Array {
    return this.#outputOffset < 0 ? new Uint8Array(block) : new Uint8Array(block, this.#outputOffset, this.#outputLength);
  }

  /**
   * After Extism's own output_set took `address` (so its block exists): its range, refused past the
   * block's end. Read from Extism's block whatever the state of the fast path (any block, any call).
   */
  #outputSet(address: bigint, length: bigint): void {
    if (!this.#context) return;
    const a = Number(address);
    // Exact as a Number (a call's first blocks): no BigInt arithmetic on the hot path.
    const index = blockIndex(a) >= 0 ? blockIndex(a) : Number(address >> 48n);
    const view = this.#context[this.#getBlock as symbol]!(index).view;
    const offset = a < EXACT ? a - index * BLOCK : Number(address & OFFSET_MASK);
    const n = Number(length);
    if (n < 0 || offset + n > view.byteLength) {
      throw this.refuse('output_set', new Error(`output_set: ${n} bytes at offset ${offset} run past the end of the block (${view.byteLength} bytes)`));
    }
    this.#outputOffset = offset;
    this.#outputLength = n;
  }

  end(): void {
    this.#input = -1;
  }

  /**
   * Block `index`'s view, or null (no direct call running, no such block: Extism's function answers).
   * A missing block (Extism's `GET_BLOCK` throws) hands the rest of the call to Extism's own
   * functions: a plugin that reads missing blocks in a loop pays Extism's price per read, not an
   * exception's (whose stack trace costs microseconds, which would stretch the time between two
   * of the meter's clock reads).
   */
  #view(index: number): DataView | null {
    if (this.#input < 0 || index < 0) return null;
    try {
      return (this.#context as Context)[this.#getBlock as symbol]!(index).view;
    } catch {
      this.#input = -1;
      return null;
    }
  }

  /**
   * The host functions, each marked to stay unbound (Extism binds every host
   * function to its context; ours need none, so a read costs no bound-function
   * hop), and to catch Extism's own of its name as Extism binds it.
   */
  functions(): Record<string, Fn> {
    const extism = this.#extism;
    const fns: Record<Name, Fn> = {
      input_length: (): bigint => {
        const view = this.#view(this.#input);
        if (view === null) return this.#extismCall('input_length') as bigint;
        const n = view.byteLength;
        if (n !== this.#length) (this.#length = n), (this.#lengthBig = BigInt(n));
        return this.#lengthBig;
      },
      // Extism reads the input at the address's low 48 bits; an offset inside the block is exactly that.
      input_load_u64: (address: bigint): bigint => {
        const view = this.#view(this.#input);
        const offset = Number(address);
        if (view !== null && offset >= 0 && offset <= view.byteLength - 8) return view.getBigUint64(offset, true);
        return this.#extismCall('input_load_u64', address) as bigint;
      },
      input_load_u8: (address: bigint): number => {
        const view = this.#view(this.#input);
        const offset = Number(address);
        if (view !== null && offset >= 0 && offset < view.byteLength) return view.getUint8(offset);
        return this.#extismCall('input_load_u8', address) as number;
      },
      load_u8: (address: bigint): number => {
        const a = Number(address);
        const index = blockIndex(a);
        const view = this.#view(index);
        const offset = a - index * BLOCK;
        if (view !== null && offset < view.byteLength) return view.getUint8(offset);
        return this.#extismCall('load_u8', address) as number;
      },
      load_u64: (address: bigint): bigint => {
        const a = Number(address);
        const index = blockIndex(a);
        const view = this.#view(index);
        const offset = a - index * BLOCK;
        if (view !== null && offset <= view.byteLength - 8) return view.getBigUint64(offset, true);
        return this.#extismCall('load_u64', address) as bigint;
      },
      store_u8: (address: bigint, value: number): void => {
        const a = Number(address);
        const index = blockIndex(a);
        const view = this.#view(index);
        const offset = a - index * BLOCK;
        if (view !== null && offset < view.byteLength) return view.setUint8(offset, value);
        this.#extismCall('store_u8', address, value);
      },
      store_u64: (address: bigint, value: bigint): void => {
        const a = Number(address);
        const index = blockIndex(a);
        const view = this.#view(index);
        const offset = a - index * BLOCK;
        if (view !== null && offset <= view.byteLength - 8) return view.setBigUint64(offset, value, true);
        this.#extismCall('store_u64', address, value);
      },
      output_set: (address: bigint, length: bigint): void => {
        this.#extismCall('output_set', address, length);
        this.#outputSet(address, length);
      },
      error_set: (address: bigint): void => void this.#extismCall('error_set', address),
    };
    for (const name of [...NAMES, ...REFUSING]) {
      const fn = fns[name];
      Object.defineProperty(fn, 'bind', {
        value: (_self: unknown, context: unknown) => {
          // Extism assigns the bound function over its own only after binding it: its own is still there.
          const own = envOf(context)?.[name];
          if (typeof own === 'function') extism[name] = own as Fn;
          // Another Extism build, without this function: never answered here, and refused when called.
          else (this.#broken = true), (extism[name] = () => {
            throw new Error(`Plugin error: this Extism build has no host function ${name}`);
          });
          return fn;
        },
      });
    }
    return fns;
  }
}

/** The block index of an exact address (its top 16 bits), or -1 (Extism's function answers). */
function blockIndex(a: number): number {
  return a >= 0 && a < EXACT ? Math.floor(a / BLOCK) : -1;
}

/** The context's env table (Extism's host functions by name), found by its symbol's description. */
function envOf(context: unknown): Record<string, unknown> | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const symbol = Object.getOwnPropertySymbols(context).find((s) => s.description === 'env');
  const env = symbol && (context as Record<symbol, unknown>)[symbol];
  return typeof env === 'object' && env !== null ? (env as Record<string, unknown>) : undefined;
}
