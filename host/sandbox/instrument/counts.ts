/**
 * Caps on what an engine builds for every instance of a module, whatever the
 * module then runs: tables, globals, exports (a JS wrapper or object each),
 * passive data segments and tags. That work happens at instantiation, before
 * any meter runs and out of every deadline's reach, at load and again at
 * every rebuild after a failure; V8 accepts up to 100,000 tables and exports
 * and 1,000,000 globals and tags. Measured (red16, Node 20 / Bun 1.4): 99,990
 * exported functions 0.9 s per instance (an 0.9 MB module), 99,990 exported
 * globals 0.45 / 0.8 s, 100,000 tables 0.42 s (300 KB), 1,000,000 globals
 * 0.15 / 0.5 s, 100,000 passive data segments 0.1 s, 1,000,000 tags 0.2 s, 50,000 imports
 * 40-140 ms (each resolved against the host's object), 20,000 memories (multi-memory, Deno)
 * 155 ms and a reservation of address space each (JavaScriptCore's own limit is 100).
 * At these caps a module's instance costs at most ≈ 30 ms of such work; real
 * plugins stay two orders of magnitude below (1 table, under 20 globals and
 * 100 exports, 40 imports for sql.js; their data segments are active). Element segments are capped by
 * `maxTableElements` (sections.ts `rewriteElements`).
 */
import type { FuncType } from './module-info.js';
import { invalid, type Reader } from './reader.js';
import { skipConstExpr } from './tables.js';

const INSTANCE_CAPS = Object.freeze({ imports: 1_000, memories: 100, tables: 100, globals: 10_000, exports: 2_048, 'passive data segments': 10_000, tags: 1_000 });

export type InstanceCounts = Record<keyof typeof INSTANCE_CAPS, number>;

/** Refuses (INVALID_WASM) a module with more of any of these than its cap. */
export function checkInstanceCounts(counts: InstanceCounts): void {
  for (const [what, cap] of Object.entries(INSTANCE_CAPS) as [keyof InstanceCounts, number][]) {
    if (counts[what] > cap) {
      invalid(`the module declares ${counts[what]} ${what}, above the sandbox's cap of ${cap} (engines build each at every instantiation, before any limit applies)`);
    }
  }
}

/**
 * A data section's passive segments, the arithmetic instructions of its active segments' offsets (`r`
 * at its start), and each segment's length as `memory.init` finds it: a passive one's bytes, 0 for an
 * active one (dropped once the module is instantiated).
 */
export function scanData(r: Reader): { passive: number; arithmetic: number; lengths: number[] } {
  let passive = 0, arithmetic = 0;
  const lengths: number[] = [];
  for (let n = r.u32(); n > 0; n--) {
    const flags = r.u32();
    if (flags === 1) passive++;
    else {
      if (flags === 2) r.u32(); // memory index
      else if (flags !== 0) r.fail(`unknown data segment flags ${flags}`);
      arithmetic += skipConstExpr(r);
    }
    const length = r.u32();
    lengths.push(flags === 1 ? length : 0);
    r.skip(length);
  }
  return { passive, arithmetic, lengths };
}

/**
 * Arithmetic instructions (extended-const) in all the constant expressions of a module together:
 * engines evaluate every one at each instantiation. 8 globals initialised by a million `i32.add`
 * each (a 23 MB module) took 0.25-0.5 s per instance on Deno and Bun. Real modules use a few (wasm-ld
 * adds a base to an offset).
 */
const MAX_CONST_ARITHMETIC = 10_000;

/** Counts `n` more arithmetic instructions in constant expressions; refuses the module (at `at`) past the cap. */
export function constArithmetic(m: { constArithmetic: number }, r: Reader, n: number, at = r.pos): void {
  m.constArithmetic += n;
  if (m.constArithmetic > MAX_CONST_ARITHMETIC) {
    r.fail(`the module's constant expressions hold more than ${MAX_CONST_ARITHMETIC} arithmetic instructions (engines evaluate them at every instantiation, before any limit applies)`, at);
  }
}

/** Bytes of parameters a tag may have: an exception's payload, kept in host memory as long as an exnref to it lives. */
const MAX_TAG_PAYLOAD_BYTES = 16;
/** i32, i64, f32, f64, v128: bytes each. */
const NUMBER_BYTES: Record<number, number> = { 0x7f: 4, 0x7e: 8, 0x7d: 4, 0x7c: 8, 0x7b: 16 };

/**
 * Refuses tag `index` of type `type` if its exceptions could hold more than MAX_TAG_PAYLOAD_BYTES of
 * numbers, or any reference. An exception caught with `catch_ref`/`catch_all_ref` is an exnref that
 * a table, a global or a local keeps alive outside linear memory and its cap: 1,000 v128 parameters
 * made each 16 KB (a table of them grew Deno by 450 MiB in 30 calls), and an exnref parameter
 * chains exceptions without end from one global. With at most 16 bytes of numbers, the exceptions
 * alive are bounded by the exnref slots (tables, globals, the stack): a full table of 100,000 is
 * ≈ 40 MiB on Deno. C++ (Emscripten, LLVM) and Rust throw one i32 (i64 on wasm64).
 */
export function checkTagType(r: Reader, index: number, type: FuncType | undefined): void {
  if (!type) return; // an out-of-range type index: validation refuses the module
  const bytes = type.params.reduce((sum, t) => sum + (NUMBER_BYTES[t] ?? Infinity), 0);
  if (bytes > MAX_TAG_PAYLOAD_BYTES) {
    const what = bytes === Infinity ? 'a reference among its parameters' : `${bytes} bytes of parameters`;
    r.fail(`tag ${index} has ${what}; the sandbox takes at most ${MAX_TAG_PAYLOAD_BYTES} bytes of numbers, since an exception is kept in host memory, outside the memory cap, as long as an exnref to it lives`);
  }
}
