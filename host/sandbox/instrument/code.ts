import type { RewriteInfo } from './module-info.js';
import { brTable, catchLabels, tableLabels } from './branches.js';
import { chargeEngineCall, chargeOperand, fcCharge, growCharge, type OperandCharge } from './bulk.js';
import { pushCounter, writeBack, writeReloadCharge, writeResultCharge } from './fuel.js';
import { exceptionOp, handlerGate } from './handlers.js';
import { chargeDirectCall, funcIndex, isAccessor } from './hostcalls.js';
import { rareImmediates } from './immediates.js';
import { variantIndex } from './threaded.js';
import { lebEnd, readLeb, skip } from './leb.js';
import { Imm, OP_IMM, OP_WEIGHT, fcWeight } from './opcodes.js';
import type { Reader } from './reader.js';
import {
  AT_EDGES,
  PENDING,
  addCost,
  addSite,
  chargeHere,
  checkedBlock,
  finishBlocks,
  grow,
  isPending,
  newBlock,
  resetBlocks,
  setPatch,
} from './regions.js';
import type { Writer } from './writer.js';
import { UNCHECKED_MAX, type ModuleInfo } from './module-info.js';

export { UNCHECKED_MAX, type ModuleInfo } from './module-info.js';


/** Control frames: a `Frame`, with per-frame fuel-block state. Shared scratch, grown on demand. */
let frames = new Uint8Array(1024);
const enum Frame {
  Block = 0,
  /** A loop checked at its header. */
  Loop = 1,
  /** A loop checked at its back-edges (the branches to it); `frameBlock` holds its header block. */
  BackEdgeLoop = 2,
}
let frameBlock = new Float64Array(1024);
/** The fuel block that was running when the frame opened: resumed after its `end` unless control may have skipped it. */
let frameSaved = new Float64Array(1024);
/** The outermost frame index a branch inside this frame may reach (-1: out of the function); its own index if none. */
let frameEscape = new Float64Array(1024);
/** `unchecked` and `text` when the frame opened (see UNCHECKED_MAX). */
let frameUnchecked = new Float64Array(1024);
let frameText = new Float64Array(1024);


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
  const buf = r.buf;
  const local = instrument && m.fuelLocal >= 0;
  /** A variant (threaded.ts): the counter leaves as its last result, not through the global; its locals shift. */
  const threaded = local && m.threaded;
  const shift = threaded ? m.shiftLocals : -1;
  const end = r.limit;
  let p = r.pos;
  let from = p;
  let depth = 0;
  /** The running block; `cost` is what it has accrued since `cur` last changed. */
  let cur = -1;
  let cost = 0;
  let pending = false;
  /** Weight read so far, and an upper bound of the weight any path ran since a check (UNCHECKED_MAX). */
  let text = 0;
  let unchecked = 0;
  if (instrument) {
    resetBlocks();
    cur = checkedBlock(m, w, true);
  }
  /**
   * Ends the running block; the code from here on is a new block, charged
   * before its first instruction. `host`: a block that runs whenever the new
   * one does (-1: none, or dead code).
   */
  const next = (host: number): void => {
    addCost(cur, cost);
    cost = 0;
    cur = newBlock(PENDING, -1, host);
    pending = true;
  };
  /** Marks a branch out of the innermost frame to frame `target`. */
  const escape = (target: number): void => {
    if (depth > 0 && target < frameEscape[depth - 1]!) frameEscape[depth - 1] = target;
  };
  const open = (kind: Frame): void => {
    frames = grow(frames, depth);
    frameSaved = grow(frameSaved, depth);
    frameEscape = grow(frameEscape, depth);
    frameBlock = grow(frameBlock, depth);
    frameUnchecked = grow(frameUnchecked, depth);
    frameText = grow(frameText, depth);
    frames[depth] = kind;
    frameSaved[depth] = cur;
    frameEscape[depth] = depth;
    frameUnchecked[depth] = unchecked;
    frameText[depth] = text;
    depth++;
  };
  /**
   * Where control may arrive from anywhere inside frame `k` (its end, an
   * arm): at most what ran before the frame, plus all of the frame so far
   * (checks inside it may have been skipped).
   */
  const uncheckedAcross = (k: number): number => frameUnchecked[k]! + text - frameText[k]!;
  /** After a call returns: the reload of the local (from the global, or a variant's result) fused with the next block's charge. */
  const afterCall = (fromResult: boolean): void => {
    addCost(cur, cost);
    cost = 0;
    const host = cur;
    if (!local) return next(host);
    cur = newBlock(PENDING, -1, host);
    setPatch(cur, fromResult ? writeResultCharge(m, w) : writeReloadCharge(m, w));
    pending = false;
  };
  /** Charges the operand on top of the stack before the instruction at `at` (bulk.ts). */
  let at = p;
  const chargeOperandHere = (charge: OperandCharge): void => {
    if (m.tempLocal < 0) r.fail('too many locals to meter this instruction (the sandbox needs one more)', at);
    w.copy(buf, from, at);
    from = at;
    chargeOperand(m, w, charge);
    unchecked = 0; // a check
  };
  /** A check of its own before the instruction at `at`: one that calls into the engine (bulk.ts). */
  const checkHere = (): void => {
    w.copy(buf, from, at);
    from = at;
    chargeEngineCall(m, w);
    unchecked = 0;
  };

  for (;;) {
    if (p >= end) r.fail(p === end ? 'expression has no final end' : 'instruction runs past the end', Math.min(p, end));
    at = p;
    const op = buf[p++]!;
    const weight = OP_WEIGHT[op]!;
    if (instrument && weight !== 0 && unchecked > UNCHECKED_MAX) {
      // A block of its own charged by a check: it runs whenever the running block does.
      w.copy(buf, from, at);
      from = at;
      addCost(cur, cost);
      cost = 0;
      cur = checkedBlock(m, w, false);
      pending = false;
      unchecked = 0;
    }
    text += weight;
    unchecked += weight;
    if (pending && weight !== 0) {
      w.copy(buf, from, at);
      from = at;
      chargeHere(m, w, cur);
      pending = false;
    }
    cost += weight;
    switch (OP_IMM[op] as Imm) {
      case Imm.None:
        break;
      case Imm.Leb:
        if (shift >= 0 && op >= 0x20 && op <= 0x22) {
          // local.get/set/tee in a variant: the counter parameter sits after the function's own parameters.
          const idx = readLeb(buf, p);
          if (idx >= shift) {
            w.copy(buf, from, p);
            w.uleb(idx + 1);
            from = lebEnd;
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
        if (depth === 0) {
          if (local && !threaded) {
            w.copy(buf, from, at);
            from = at;
            writeBack(m, w);
          }
          w.copy(buf, from, p);
          if (instrument) {
            addCost(cur, cost);
            finishBlocks(w);
          }
          r.pos = p;
          return true;
        }
        depth--;
        if (instrument) closeFrame(depth);
        unchecked = uncheckedAcross(depth);
        if (m.handlerGates) {
          w.copy(buf, from, p);
          from = p;
          handlerGate(m, w); // a try_table catch clause may land here
        }
        break;
      case Imm.Block:
        if (op === 0x06) {
          exceptionOp(m, r, op, at);
          if (local) return false; // try
        }
        p = blockType(r, p);
        open(Frame.Block);
        if (op === 0x04 && instrument) next(cur); // the then-arm
        break;
      case Imm.Arm: // else, catch, catch_all
        if (op !== 0x05) exceptionOp(m, r, op, at);
        if (op === 0x07) p = skip(buf, p, end);
        if (op !== 0x05 && m.handlerGates) {
          w.copy(buf, from, p);
          from = p;
          handlerGate(m, w);
        }
        if (instrument) next(op === 0x05 ? frameSaved[depth - 1]! : -1); // a handler runs only on a throw
        unchecked = uncheckedAcross(depth - 1);
        break;
      case Imm.Loop: {
        // A loop whose label takes no values can be checked where it branches back (see backEdge).
        const b = buf[p]!;
        const atEdges = local && b >= 0x40 && b < 0x80;
        p = blockType(r, p);
        if (instrument && pending) {
          // The block entering the loop pays for the first iteration: it needs a charge of its own.
          w.copy(buf, from, at);
          from = at;
          chargeHere(m, w, cur);
          pending = false;
        }
        open(atEdges ? Frame.BackEdgeLoop : Frame.Loop);
        if (instrument) {
          w.copy(buf, from, p);
          from = p;
          addCost(cur, cost);
          cost = 0;
          cur = atEdges ? newBlock(AT_EDGES, cur) : checkedBlock(m, w, false);
          frameBlock[depth - 1] = cur;
          if (!atEdges) unchecked = 0;
          handlerGate(m, w); // a try_table catch clause may land here
        }
        break;
      }
      case Imm.Grow: // memory.grow, table.set
        p = skip(buf, p, end);
        if (instrument) {
          if (op === 0x40) chargeOperandHere(growCharge(m));
          else checkHere();
        }
        break;
      case Imm.Leb2:
        p = skip(buf, skip(buf, p, end), end);
        break;
      case Imm.Func: {
        const idx = readLeb(buf, p);
        // Calls to imports sync too (most go through a wrapper that charges the global, hostcalls.ts),
        // except direct calls to Extism's accessors, which are charged inline and never run wasm.
        const accessor = op === 0x10 && isAccessor(m, idx);
        // A direct call (or, from a variant, a tail call) to a function with a variant hands it the counter.
        if (op === 0x12) m.tailCalls = true;
        if (op === 0x12 && threaded) return false; // see RewriteInfo.tailCalls
        const variant = local && op === 0x10 ? variantIndex(m, idx) : -1;
        const sync = local && op !== 0xd2 && !accessor && variant < 0;
        if (instrument && accessor) {
          w.copy(buf, from, at);
          from = at;
          chargeDirectCall(m, w, idx);
          unchecked = 0; // a check
        }
        if (sync || variant >= 0) {
          w.copy(buf, from, at);
          if (sync) writeBack(m, w);
          else pushCounter(m, w);
          from = at;
        }
        const to = variant >= 0 ? variant : funcIndex(m, idx, op === 0x10);
        if (to !== idx) {
          w.copy(buf, from, p);
          w.uleb(to);
          from = lebEnd;
        }
        p = lebEnd;
        // An accessor returns without running wasm and leaves the local current: its block goes on.
        if (op === 0x10 && instrument && !accessor) {
          w.copy(buf, from, p);
          from = p;
          afterCall(variant >= 0);
        } else if (op === 0x12 && instrument) {
          escape(-1);
          next(-1);
        }
        break;
      }
      case Imm.Br: {
        const label = readLeb(buf, p);
        p = lebEnd;
        if (!instrument) break;
        escape(depth - 1 - label);
        if (local && !threaded && label === depth) {
          w.copy(buf, from, at);
          from = at;
          writeBack(m, w);
        } else if (local && label < depth && frames[depth - 1 - label] === Frame.BackEdgeLoop) {
          w.copy(buf, from, at);
          from = at;
          const header = frameBlock[depth - 1 - label]!;
          if (op === 0x0d) {
            // br_if L  =>  if  <check>  br L+1  end: only a taken branch pays.
            w.u8(0x04), w.u8(0x40);
            addSite(m, w, header);
            w.u8(0x0c), w.uleb(label + 1);
            w.u8(0x0b);
            from = p;
          } else addSite(m, w, header); // br, br_on_null/non_null (charged taken or not)
        }
        next(op === 0x0c ? -1 : cur); // the fall-through (dead code after br)
        break;
      }
      case Imm.Exit:
        if (op === 0x13 || op === 0x15) {
          m.tailCalls = true;
          if (threaded) return false; // see RewriteInfo.tailCalls
        }
        if (local) {
          w.copy(buf, from, at);
          from = at;
          if (threaded && op === 0x0f) pushCounter(m, w);
          else writeBack(m, w);
        }
        if (op >= 0x08 && op <= 0x0a) exceptionOp(m, r, op, at); // throw, rethrow, throw_ref
        if (op === 0x08 || op === 0x09 || op === 0x15) p = skip(buf, p, end);
        else if (op === 0x13) p = skip(buf, skip(buf, p, end), end);
        if (instrument) {
          if (op !== 0x00) escape(-1); // a trap ends the call: it skips nothing that matters
          next(-1);
        }
        break;
      case Imm.CallIndirect:
        if (local) {
          w.copy(buf, from, at);
          from = at;
          writeBack(m, w);
        }
        p = skip(buf, p, end);
        if (op === 0x11) p = skip(buf, p, end);
        if (instrument) {
          w.copy(buf, from, p);
          from = p;
          afterCall(false);
        }
        break;
      case Imm.Bytes4:
        p += 4;
        break;
      case Imm.Bytes8:
        p += 8;
        break;
      default:
        r.pos = p;
        rareImmediates(r, op, at);
        p = r.pos;
        if (op === 0x0e) {
          if (!instrument) break;
          for (const label of tableLabels(buf, at + 1)) escape(depth - 1 - label);
          if (local) {
            w.copy(buf, from, at);
            from = brTable(m, w, buf, at + 1, depth, (d) => frames[d] === Frame.BackEdgeLoop, (d) => frameBlock[d]!) ? p : at;
          }
          next(-1);
        } else if (op === 0x1f) {
          exceptionOp(m, r, op, at);
          if (local) return false;
          open(Frame.Block);
          if (instrument) for (const label of catchLabels(r, at + 1)) escape(depth - 2 - label);
        } else if (op === 0x18) {
          exceptionOp(m, r, op, at);
          if (depth === 0) r.fail('delegate outside a try', at);
          depth--;
          unchecked = uncheckedAcross(depth);
          if (m.handlerGates) {
            w.copy(buf, from, p);
            from = p;
            handlerGate(m, w); // the try's label: a try_table catch clause may land here
          }
          if (instrument) {
            escape(-1);
            next(-1);
          }
        } else if (op === 0xfc) {
          const sub = readLeb(buf, at + 1);
          cost += fcWeight(sub) - 1;
          text += fcWeight(sub) - 1;
          unchecked += fcWeight(sub) - 1;
          const charge = instrument ? fcCharge(m, sub) : null;
          if (charge) chargeOperandHere(charge);
          else if (instrument && sub === 13) checkHere(); // elem.drop
        } else if (op === 0xfe) {
          const sub = readLeb(buf, at + 1);
          // memory.atomic.wait32/64 block the thread for an operand's nanoseconds, out of the host's reach.
          if (sub === 1 || sub === 2) r.fail('memory.atomic.wait blocks the thread and is not supported by the sandbox', at);
          if (sub === 0 && instrument) checkHere(); // memory.atomic.notify
        }
    }
  }

  /**
   * After frame `k`'s `end`: if nothing inside it may have branched past its
   * end, the code that follows runs whenever the block that opened the frame
   * ran, so that block pays for it; otherwise it is a block of its own.
   */
  function closeFrame(k: number): void {
    addCost(cur, cost);
    cost = 0;
    const reach = frameEscape[k]!;
    if (k > 0 && reach < frameEscape[k - 1]!) frameEscape[k - 1] = reach;
    if (reach < k) {
      cur = newBlock(PENDING, -1, frameSaved[k]!);
      pending = true;
    } else {
      cur = frameSaved[k]!;
      pending = isPending(cur);
    }
  }
}

function blockType(r: Reader, p: number): number {
  const b = r.buf[p]!;
  if (b === 0x40 || (b >= 0x6f && b <= 0x7f)) return p + 1; // the common forms
  r.pos = p;
  r.skipBlockType();
  return r.pos;
}
