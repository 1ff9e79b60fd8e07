/**
 * The fuel code the walker inserts. In most functions the counter lives in a
 * local (`fuelLocal`), loaded from the exported global at entry and written
 * back before anything that leaves the function or may observe the global
 * (calls, returns, branches out of the body, throws, traps, `refuel`), and
 * reloaded after calls return, together with the charge of the block after
 * the call. Engines keep the local in a register, so a loop check is a
 * subtract, a compare and a branch, and a block's charge a subtract. Functions with exception handlers (or too many locals) use the
 * global directly (`fuelLocal` -1): a caught exception would leave the local
 * stale.
 */
import { hintUnlikely } from './hints.js';
import type { ModuleInfo, RewriteInfo } from './module-info.js';
import type { Writer } from './writer.js';

const GLOBAL_GET = 0x23, GLOBAL_SET = 0x24, LOCAL_GET = 0x20, LOCAL_SET = 0x21, LOCAL_TEE = 0x22;

/**
 * Writes a check charging a cost patched in later; returns the offset of its
 * padded 5-byte constant. `entry`: load the counter from the global first.
 * `tight`: the back-edge check of a short loop (see writeRefuelIfNegative).
 */
export function writeCheck(m: ModuleInfo, w: Writer, entry: boolean, tight = false): number {
  const f = m.fuelLocal;
  if (f < 0) {
    const at = w.pos + m.checkPatch;
    hintUnlikely(w.pos + m.checkIf);
    w.bytes(m.check);
    return at;
  }
  // A variant's counter arrives in its fuel local (a parameter); other functions load it at entry.
  const load = entry && !m.threaded;
  w.u8(load ? GLOBAL_GET : LOCAL_GET), w.uleb(load ? m.globals : f);
  w.u8(0x42);
  const at = w.pos;
  w.bytes(PADDED_ZERO);
  w.u8(0x7d); // i64.sub
  w.u8(LOCAL_TEE), w.uleb(f);
  writeRefuelIfNegative(m, w, tight);
  return at;
}

const PADDED_ZERO = new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x00]);

/**
 * `i64.const 0; i64.lt_s; if <refuel> end`, the counter's new value on the
 * stack. The back-edge check of a short loop (`tight`, Walk.tight) on a fuel
 * local has the cold arm `local.set $f (call $refuel_slow (local.get $f))`:
 * no import call and no global access in the loop. JavaScriptCore (Bun)
 * ignores branch hints and compiles a short loop whose body holds the import
 * call up to 2.5× slower even though the arm never runs. Other checks keep
 * the import call inline: with the helper at every check, sql.js measured
 * ≈ 5% slower on Node 20 (docs/sandbox-instrumentation.md, "Overhead on Bun").
 */
export function writeRefuelIfNegative(m: ModuleInfo, w: Writer, tight = false): void {
  const f = m.fuelLocal, g = m.globals;
  hintUnlikely(w.pos + 3); // the `if`: taken only when the counter ran out
  w.u8(0x42), w.u8(0x00), w.u8(0x53), w.u8(0x04), w.u8(0x40); // i64.const 0; i64.lt_s; if
  if (tight && f >= 0 && m.refuelSlow >= 0) {
    w.u8(LOCAL_GET), w.uleb(f);
    w.u8(0x10), w.uleb(m.refuelSlow);
    w.u8(LOCAL_SET), w.uleb(f);
    w.u8(0x0b);
    return;
  }
  if (f >= 0) w.u8(LOCAL_GET), w.uleb(f), w.u8(GLOBAL_SET), w.uleb(g); // the host reads the overdraft
  w.u8(0x10), w.uleb(m.funcImports); // call $refuel
  if (f >= 0) w.u8(LOCAL_TEE), w.uleb(f);
  w.u8(GLOBAL_SET), w.uleb(g);
  w.u8(0x0b);
}

/** `global.set $fuel (local.get $f)`: makes the global current. */
export function writeBack(m: ModuleInfo, w: Writer): void {
  w.u8(LOCAL_GET), w.uleb(m.fuelLocal);
  w.u8(GLOBAL_SET), w.uleb(m.globals);
}

/**
 * `counter -= <cost>` with no test: the charge of a block between checks.
 * Returns the offset of its padded constant.
 */
export function writeDecrement(m: ModuleInfo, w: Writer): number {
  const f = m.fuelLocal;
  w.u8(f >= 0 ? LOCAL_GET : GLOBAL_GET), w.uleb(f >= 0 ? f : m.globals);
  w.u8(0x42);
  const at = w.pos;
  w.bytes(PADDED_ZERO);
  w.u8(0x7d);
  w.u8(f >= 0 ? LOCAL_SET : GLOBAL_SET), w.uleb(f >= 0 ? f : m.globals);
  return at;
}

/** After a direct call to a variant (threaded.ts), whose last result is the counter: `local.set $f`. */
export function writeResultReload(m: ModuleInfo, w: Writer): void {
  w.u8(LOCAL_SET), w.uleb(m.fuelLocal);
}

/** `local.get $f`: the counter handed to a variant, or returned by one. */
export function pushCounter(m: ModuleInfo, w: Writer): void {
  w.u8(LOCAL_GET), w.uleb(m.fuelLocal);
}

/** After a call that may have charged the global: `local.set $f (global.get $fuel)`. */
export function writeReload(m: ModuleInfo, w: Writer): void {
  w.u8(GLOBAL_GET), w.uleb(m.globals);
  w.u8(LOCAL_SET), w.uleb(m.fuelLocal);
}

/**
 * Places `$refuel_slow` (fast mode only): its type after the variant types
 * (`firstFreeType`), the function after the variants.
 */
export function planRefuelSlow(m: RewriteInfo, firstFreeType: number): void {
  if (m.exact) return;
  m.refuelSlowType = firstFreeType;
  m.refuelSlow = 2 * m.funcImports + m.added + m.definedFunctions + m.variants;
}

/**
 * The body of `$refuel_slow (param $f i64) (result i64)`: the cold arm of a
 * short loop's back-edge check on a fuel local. The host reads the overdraft from the global, and
 * the fresh counter goes to the global and back to the caller's local.
 */
export function writeRefuelSlowBody(m: RewriteInfo, w: Writer): void {
  const at = w.openSize();
  w.u8(0x00); // no locals
  w.u8(LOCAL_GET), w.u8(0), w.u8(GLOBAL_SET), w.uleb(m.globals);
  w.u8(0x10), w.uleb(m.funcImports); // call $refuel
  w.u8(LOCAL_TEE), w.u8(0), w.u8(GLOBAL_SET), w.uleb(m.globals);
  w.u8(LOCAL_GET), w.u8(0);
  // Nops past JavaScriptCore's inlining size limit (wasmInliningMaximumWasmCalleeSize, 500 bytes in Bun 1.4):
  // inlined, the import call would be back inside the caller's loop.
  for (let i = 0; i < REFUEL_SLOW_PAD; i++) w.u8(0x01);
  w.u8(0x0b);
  w.closeSize(at);
}

/** Nops that keep `$refuel_slow` out of JavaScriptCore's inliner (see writeRefuelSlowBody). */
const REFUEL_SLOW_PAD = 512;
