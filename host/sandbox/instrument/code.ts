import { addSite, AT_EDGES, chargeHere, checkedBlock, finishBlocks, newBlock, resetBlocks, addCost } from './regions.js';
import { writeBack } from './fuel.js';
import { exceptionOp, handlerGate } from './handlers.js';
import { lebEnd, readLeb, skip } from './leb.js';
import { UNCHECKED_MAX, type RewriteInfo } from './module-info.js';
import { Imm, OP_IMM, OP_WEIGHT } from './opcodes.js';
import type { Reader } from './reader.js';
import { Frame, Walk, blockType } from './walk.js';
import { walkCallIndirect, walkExit, walkFunc } from './walk-calls.js';
import { walkGrow, walkRare } from './walk-rare.js';
import { chargeEngineCall } from './bulk.js';
import { constArithmetic } from './counts.js';
import { CONST_ARITHMETIC } from './tables.js';
import type { Writer } from './writer.js';

export { UNCHECKED_MAX } from './module-info.js';

/**
 * Copies one expression (a function body after its locals, or a constant
 * expression) from `r` to `w` up to and including its final `end`,
 * renumbering function indices and, if `instrument`, charging fuel by the
 * block rule (regions.ts): each straight-line block is charged once when it
 * is entered, with a check (subtract and compare) at the function entry and
 * at each loop's back-edges (or header) and a plain decrement elsewhere.
 * With a fuel local (`m.fuelLocal`), it also writes the local back to the
 * global wherever control may leave the function and reloads it after calls;
 * it then returns false, having written garbage, if the body has an
 * exception handler (the caller retries with the global).
 *
 * The hot path keeps the position in a local and skips LEB128s inline (this
 * runs once per plugin load, mostly before the JIT has warmed up); rare
 * immediates go through the bounds-checked `Reader`. Reads past `end` are
 * caught at the top of the loop, so a truncated body fails, never hangs.
 */
