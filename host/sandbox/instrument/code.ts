import type { RewriteInfo } from './additions.js';
import { chargeEngineCall, chargeOperand, fcCharge, growCharge, type OperandCharge } from './bulk.js';
import { exceptionOp, handlerGate } from './handlers.js';
import { chargeDirectCall, funcIndex, isAccessor } from './hostcalls.js';
import { reload, writeBack } from './fuel.js';
import { rareImmediates } from './immediates.js';
import { lebEnd, readLeb, skip } from './leb.js';
import { Imm, OP_IMM, OP_WEIGHT, fcWeight } from './opcodes.js';
import type { Reader } from './reader.js';
import { addSite, closeRegion, grow, openRegion, resetSites } from './regions.js';
import type { Writer } from './writer.js';

/** What the walker needs to know about the module being rewritten. */
export interface ModuleInfo {
  /** Function imports before ours: indices at or above this shift by +1. */
  funcImports: number;
  /** Globals (imported + defined) in the original module; our fuel global is this index. */
  globals: number;
  /** The fuel check, with `checkPatch` the offset of its 5-byte i64.const value. */
  check: Uint8Array;
  checkPatch: number;
  checksInserted: number;
  /** Parameter count of each defined function. */
  params: number[];
  /** Per memory (imported first): 1 if 64-bit, whose bulk lengths are i64 and charged a fixed weight. */
  memory64: Uint8Array;
  /** An i32 scratch local of the function being rewritten, for bulk-op lengths; -1 for none. */
  tempLocal: number;
  /** The i64 local holding the fuel counter in the function being rewritten; -1: use the global (fuel.ts). */
  fuelLocal: number;
  /** Set by the walker when it used `tempLocal`; the caller then declares it. */
  tempUsed: boolean;
}

/** Control frames: a `Frame`. Shared scratch, grown on demand. */
let frames = new Uint8Array(1024);
const enum Frame {
  Block = 0,
  /** A loop checked at its header. */
  Loop = 1,
  /** A loop checked at its back-edges (the branches to it); `frameRegion` holds its region. */
  BackEdgeLoop = 2,
}
let frameRegion = new Float64Array(1024);

/**
 * Copies one expression (a function body after its locals, or a constant
 * expression) from `r` to `w` up to and including its final `end`,
 * renumbering function indices and, if `instrument`, inserting a fuel check
 * at the start and for every loop: at its back-edges when the counter is in
 * a local and the loop's label takes no values, else after its header. A
 * region's cost is patched into its checks when the region closes. With a
 * fuel local (`m.fuelLocal`), it also writes the local back to the global
 * wherever control may leave the function and reloads it after calls; it
 * then returns false, having written garbage, if the body has an exception
 * handler (the caller retries with the global).
 *
 * The hot path keeps the position in a local and skips LEB128s inline (this
 * runs once per plugin load, mostly before the JIT has warmed up); rare
 * immediates go through the bounds-checked `Reader`. Reads past `end` are
 * caught at the top of the loop, so a truncated body fails, never hangs.
 */
