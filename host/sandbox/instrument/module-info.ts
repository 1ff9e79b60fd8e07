/** What the instrumenter's passes share about the module being rewritten (its own file: every pass imports it, none imports a pass back). */

/** What the walker needs to know about the module being rewritten. */
export interface ModuleInfo {
  /** Function imports before ours: indices at or above this shift by +1. */
  funcImports: number;
  /** Globals (imported + defined) in the original module; our fuel global is this index. */
  globals: number;
  /** The fuel check, with `checkPatch` the offset of its 5-byte i64.const value. */
  check: Uint8Array;
  checkPatch: number;
  checksInserted: number;
  /** Parameter count of each defined function. */
  params: number[];
  /** Per memory (imported first): 1 if 64-bit, whose bulk lengths are i64 and charged a fixed weight. */
  memory64: Uint8Array;
  /** An i32 scratch local of the function being rewritten, for bulk-op lengths; -1 for none. */
  tempLocal: number;
  /** The i64 local holding the fuel counter in the function being rewritten; -1: use the global (fuel.ts). */
  fuelLocal: number;
  /** Set by the walker when it used `tempLocal`; the caller then declares it. */
  tempUsed: boolean;
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
