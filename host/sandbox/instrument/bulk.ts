import type { ModuleInfo } from './code.js';
import { writeRefuelIfNegative } from './fuel.js';
import { lebEnd, readLeb } from './leb.js';
import { BULK_BYTES_PER_FUEL_LOG2 } from './opcodes.js';
import type { Writer } from './writer.js';

/**
 * memory.init (8), memory.copy (10) and memory.fill (11) cost in proportion
 * to their length, which is on top of the stack: charge it there, when the
 * length is an i32 (memory.init's always is; memory.copy's is unless both
 * memories are 64-bit).
 */
export function bulkLengthIsI32(m: ModuleInfo, buf: Uint8Array, sub: number, p: number): boolean {
  if (sub === 8) return true;
  if (sub === 10) {
    const dst = readLeb(buf, p);
    return !m.memory64[dst] || !m.memory64[readLeb(buf, lebEnd)];
  }
  return sub === 11 && !m.memory64[readLeb(buf, p)];
}

/**
 * `local.set $t; fuel -= $t >> 4; if fuel < 0 { fuel = refuel() }; local.get $t`:
 * the stack is as it was, and the host gets control before a long fill or copy.
 */
export function chargeBulkLength(m: ModuleInfo, w: Writer): void {
  const t = m.tempLocal;
  const f = m.fuelLocal;
  w.u8(0x21), w.uleb(t);
  if (f >= 0) w.u8(0x20), w.uleb(f);
  else w.u8(0x23), w.uleb(m.globals);
  w.u8(0x20), w.uleb(t);
  w.u8(0xad); // i64.extend_i32_u
  w.u8(0x42), w.u8(BULK_BYTES_PER_FUEL_LOG2);
  w.u8(0x88); // i64.shr_u
  w.u8(0x7d); // i64.sub
  if (f >= 0) w.u8(0x22), w.uleb(f);
  else w.u8(0x24), w.uleb(m.globals), w.u8(0x23), w.uleb(m.globals);
  writeRefuelIfNegative(m, w);
  w.u8(0x20), w.uleb(t);
  m.tempUsed = true;
  m.checksInserted++;
}