export function rewriteExpr(m: RewriteInfo, r: Reader, w: Writer, instrument: boolean): boolean {
  const s = new Walk(m, r, w, instrument);
  const { buf, end, local, threaded, shift } = s;
  let p = s.p;
  if (instrument) {
    resetBlocks();
    s.cur = checkedBlock(m, w, true);
    // The frame's locals, zeroed at every call: a check of their own, so the entry's cost stays the code's.
    if (m.localsFuel > 0) chargeEngineCall(m, w, m.localsFuel);
  }
  for (;;) {
    if (p >= end) r.fail(p === end ? 'expression has no final end' : 'instruction runs past the end', Math.min(p, end));
    const at = (s.at = p);
    const op = buf[p++]!;
    if (!instrument && CONST_ARITHMETIC.has(op)) constArithmetic(m, r, 1, at);
    const weight = OP_WEIGHT[op]!;
    if (instrument && weight !== 0 && s.unchecked > UNCHECKED_MAX) s.forcedCheck();
    s.text += weight;
    s.unchecked += weight;
    if (s.pending && weight !== 0) {
      s.flush(at);
      chargeHere(m, w, s.cur);
      s.pending = false;
    }
    s.cost += weight;
    switch (OP_IMM[op] as Imm) {
      case Imm.None:
        break;
      case Imm.Leb:
        if (shift >= 0 && op >= 0x20 && op <= 0x22) {
          // local.get/set/tee in a variant: the counter parameter sits after the function's own parameters.
          const idx = readLeb(buf, p);
          if (idx >= shift) {
            s.flush(p);
            w.uleb(idx + 1);
            s.from = lebEnd;
          }
          p = lebEnd;
        } else p = skip(buf, p, end);
        break;
      case Imm.MemArg: {
        let align = buf[p++]!;
        if (align & 0x80) {
          align = readLeb(buf, p - 1);
          p = lebEnd;
        }
        if (align & 0x40) p = skip(buf, p, end); // memory index (multi-memory)
        p = skip(buf, p, end); // offset
        break;
      }
      case Imm.Global: {
        let idx = buf[p++]!;
        if (idx & 0x80) {
          idx = readLeb(buf, p - 1);
          p = lebEnd;
        }
        if (idx >= m.globals) r.fail('global index out of range', at);
        break;
      }
      case Imm.End:
        if (s.depth === 0) {
          if (local && !threaded) {
            s.flush(at);
            writeBack(m, w);
          }
          s.flush(p);
          if (instrument) {
            addCost(s.cur, s.cost);
            finishBlocks(w);
          }
          r.pos = p;
          return true;
        }
        s.leave();
        if (instrument) s.closeFrame(s.depth);
        s.unchecked = s.uncheckedAtEnd(s.depth);
        if (m.handlerGates) {
          s.flush(p);
          handlerGate(m, w); // a try_table catch clause may land here
        }
        break;
      case Imm.Block:
        if (op === 0x06) {
          exceptionOp(m, r, op, at);
          if (local) return false; // try
        }
        p = blockType(r, p);
        s.open(Frame.Block, op === 0x04);
        if (op === 0x04 && instrument) s.next(s.cur); // the then-arm
        break;
      case Imm.Arm: // else, catch, catch_all
        if (op !== 0x05) exceptionOp(m, r, op, at);
        if (op === 0x07) p = skip(buf, p, end);
        if (op !== 0x05 && m.handlerGates) {
          s.flush(p);
          handlerGate(m, w);
        }
        if (instrument) s.next(op === 0x05 ? s.saved(s.depth - 1) : -1); // a handler runs only on a throw
        s.unchecked = s.uncheckedAtArm(s.depth - 1);
        break;
      case Imm.Loop: {
        // A loop whose label takes no values can be checked where it branches back (see Imm.Br).
        const b = buf[p]!;
        const atEdges = local && b >= 0x40 && b < 0x80;
        p = blockType(r, p);
        if (instrument && s.pending) {
          // The block entering the loop pays for the first iteration: it needs a charge of its own.
          s.flush(at);
          chargeHere(m, w, s.cur);
          s.pending = false;
        }
        s.open(atEdges ? Frame.BackEdgeLoop : Frame.Loop);
        if (instrument) {
          s.flush(p);
          addCost(s.cur, s.cost);
          s.cost = 0;
          s.cur = atEdges ? newBlock(AT_EDGES, s.cur) : checkedBlock(m, w, false);
          s.setHeader(s.depth - 1, s.cur);
          if (!atEdges) s.unchecked = 0;
          handlerGate(m, w); // a try_table catch clause may land here
        }
        break;
      }
      case Imm.Leb2:
        p = skip(buf, skip(buf, p, end), end);
        break;
      case Imm.Br: {
        const label = readLeb(buf, p);
        p = lebEnd;
        if (!instrument) break;
        const target = s.depth - 1 - label;
        s.escape(target);
        s.branch(target);
        if (local && !threaded && label === s.depth) {
          s.flush(at);
          writeBack(m, w);
        } else if (local && label < s.depth && s.kind(target) === Frame.BackEdgeLoop) {
          s.flush(at);
          if (op === 0x0d) {
            // br_if L  =>  if  <check>  br L+1  end: only a taken branch pays.
            w.u8(0x04), w.u8(0x40);
            addSite(m, w, s.header(target), s.tight(target));
            w.u8(0x0c), w.uleb(label + 1);
            w.u8(0x0b);
            s.from = p;
          } else addSite(m, w, s.header(target), s.tight(target)); // br, br_on_null/non_null (charged taken or not)
        }
        s.next(op === 0x0c ? -1 : s.cur); // the fall-through (dead code after br)
        if (op === 0x0c) s.dead();
        break;
      }
      case Imm.Bytes4:
        p += 4;
        break;
      case Imm.Bytes8:
        p += 8;
        break;
      default:
        // Calls, exits and the rare opcodes: handled with the position in `s`.
        s.p = p;
        if (!walkOther(s, op)) return false;
        p = s.p;
    }
  }
}

function walkOther(s: Walk, op: number): boolean {
  switch (OP_IMM[op] as Imm) {
    case Imm.Func:
      return walkFunc(s, op);
    case Imm.Exit:
      return walkExit(s, op);
    case Imm.CallIndirect:
      walkCallIndirect(s, op);
      return true;
    case Imm.Grow: // memory.grow, table.set
      walkGrow(s, op);
      return true;
    default:
      return walkRare(s, op);
  }
}
