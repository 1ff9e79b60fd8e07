import type { RewriteInfo } from './module-info.js';
import type { ModuleInfo } from './module-info.js';
import { writeCheck, writeRefuelIfNegative } from './fuel.js';
import { BULK_BYTES_PER_FUEL_LOG2, BULK_ZERO_LENGTH_LOG2, ENGINE_CALL_FUEL, GROW_ZERO_PAGES_LOG2, MEMORY_PAGE_FUEL_LOG2, TABLE_ELEMENT_FUEL_LOG2, TABLE_GROW_FUEL_LOG2, TABLE_GROW_MAX_ELEMENTS } from './opcodes.js';
import { patchSleb5, type Writer } from './writer.js';

/**
 * Instructions whose work grows with an operand, charged by it at run time
 * just before they run (the operand is on top of the stack, always an i32:
 * 64-bit memories and tables are refused):
 *
 * - memory.init (0xFC 8), memory.copy (10), memory.fill (11): 1 fuel per byte,
 *   counting at most the memory cap (a longer operation traps at once);
 * - table.init (12), table.copy (14), table.fill (17): 1024 fuel per element
 *   (engines take 50–150 ns per element), table.grow (15) 64 (opcodes.ts), each
 *   counting at most `maxTableElements` (a longer operation traps or fails at once);
 *   a table.grow of more than `TABLE_GROW_MAX_ELEMENTS` fails (-1, as a grow may), see `failAbove`;
 * - memory.grow (0x40): 4096 fuel per page, counting at most `maxMemoryPages`
 *   (why not the byte rate: opcodes.ts).
 *
 * The rates are in opcodes.ts, with the measurements behind them.
 */
export interface OperandCharge {
  /** Positive: fuel = operand << shift; negative: operand >> -shift; 0: the operand itself. */
  shift: number;
  /** The operand is counted up to this (unsigned), or not capped (-1). */
  cap: number;
  /**
   * An operand of 0 is counted as 2^zeroLog2 (before the shift): the empty operation still calls into
   * the engine, and on Node 20 an empty memory.fill costs more than a short one (opcodes.ts).
   */
  zeroLog2?: number;
  /**
   * An operand above this is replaced by 2^32 - 1 after the charge, so the operation fails at once
   * (table.grow answers -1, which the spec lets any grow do): the engine fills every new element in
   * one go, 120-430 ns each on Node, Deno and Bun (red: one grow of 5M, under a raised maxTableElements
   * and the default fuel, held the thread 0.8-1.9 s past a 100 ms deadline). A program that wants a
   * larger table grows it in steps, each charged and checked.
   */
  failAbove?: number;
}

/** Why a function is refused when it has no room for the scratch local a run-time charge needs. */
export const TOO_MANY_LOCALS = 'too many locals to meter this instruction (the sandbox needs one more)';

/** How 0xFC sub-opcode `sub` is charged by its operand, or null for a fixed weight. */
export function fcCharge(m: RewriteInfo, sub: number): OperandCharge | null {
  // No operation moves more than a memory can hold: a longer one traps at once, so it costs no more.
  if (sub === 8 || sub === 10 || sub === 11)
    return { shift: -BULK_BYTES_PER_FUEL_LOG2, cap: Math.min(m.maxMemoryPages * 65_536, 0xffff_ffff), zeroLog2: BULK_ZERO_LENGTH_LOG2 };
  if (sub === 12 || sub === 14 || sub === 17) return { shift: TABLE_ELEMENT_FUEL_LOG2, cap: m.maxTableElements };
  if (sub === 15) return { shift: TABLE_GROW_FUEL_LOG2, cap: m.maxTableElements, failAbove: TABLE_GROW_MAX_ELEMENTS };
  return null;
}

export function growCharge(m: RewriteInfo): OperandCharge {
  return { shift: MEMORY_PAGE_FUEL_LOG2, cap: m.maxMemoryPages, zeroLog2: GROW_ZERO_PAGES_LOG2 };
}

/**
 * Instructions with no operand to charge by that still call into the engine
 * (table.set, elem.drop, memory.atomic.notify: 50–150 ns each; throw,
 * rethrow, throw_ref at `THROW_FUEL`): a check of their own, so that a long
 * straight line (or a loop) of them reaches refuel.
 */
export function chargeEngineCall(m: ModuleInfo, w: Writer, fuel = ENGINE_CALL_FUEL): void {
  // The check first: writing it may grow (move) the buffer, so `w.buf` is read after it.
  const at = writeCheck(m, w, false);
  patchSleb5(w.buf, at, fuel);
  m.checksInserted++;
}

/**
 * `local.set $t; fuel -= charge($t); if fuel < 0 { fuel = refuel() }; local.get $t`:
 * the stack is as it was, and the host gets control before a long operation.
 */
export function chargeOperand(m: ModuleInfo, w: Writer, c: OperandCharge): void {
  const t = m.tempLocal;
  const f = m.fuelLocal;
  w.u8(0x21), w.uleb(t);
  if (f >= 0) w.u8(0x20), w.uleb(f);
  else w.u8(0x23), w.uleb(m.globals);
  w.u8(0x20), w.uleb(t);
  if (c.cap >= 0) {
    // select(t, cap, t < cap): the operand, counted up to the cap
    w.u8(0x41), sleb32(w, c.cap), w.u8(0x20), w.uleb(t), w.u8(0x41), sleb32(w, c.cap);
    w.u8(0x49), w.u8(0x1b); // i32.lt_u; select
  }
  if (c.zeroLog2 !== undefined) {
    // | (t == 0) << zeroLog2: only an empty operation counts as 2^zeroLog2
    w.u8(0x20), w.uleb(t), w.u8(0x45); // local.get t; i32.eqz
    if (c.zeroLog2 > 0) w.u8(0x41), w.u8(c.zeroLog2), w.u8(0x74); // i32.const k; i32.shl
    w.u8(0x72); // i32.or
  }
  w.u8(0xad); // i64.extend_i32_u
  if (c.shift !== 0) {
    w.u8(0x42), w.u8(Math.abs(c.shift));
    w.u8(c.shift < 0 ? 0x88 : 0x86); // i64.shr_u | i64.shl
  }
  w.u8(0x7d); // i64.sub
  if (f >= 0) w.u8(0x22), w.uleb(f);
  else w.u8(0x24), w.uleb(m.globals), w.u8(0x23), w.uleb(m.globals);
  writeRefuelIfNegative(m, w);
  if (c.failAbove !== undefined) {
    // select(t, -1, t <= failAbove): past it, an operand no table can take
    w.u8(0x20), w.uleb(t), w.u8(0x41), w.u8(0x7f);
    w.u8(0x20), w.uleb(t), w.u8(0x41), sleb32(w, c.failAbove), w.u8(0x4d), w.u8(0x1b); // i32.le_u; select
  } else w.u8(0x20), w.uleb(t);
  m.tempUsed = Math.max(m.tempUsed, 1);
  m.checksInserted++;
}

/** Signed LEB128 of an i32 constant given as an unsigned value below 2^32. */
export function sleb32(w: Writer, v: number): void {
  let x = v | 0;
  for (;;) {
    const byte = x & 0x7f;
    x >>= 7;
    if ((x === 0 && (byte & 0x40) === 0) || (x === -1 && (byte & 0x40) !== 0)) return w.u8(byte);
    w.u8(byte | 0x80);
  }
}
