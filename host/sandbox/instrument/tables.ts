/**
 * Table caps. A table is host memory (one engine slot per element, 8–16
 * bytes), grown by `table.grow` at a constant cost in instructions, so like
 * memory it gets a maximum in the binary: all the tables of a module, imported
 * and defined, hold at most `maxTableElements` elements together.
 */
import type { RewriteInfo } from './module-info.js';
import { invalid, type Reader } from './reader.js';
import type { Writer } from './writer.js';

/**
 * The default cap (`limits.maxTableElements`): ≈ 1.6 MiB of host memory. Real
 * plugins' tables hold tens to a few thousand functions (Rust, C,
 * AssemblyScript); large Emscripten apps tens of thousands.
 */
export const DEFAULT_MAX_TABLE_ELEMENTS = 100_000;

/**
 * Per table (imported first), its maximum after capping: its minimum plus an
 * equal share of what the minimums leave of the cap, or its own maximum if
 * that is lower. The maxima then sum to at most the cap.
 */
export function planTables(mins: number[], cap: number): number[] {
  const total = mins.reduce((a, b) => a + b, 0);
  if (total > cap) {
    invalid(
      `the module's tables start with ${total} elements, above the cap of ${cap} (raise limits.maxTableElements)`,
    );
  }
  const share = mins.length > 0 ? Math.floor((cap - total) / mins.length) : 0;
  return mins.map((min) => min + share);
}

/** Copies a table type (reference type, limits) with its maximum capped; `r` at the reference type. */
export function capTableType(m: RewriteInfo, r: Reader, w: Writer): void {
  const start = r.pos;
  r.skipValType();
  w.copy(r.buf, start, r.pos);
  const { flags, min, max } = r.limits();
  const cap = m.tables[m.tablesSeen++]!;
  w.u8(flags | 1);
  w.uleb(min);
  w.uleb(Math.min(max ?? Infinity, cap));
}

/** i32/i64 add, sub, mul: what extended-const allows in a constant expression besides constants and references. */
export const CONST_ARITHMETIC = new Set([0x6a, 0x6b, 0x6c, 0x7c, 0x7d, 0x7e]);

/** Skips a constant expression (a table's initialiser) up to and including its `end`; returns its arithmetic instructions (extended-const). */
export function skipConstExpr(r: Reader): number {
  let arithmetic = 0;
  for (;;) {
    const at = r.pos;
    const op = r.u8();
    if (op === 0x0b) return arithmetic;
    if (op === 0x41 || op === 0x42 || op === 0x23 || op === 0xd0 || op === 0xd2) r.skipLeb();
    else if (op === 0x43) r.skip(4);
    else if (op === 0x44) r.skip(8);
    else if (op === 0xfd) {
      if (r.u32() !== 12) r.fail('unsupported SIMD opcode in a constant expression', at);
      r.skip(16);
    } else if (CONST_ARITHMETIC.has(op)) arithmetic++;
    else r.fail(`opcode 0x${op.toString(16)} in a constant expression`, at);
  }
}
