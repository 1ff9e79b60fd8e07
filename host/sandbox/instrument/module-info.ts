/**
 * The types the instrumenter's passes share about the module being rewritten.
 * Its own file, importing nothing: every pass imports it and none imports a
 * pass back, so the passes have no import cycles among them.
 */

/** What the walker needs to know about the module being rewritten. */
export interface ModuleInfo {
  /** Function imports before ours: indices at or above this shift by +1. */
  funcImports: number;
  /** Globals (imported + defined) in the original module; our fuel global is this index. */
  globals: number;
  /** The fuel check, with `checkPatch` the offset of its 5-byte i64.const value. */
  check: Uint8Array;
  checkPatch: number;
  /** The offset of the check's `if` (branch hints, hints.ts). */
  checkIf: number;
  checksInserted: number;
  /** Parameter count of each defined function. */
  params: number[];
  /** The first i32 scratch local of the function being rewritten, for bulk-op lengths; -1 for none. */
  tempLocal: number;
  /** How many scratch locals from `tempLocal` on the function has room for (chunks.ts needs `CHUNK_LOCALS`, a split table.fill one more). */
  tempLocals: number;
  /** The i64 local holding the fuel counter in the function being rewritten; -1: use the global (fuel.ts). */
  fuelLocal: number;
  /** Scratch locals the walker used (from `tempLocal` on); the caller then declares them. */
  tempUsed: number;
  /**
   * Reference-typed scratch locals the function being rewritten uses (a split table.fill's value, chunks.ts),
   * each one's encoded type: local `tempLocal + CHUNK_LOCALS + k` is the k-th, declared after the i32 ones.
   */
  refTemps: Uint8Array[];
  /** Fuel the function being rewritten pays at entry for its declared locals (opcodes.ts `localsFuel`), 0 for none. */
  localsFuel: number;
  /** The function being rewritten receives the counter as a parameter (`fuelLocal`) and returns it (threaded.ts). */
  threaded: boolean;
  /**
   * Function index of `$refuel_slow: (i64) -> i64` (fuel.ts), which a check
   * on a fuel local calls to refuel; -1 in exact mode (no fuel locals).
   */
  refuelSlow: number;
}

/**
 * Most weight any path may run past the last check of its function before
 * the next one (a block's charge is a plain decrement, tested only at the
 * next check): once the weight since the last check that dominates this
 * point may exceed this, the next instruction starts a block charged by a
 * check of its own, even inside a straight line. That bounds what a call
 * can run beyond its budget (docs/sandbox-instrumentation.md, "The meter").
 */
export const UNCHECKED_MAX = 1_000;

export interface Section {
  id: number;
  start: number;
  end: number;
}

/** A function type: the first byte of each parameter's value type, and its results' encoded bytes. */
export interface FuncType {
  params: number[];
  results: Uint8Array;
  resultCount: number;
}

/** How one imported function is charged. */
export interface ImportPlan {
  /** A constant-time Extism accessor: charged, not gated. */
  cheap: boolean;
  /** The wrapper calls the gate first (the host's work for it is not constant). */
  gated: boolean;
  /** The parameter holding a length that the cost grows with, or -1. */
  length: number;
  /** Parameters holding block addresses the host reads (i64), charged by the gate. */
  blocks: number[];
  params: number;
}

export interface RewriteInfo extends ModuleInfo {
  /** The start section's function (original index), or -1. */
  startFunction: number;
  /** With `deferStart`: the (renumbered) start function, exported instead of started (additions.ts); else -1. */
  deferredStart: number;
  /** Type index of our `() -> i64`. */
  refuelType: number;
  /** Type index of `$refuel_slow`'s `(i64) -> i64`, after the variant types; -1 without it. */
  refuelSlowType: number;
  /** Type index of the gate's `(i32, i64) -> i32` (written only if `added` is 2). */
  gateType: number;
  /** Function imports we add: refuel, and the gate if needed. Defined functions shift by this. */
  added: number;
  /** Defined functions of the original module; the import wrappers come after them. */
  definedFunctions: number;
  /** Per original function import: how calls to it are charged (hostcalls.ts). */
  imports: ImportPlan[];
  importTypes: number[];
  types: FuncType[];
  funcTypes: number[];
  /** Type index → the index of the `[] -> results` type we add for it (multi-result types, with exceptions allowed). */
  blockTypes: Map<number, number>;
  /** Per table (imported first), its capped maximum; `tablesSeen` counts them while rewriting. */
  tables: number[];
  /** Per table (imported first), its element type as encoded (0x70, 0x6F, or 0x63/0x64 and a heap type): a split table.fill's scratch local (chunks.ts). */
  tableTypes: Uint8Array[];
  tablesSeen: number;
  maxTableElements: number;
  /** Exception handling may be used (the opt-in); refused otherwise. */
  allowExceptions: boolean;
  /** The function being rewritten gets gates where handlers may resume (handlers.ts). */
  handlerGates: boolean;
  maxMemoryPages: number;
  /**
   * Per memory (imported first), its maximum after capping: all memories together hold at most
   * `maxMemoryPages` (multi-memory; each capped alone, 64 memories reached 64× the cap). memory.ts.
   */
  memoryCaps: number[];
  /** Memories seen so far (imported, then defined), for messages. */
  memories: number;
  functionsInstrumented: number;
  /** The exact-count reference mode (exact.ts) instead of the block rule. */
  exact: boolean;
  /** Threaded fuel (threaded.ts): per type, the index of its variant type `(params…, i64) -> (results…, i64)`, or -1. */
  variantType: Int32Array;
  /** Per defined function, its variant's position among the variants (after the import wrappers), or -1; and how many. */
  variantOf: Int32Array;
  variants: number;
  /** Per defined function: 1 once its body was written as its variant (its own index holds a thin wrapper). */
  threadedFn: Uint8Array;
  /**
   * Tail calls were seen: a thin wrapper or an adapter would turn a chain of
   * them into a growing stack, so the code section is rewritten without
   * threading (variants stay adapters, never called).
   */
  tailCalls: boolean;
  /** The function being rewritten is a variant: local indices from this one (its parameter count) shift by one; -1 otherwise. */
  shiftLocals: number;
  /** Arithmetic instructions met in the module's constant expressions so far (counts.ts `constArithmetic`). */
  constArithmetic: number;
  /** Per data segment, the bytes a `memory.init` may read from it: a passive one's length, 0 for an active one (chunks.ts). */
  dataLengths: number[];
  /** Per element segment, the elements a `table.init` may read from it: a passive one's length, 0 otherwise (chunks.ts; set by rewriteElements, before the code). */
  elemLengths: number[];
}