export function rewriteExpr(m: RewriteInfo, r: Reader, w: Writer, instrument: boolean): boolean {
  const buf = r.buf;
  const local = instrument && m.fuelLocal >= 0;
  const end = r.limit;
  let p = r.pos;
  let from = p;
  let depth = 0;
  let regions = 0;
  let cost = 0;
  resetSites();
  if (instrument) regions = openRegion(m, w, regions, cost, true);
  /** Charges the operand on top of the stack before the instruction at `at` (bulk.ts). */
  let at = p;
  const chargeHere = (charge: OperandCharge): void => {
    if (m.tempLocal < 0) r.fail('too many locals to meter this instruction (the sandbox needs one more)', at);
    w.copy(buf, from, at);
    from = at;
    chargeOperand(m, w, charge);
  };
  /** A check of its own before the instruction at `at`: one that calls into the engine (bulk.ts). */
  const checkHere = (): void => {
    w.copy(buf, from, at);
    from = at;
    chargeEngineCall(m, w);
  };

  for (;;) {
    if (p >= end) r.fail(p === end ? 'expression has no final end' : 'instruction runs past the end', Math.min(p, end));
    at = p;
    const op = buf[p++]!;
    cost += OP_WEIGHT[op]!;
    switch (OP_IMM[op] as Imm) {
      case Imm.None:
        break;
      case Imm.Leb:
        p = skip(buf, p, end);
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
          if (local) {
            w.copy(buf, from, at);
            from = at;
            writeBack(m, w);
          }
          w.copy(buf, from, p);
          if (instrument) closeRegion(w, --regions, cost);
          r.pos = p;
          return true;
        }
        depth--;
        if (frames[depth] !== Frame.Block && instrument) cost = closeRegion(w, --regions, cost);
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
        frames = grow(frames, depth);
        frames[depth++] = 0;
        break;
      case Imm.Loop: {
        // A loop whose label takes no values can be checked where it branches back (see backEdge).
        const b = buf[p]!;
        const atEdges = local && b >= 0x40 && b < 0x80;
        p = blockType(r, p);
        frames = grow(frames, depth);
        frameRegion = grow(frameRegion, depth);
        frames[depth] = atEdges ? Frame.BackEdgeLoop : Frame.Loop;
        frameRegion[depth++] = regions;
        if (instrument) {
          w.copy(buf, from, p);
          from = p;
          regions = openRegion(m, w, regions, cost, !atEdges);
          cost = 0;
          handlerGate(m, w); // a try_table catch clause may land here
        }
        break;
      }
      case Imm.Catch:
        exceptionOp(m, r, op, at);
        if (op === 0x07) p = skip(buf, p, end);
        if (m.handlerGates) {
          w.copy(buf, from, p);
          from = p;
          handlerGate(m, w);
        }
        break;
      case Imm.Grow: // memory.grow, table.set
        p = skip(buf, p, end);
        if (instrument) {
          if (op === 0x40) chargeHere(growCharge(m));
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
        const sync = local && op !== 0xd2 && !accessor;
        if (instrument && accessor) {
          w.copy(buf, from, at);
          from = at;
          chargeDirectCall(m, w, idx);
        }
        if (sync) {
          w.copy(buf, from, at);
          writeBack(m, w);
          from = at;
        }
        const to = funcIndex(m, idx, op === 0x10);
        if (to !== idx) {
          w.copy(buf, from, p);
          w.uleb(to);
          from = lebEnd;
        }
        p = lebEnd;
        if (sync && op === 0x10) {
          w.copy(buf, from, p);
          from = p;
          reload(m, w);
        }
        break;
      }
      case Imm.Br: {
        const label = readLeb(buf, p);
        p = lebEnd;
        if (!local) break;
        if (label === depth) {
          w.copy(buf, from, at);
          from = at;
          writeBack(m, w);
        } else if (label < depth && frames[depth - 1 - label] === Frame.BackEdgeLoop) {
          w.copy(buf, from, at);
          from = at;
          const region = frameRegion[depth - 1 - label]!;
          if (op === 0x0d) {
            // br_if L  =>  if  <check>  br L+1  end: only a taken branch pays.
            w.u8(0x04), w.u8(0x40);
            addSite(m, w, region);
            w.u8(0x0c), w.uleb(label + 1);
            w.u8(0x0b);
            from = p;
          } else addSite(m, w, region); // br, br_on_null/non_null (charged taken or not)
        }
        break;
      }
      case Imm.Exit:
        if (local) {
          w.copy(buf, from, at);
          from = at;
          writeBack(m, w);
        }
        if (op >= 0x08 && op <= 0x0a) exceptionOp(m, r, op, at); // throw, rethrow, throw_ref
        if (op === 0x08 || op === 0x09 || op === 0x15) p = skip(buf, p, end);
        else if (op === 0x13) p = skip(buf, skip(buf, p, end), end);
        break;
      case Imm.CallIndirect:
        if (local) {
          w.copy(buf, from, at);
          from = at;
          writeBack(m, w);
        }
        p = skip(buf, p, end);
        if (op === 0x11) p = skip(buf, p, end);
        if (local) {
          w.copy(buf, from, p);
          from = p;
          reload(m, w);
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
        if (op === 0x0e && local) {
          w.copy(buf, from, at);
          from = at;
          brTable(m, w, buf, at + 1, depth);
        } else if (op === 0x1f) {
          exceptionOp(m, r, op, at);
          if (local) return false;
          frames = grow(frames, depth);
          frames[depth++] = 0;
        } else if (op === 0x18) {
          exceptionOp(m, r, op, at);
          if (depth === 0) r.fail('delegate outside a try', at);
          depth--;
          if (m.handlerGates) {
            w.copy(buf, from, p);
            from = p;
            handlerGate(m, w); // the try's label: a try_table catch clause may land here
          }
        } else if (op === 0xfc) {
          const sub = readLeb(buf, at + 1);
          cost += fcWeight(sub) - 1;
          const charge = instrument ? fcCharge(m, sub) : null;
          if (charge) chargeHere(charge);
          else if (instrument && sub === 13) checkHere(); // elem.drop
        } else if (op === 0xfe) {
          const sub = readLeb(buf, at + 1);
          // memory.atomic.wait32/64 block the thread for an operand's nanoseconds, out of the host's reach.
          if (sub === 1 || sub === 2) r.fail('memory.atomic.wait blocks the thread and is not supported by the sandbox', at);
          if (sub === 0 && instrument) checkHere(); // memory.atomic.notify
        }
    }
  }
}

/**
 * Before a br_table (immediates at `p`, already bounds-checked): a write-back
 * if a target leaves the function, and a check for each distinct back-edge
 * loop it targets (charged whichever target is taken: an upper bound).
 */
function brTable(m: ModuleInfo, w: Writer, buf: Uint8Array, p: number, depth: number): void {
  let leaves = false;
  const seen: number[] = [];
  const n = readLeb(buf, p);
  p = lebEnd;
  for (let i = 0; i <= n; i++) {
    const label = readLeb(buf, p);
    p = lebEnd;
    if (label === depth) leaves = true;
    else if (label < depth && frames[depth - 1 - label] === Frame.BackEdgeLoop) {
      const region = frameRegion[depth - 1 - label]!;
      if (!seen.includes(region)) seen.push(region);
    }
  }
  for (const region of seen) addSite(m, w, region);
  if (leaves) writeBack(m, w);
}

function blockType(r: Reader, p: number): number {
  const b = r.buf[p]!;
  if (b === 0x40 || (b >= 0x6f && b <= 0x7f)) return p + 1; // the common forms
  r.pos = p;
  r.skipBlockType();
  return r.pos;
}
