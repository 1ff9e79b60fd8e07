/**
 * The exact-count reference mode (`instrument(wasm, { metering: 'exact' })`):
 * every instruction charges its own weight to the fuel global just before it
 * runs, so the fuel a call reports is exactly the weighted count of the
 * instructions it executed (plus the run-time length charges of bulk memory
 * operations, as in the fast mode). Slow (four added instructions per
 * instruction, the counter in memory): it is the oracle the fast block rule
 * is measured against, not something to run plugins under.
 *
 * Deliberately independent of the fast walker (code.ts): it shares only the
 * opcode tables and the emitters of the refuel check and the bulk charge.
 * The refuel check (a test, charging nothing) sits at every function entry
 * and loop header, so the host regains control as often as in the fast mode.
 */
import { bulkLengthIsI32, chargeBulkLength } from './bulk.js';
import type { ModuleInfo } from './code.js';
import { rareImmediates } from './immediates.js';
import { lebEnd, readLeb } from './leb.js';
import { Imm, OP_IMM, OP_WEIGHT, fcWeight } from './opcodes.js';
import type { Reader } from './reader.js';
import { patchSleb5, type Writer } from './writer.js';

/** Rewrites one function body (after its locals) in exact mode; `m.fuelLocal` must be -1. */
export function rewriteExprExact(m: ModuleInfo, r: Reader, w: Writer): void {
  const buf = r.buf;
  let depth = 0;
  check(m, w);
  for (;;) {
    if (r.pos >= r.limit) r.fail('expression has no final end', r.limit);
    const at = r.pos;
    const op = buf[r.pos++]!;
    let weight = OP_WEIGHT[op]!;
    if (op === 0xfc) weight = fcWeight(readLeb(buf, r.pos));
    if (weight > 0) charge(m, w, weight);
    let renumber = -1;
    switch (OP_IMM[op] as Imm) {
      case Imm.None:
      case Imm.Exit:
        if (op === 0x08 || op === 0x15) r.skipLeb();
        else if (op === 0x13) r.skipLeb(), r.skipLeb();
        break;
      case Imm.Leb:
      case Imm.Br:
      case Imm.Arm:
        if (op !== 0x05 && op !== 0x19) r.skipLeb();
        break;
      case Imm.Leb2:
        r.skipLeb(), r.skipLeb();
        break;
      case Imm.CallIndirect:
        r.skipLeb();
        if (op === 0x11) r.skipLeb();
        break;
      case Imm.MemArg:
        if (r.u32() & 0x40) r.skipLeb();
        r.skipLeb();
        break;
      case Imm.Global:
        if (r.u32() >= m.globals) r.fail('global index out of range', at);
        break;
      case Imm.Func: {
        const idx = r.u32();
        if (idx >= m.funcImports) renumber = idx;
        break;
      }
      case Imm.Block:
      case Imm.Loop:
        r.skipBlockType();
        depth++;
        break;
      case Imm.End:
        w.copy(buf, at, r.pos);
        if (depth-- === 0) return;
        continue;
      case Imm.Bytes4:
        r.skip(4);
        break;
      case Imm.Bytes8:
        r.skip(8);
        break;
      default:
        rareImmediates(r, op, at);
        if (op === 0x1f) depth++;
        else if (op === 0x18) depth--;
        else if (op === 0xfc) {
          const sub = readLeb(buf, at + 1);
          if (m.tempLocal >= 0 && bulkLengthIsI32(m, buf, sub, lebEnd)) chargeBulkLength(m, w);
        }
    }
    if (renumber >= 0) {
      w.u8(op);
      w.uleb(renumber + 1);
    } else w.copy(buf, at, r.pos);
    if (op === 0x03) check(m, w);
  }
}

/** `global -= weight`. */
function charge(m: ModuleInfo, w: Writer, weight: number): void {
  w.u8(0x23), w.uleb(m.globals);
  w.u8(0x42);
  if (weight < 64) w.u8(weight);
  else w.u8((weight & 0x7f) | 0x80), w.u8(weight >> 7); // weights stay below 8192
  w.u8(0x7d);
  w.u8(0x24), w.uleb(m.globals);
}

/** The global-mode check, charging 0: refuel if the counter is negative. */
function check(m: ModuleInfo, w: Writer): void {
  const at = w.pos + m.checkPatch;
  w.bytes(m.check);
  patchSleb5(w.buf, at, 0);
  m.checksInserted++;
}
