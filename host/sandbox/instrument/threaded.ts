/**
 * Threaded fuel: direct calls pass the counter in a parameter and return it
 * in a result, instead of through the exported global.
 *
 * Keeping the counter in the global across a call costs a store before it, a
 * load and a store in the callee (entry check, return) and a load after it:
 * in call-heavy code (sql.js, AssemblyScript plugins) that alone was most of
 * the metering overhead (docs/sandbox-instrumentation.md, "Overhead"). So
 * each defined function whose type allows it gets a **variant**, appended
 * after the import wrappers, of type `(params…, i64) -> (results…, i64)`: its
 * fuel local is that extra parameter, and it returns the counter as its last
 * result. A direct `call` from metered code pushes the caller's counter and
 * calls the variant; the variant's result becomes the caller's counter (with
 * the next block's charge fused in). The global is written only where
 * something else may read it: before a host call, an indirect call or a
 * refuel, and by the function at the original index, which becomes a thin
 * wrapper (`global.get`, call the variant, `global.set`) that exports,
 * tables, `ref.func` and the start function keep reaching.
 *
 * A function that cannot thread the counter (an exception handler, a tail
 * call through a table or a reference, too many locals) keeps its metered
 * body at its own index, and its variant is an **adapter** that writes the
 * counter to the global, calls it and reads the global back. Types with more
 * than one result or a parameter or result that is not a plain value type
 * get no variant (calls to them go through the global, as before).
 */
import type { RewriteInfo } from './module-info.js';
import type { Writer } from './writer.js';

const I64 = 0x7e, LOCAL_GET = 0x20, GLOBAL_GET = 0x23, GLOBAL_SET = 0x24, CALL = 0x10, END = 0x0b;
/** Value types encoded in one byte: i32, i64, f32, f64, v128, funcref, externref. */
const SIMPLE = new Set([0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f]);
/** Engine limits (the JS API's, the same in V8, SpiderMonkey and JavaScriptCore). */
const MAX_PARAMS = 1_000;
const MAX_FUNCTIONS = 1_000_000;
const MAX_TYPES = 1_000_000;

/**
 * Decides the variant types and which defined functions get a variant
 * (`m.variantType`, `m.variantOf`, `m.variants`). `firstType`: the index the
 * first variant type will have in the type section.
 */
export function planVariants(m: RewriteInfo, firstType: number): void {
  // Engines cap a module at 1,000,000 functions and 1,000,000 types: a module near either gets no variants (the +1: $refuel_slow).
  if (2 * (m.funcImports + m.definedFunctions) + m.added + 1 > MAX_FUNCTIONS || 2 * m.types.length + 3 + m.blockTypes.size > MAX_TYPES) return;
  let types = 0;
  m.types.forEach((t, i) => {
    const simple =
      t.resultCount <= 1 &&
      t.params.length < MAX_PARAMS && // the counter makes one more
      t.results.length === t.resultCount &&
      t.params.every((p) => SIMPLE.has(p)) &&
      t.results.every((b) => SIMPLE.has(b));
    m.variantType[i] = simple ? firstType + types++ : -1;
  });
  m.funcTypes.forEach((type, i) => {
    m.variantOf[i] = (m.variantType[type] ?? -1) >= 0 ? m.variants++ : -1;
  });
}

/** Appends the variant types to the type section; returns how many. */
export function writeVariantTypes(m: RewriteInfo, w: Writer): number {
  let n = 0;
  m.types.forEach((t, i) => {
    if (m.variantType[i]! < 0) return;
    w.u8(0x60);
    w.uleb(t.params.length + 1);
    for (const p of t.params) w.u8(p);
    w.u8(I64);
    w.uleb(t.resultCount + 1);
    w.bytes(t.results);
    w.u8(I64);
    n++;
  });
  return n;
}

/** Appends the variants' type indices, then `$refuel_slow`'s (fuel.ts), to the function section; returns how many. */
export function writeVariantFunctions(m: RewriteInfo, w: Writer): number {
  m.funcTypes.forEach((type, i) => {
    if (m.variantOf[i]! >= 0) w.uleb(m.variantType[type]!);
  });
  if (m.refuelSlow < 0) return m.variants;
  w.uleb(m.refuelSlowType);
  return m.variants + 1;
}

/** The index of the variant of function `idx` (original numbering), or -1 if it has none (an import, or no variant). */
export function variantIndex(m: RewriteInfo, idx: number): number {
  const d = idx - m.funcImports;
  if (d < 0 || d >= m.definedFunctions || m.tailCalls) return -1;
  const v = m.variantOf[d]!;
  return v < 0 ? -1 : 2 * m.funcImports + m.added + m.definedFunctions + v;
}

/** The block type that wraps a variant's body: the function's own result, or none. */
export function bodyBlockType(m: RewriteInfo, func: number): number {
  const t = m.types[m.funcTypes[func]!]!;
  return t.resultCount === 0 ? 0x40 : t.results[0]!;
}

/** The body at a threaded function's own index: `global.get; call <variant>; global.set`. */
export function writeThinWrapper(m: RewriteInfo, w: Writer, func: number): void {
  const params = m.params[func]!;
  w.u8(0x00); // no locals
  for (let p = 0; p < params; p++) w.u8(LOCAL_GET), w.uleb(p);
  w.u8(GLOBAL_GET), w.uleb(m.globals);
  w.u8(CALL), w.uleb(variantIndex(m, m.funcImports + func));
  w.u8(GLOBAL_SET), w.uleb(m.globals);
  w.u8(END);
}

/** The variant of a function that keeps its metered body: counter to the global, call it, counter back. */
export function writeAdapter(m: RewriteInfo, w: Writer, func: number): void {
  const params = m.params[func]!;
  w.u8(0x00);
  w.u8(LOCAL_GET), w.uleb(params);
  w.u8(GLOBAL_SET), w.uleb(m.globals);
  for (let p = 0; p < params; p++) w.u8(LOCAL_GET), w.uleb(p);
  w.u8(CALL), w.uleb(m.funcImports + m.added + func);
  w.u8(GLOBAL_GET), w.uleb(m.globals);
  w.u8(END);
}
