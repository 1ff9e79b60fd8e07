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
 * opcode tables and the emitters of the refuel check, the operand charges
 * (bulk.ts), the host-call charges and renumbering (hostcalls.ts) and the
 * exception-handling policy and gates (handlers.ts), so that both modes
 * charge the same run-time costs and enforce the same guarantees. The refuel
 * check (a test, charging nothing) sits at every function entry and loop
 * header, so the host regains control as often as in the fast mode.
 */
import type { RewriteInfo } from './module-info.js';
import { TOO_MANY_LOCALS, chargeEngineCall, chargeOperand, fcCharge, growCharge, type OperandCharge } from './bulk.js';
import { NO_ROOM_TO_SPLIT, writeBulk } from './chunks.js';
import { UNCHECKED_MAX, type ModuleInfo } from './module-info.js';
import { exceptionOp, handlerGate } from './handlers.js';
import { GateKind, chargeDirectCall, funcIndex, isAccessor, writeGateCall } from './hostcalls.js';
import { rareImmediates } from './immediates.js';
import { readLeb } from './leb.js';
import { Imm, LOOP_DEPTH_MESSAGE, MAX_LOOP_DEPTH, OP_IMM, OP_WEIGHT, THROW_FUEL, fcWeight, fdWeight, feWeight } from './opcodes.js';
import type { Reader } from './reader.js';
import { hintUnlikely } from './hints.js';
import { patchSleb5, type Writer } from './writer.js';

/** Rewrites one function body (after its locals) in exact mode; `m.fuelLocal` must be -1. */
export function rewriteExprExact(m: RewriteInfo, r: Reader, w: Writer): void {
  const buf = r.buf;
  let depth = 0;
  /** Per open frame: is it a loop; and how many are (MAX_LOOP_DEPTH). */
  const loops: boolean[] = [];
  let loopDepth = 0;
  // As in the fast walker (UNCHECKED_MAX): a test once the weight since the last check may exceed the cap.
  let text = 0;
  let unchecked = 0;
  const frames: number[] = []; // per open frame: unchecked, text
  const across = (): number => frames[frames.length - 2]! + text - frames[frames.length - 1]!;
  check(m, w);
  if (m.localsFuel > 0) chargeEngineCall(m, w, m.localsFuel); // the frame's locals, zeroed at every call
  for (;;) {
    if (r.pos >= r.limit) r.fail('expression has no final end', r.limit);
    const at = r.pos;
    const op = buf[r.pos++]!;
    let weight = OP_WEIGHT[op]!;
    if (op === 0xfc) weight = fcWeight(readLeb(buf, r.pos));
    else if (op === 0xfd) weight = fdWeight(readLeb(buf, r.pos));
    else if (op === 0xfe) weight = feWeight(readLeb(buf, r.pos));
    if (weight > 0) {
      charge(m, w, weight);
      if (unchecked > UNCHECKED_MAX) check(m, w), (unchecked = 0);
      text += weight;
      unchecked += weight;
    }
    if (op === 0x02 || op === 0x03 || op === 0x04 || op === 0x06 || op === 0x1f) frames.push(unchecked, text);
    let renumber = -1;
    /** A handler may resume right after this instruction (handlers.ts). */
    let gate = false;
    switch (OP_IMM[op] as Imm) {
      case Imm.None:
      case Imm.Exit:
        // throw, rethrow, throw_ref: charged as what the engine spends on one (opcodes.ts THROW_FUEL).
        if (op >= 0x08 && op <= 0x0a) exceptionOp(m, r, op, at), chargeEngineCall(m, w, THROW_FUEL), writeGateCall(m, w, GateKind.Throw), (unchecked = 0);
        if (op === 0x08 || op === 0x09 || op === 0x15) r.skipLeb();
        else if (op === 0x13) r.skipLeb(), r.skipLeb();
        break;
      case Imm.Arm:
        if (op !== 0x05) exceptionOp(m, r, op, at), (gate = true); // catch, catch_all
        if (op === 0x07) r.skipLeb();
        unchecked = across();
        break;
      case Imm.Grow: // memory.grow: by its operand; table.set: a check of its own
        r.skipLeb();
        if (op === 0x40) operand(m, r, w, growCharge(m), at);
        else chargeEngineCall(m, w);
        unchecked = 0;
        break;
      case Imm.Leb:
      case Imm.Br:
        r.skipLeb();
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
        if (op === 0x10 && isAccessor(m, idx)) chargeDirectCall(m, w, idx), (unchecked = 0);
        renumber = funcIndex(m, idx, op === 0x10);
        break;
      }
      case Imm.Block:
      case Imm.Loop:
        if (op === 0x06) exceptionOp(m, r, op, at);
        r.skipBlockType();
        depth++;
        loops.push(op === 0x03);
        if (op === 0x03 && ++loopDepth > MAX_LOOP_DEPTH) r.fail(LOOP_DEPTH_MESSAGE, at);
        break;
      case Imm.End:
        w.copy(buf, at, r.pos);
        if (depth-- === 0) return;
        if (loops.pop()) loopDepth--;
        unchecked = across();
        frames.length -= 2;
        handlerGate(m, w); // a try_table catch clause may land here
        continue;
      case Imm.Bytes4:
        r.skip(4);
        break;
      case Imm.Bytes8:
        r.skip(8);
        break;
      default:
        rareImmediates(r, op, at);
        if (op === 0x1f) exceptionOp(m, r, op, at), depth++, loops.push(false);
        else if (op === 0x18) {
          exceptionOp(m, r, op, at), depth--, loops.pop(), (gate = true);
          unchecked = across();
          frames.length -= 2;
        } else if (op === 0xfc) {
          const sub = readLeb(buf, at + 1);
          const c = fcCharge(m, sub);
          if (c) {
            if (m.tempLocal < 0) r.fail(TOO_MANY_LOCALS, at);
            if (!writeBulk(m, w, buf, at, r.pos, c)) r.fail(NO_ROOM_TO_SPLIT, at);
            unchecked = 0;
            continue;
          } else if (sub === 13) chargeEngineCall(m, w), (unchecked = 0); // elem.drop
        } else if (op === 0xfe) {
          const sub = readLeb(buf, at + 1);
          if (sub === 1 || sub === 2) r.fail('memory.atomic.wait blocks the thread and is not supported by the sandbox', at);
          if (sub === 0 || sub === 3) chargeEngineCall(m, w), (unchecked = 0); // memory.atomic.notify, atomic.fence
        }
    }
    if (renumber >= 0) {
      w.u8(op);
      w.uleb(renumber);
    } else w.copy(buf, at, r.pos);
    if (op === 0x03) check(m, w), (unchecked = 0);
    if (op === 0x03 || gate) handlerGate(m, w);
  }
}

/** The run-time charge of the operand on top of the stack (bulk.ts), before the instruction at `at`. */
function operand(m: RewriteInfo, r: Reader, w: Writer, c: OperandCharge, at: number): void {
  if (m.tempLocal < 0) r.fail(TOO_MANY_LOCALS, at);
  chargeOperand(m, w, c);
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
  hintUnlikely(w.pos + m.checkIf);
  w.bytes(m.check);
  patchSleb5(w.buf, at, 0);
  m.checksInserted++;
}
