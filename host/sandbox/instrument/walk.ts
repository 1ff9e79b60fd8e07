/**
 * The state of the walker (code.ts) over one expression, and what the
 * instruction handlers do with it: the control frames, the running fuel
 * block (regions.ts) and the bounds of UNCHECKED_MAX. One object per
 * expression; the frame stacks are shared scratch, grown on demand.
 */
import { TOO_MANY_LOCALS, chargeEngineCall, chargeOperand, type OperandCharge } from './bulk.js';
import { NO_ROOM_TO_SPLIT, writeBulk } from './chunks.js';
import { writeReload, writeResultReload } from './fuel.js';
import type { RewriteInfo } from './module-info.js';
import type { Reader } from './reader.js';
import { PENDING, addCost, checkedBlock, grow, isPending, newBlock } from './regions.js';
import type { Writer } from './writer.js';
import { LOOP_DEPTH_MESSAGE, MAX_LOOP_DEPTH } from './opcodes.js';

export const enum Frame {
  Block = 0,
  /** A loop checked at its header. */
  Loop = 1,
  /** A loop checked at its back-edges (the branches to it); `frameBlock` holds its header block. */
  BackEdgeLoop = 2,
}

/** Control frames: a `Frame`, with per-frame fuel-block state. */
let frames = new Uint8Array(1024);
let frameBlock = new Float64Array(1024);
/** The fuel block that was running when the frame opened: resumed after its `end` unless control may have skipped it. */
let frameSaved = new Float64Array(1024);
/** The outermost frame index a branch inside this frame may reach (-1: out of the function); its own index if none. */
let frameEscape = new Float64Array(1024);
/** `unchecked` and `text` when the frame opened (see UNCHECKED_MAX). */
let frameUnchecked = new Float64Array(1024);
let frameText = new Float64Array(1024);
/** The most `unchecked` of the branches to a block's (or an `if`'s) label so far; -Infinity for none. See `Walk.precise`. */
let frameReach = new Float64Array(1024);
/** 1 while the frame is an `if` that has had no `else`: its end is also reached straight from the `if`. */
let frameIf = new Uint8Array(1024);

/** The most weight between a loop's header and a back-edge for the loop to count as short (see `Walk.tight`). */
const TIGHT_LOOP = 100;

export class Walk {
  readonly buf: Uint8Array;
  readonly end: number;
  /** Charging fuel at all (function bodies; not constant expressions). */
  readonly instrument: boolean;
  /** The counter lives in a local (`m.fuelLocal`), written back and reloaded around what may read the global. */
  readonly local: boolean;
  /** A variant (threaded.ts): the counter leaves as its last result, not through the global; its locals shift. */
  readonly threaded: boolean;
  /** Local indices from this one shift by one (a variant); -1 for none. */
  readonly shift: number;
  /** Read position; input copied to the output up to `from`; the instruction being read starts at `at`. */
  p: number;
  from: number;
  at: number;
  depth = 0;
  /** Loops among the open frames (MAX_LOOP_DEPTH). */
  loops = 0;
  /** The running block; `cost` is what it has accrued since `cur` last changed; `pending`: its charge is not written yet. */
  cur = -1;
  cost = 0;
  pending = false;
  /** Weight read so far, and an upper bound of the weight any path ran since a check (UNCHECKED_MAX). */
  text = 0;
  unchecked = 0;
  /**
   * `unchecked` is bounded per path: at an `end`, the most of what reaches
   * it (the fall-through, each branch to its label, the `if` an arm-less
   * `if` skips), not the whole construct's weight; dead code (after `br`,
   * `br_table`, `return`, …) is -Infinity. Only with a fuel local: such a
   * function has no exception handler, so these are the only ways in.
   * Functions that keep the counter in the global (handlers) bound a
   * construct by its whole weight (`uncheckedAcross`).
   */
  get precise(): boolean {
    return this.local;
  }

  constructor(
    readonly m: RewriteInfo,
    readonly r: Reader,
    readonly w: Writer,
    instrument: boolean,
  ) {
    this.buf = r.buf;
    this.end = r.limit;
    this.p = this.from = this.at = r.pos;
    this.instrument = instrument;
    this.local = instrument && m.fuelLocal >= 0;
    this.threaded = this.local && m.threaded;
    this.shift = this.threaded ? m.shiftLocals : -1;
  }

  /** Copies the input up to `to` to the output. */
  flush(to: number): void {
    this.w.copy(this.buf, this.from, to);
    this.from = to;
  }

  /**
   * Ends the running block; the code from here on is a new block, charged
   * before its first instruction. `host`: a block that runs whenever the new
   * one does (-1: none, or dead code).
   */
  next(host: number): void {
    addCost(this.cur, this.cost);
    this.cost = 0;
    this.cur = newBlock(PENDING, -1, host);
    this.pending = true;
  }

  /** Before the instruction at `at`: a block of its own charged by a check (UNCHECKED_MAX); it runs whenever the running block does. */
  forcedCheck(): void {
    this.flush(this.at);
    addCost(this.cur, this.cost);
    this.cost = 0;
    this.cur = checkedBlock(this.m, this.w, false);
    this.pending = false;
    this.unchecked = 0;
  }

  /** Marks a branch out of the innermost frame to frame `target`. */
  escape(target: number): void {
    const d = this.depth;
    if (d > 0 && target < frameEscape[d - 1]!) frameEscape[d - 1] = target;
  }

  open(kind: Frame, isIf = false): void {
    const d = this.depth;
    if (kind !== Frame.Block && ++this.loops > MAX_LOOP_DEPTH) this.r.fail(LOOP_DEPTH_MESSAGE, this.at);
    frameReach = grow(frameReach, d);
    frameIf = grow(frameIf, d);
    frameReach[d] = -Infinity;
    frameIf[d] = isIf ? 1 : 0;
    frames = grow(frames, d);
    frameSaved = grow(frameSaved, d);
    frameEscape = grow(frameEscape, d);
    frameBlock = grow(frameBlock, d);
    frameUnchecked = grow(frameUnchecked, d);
    frameText = grow(frameText, d);
    frames[d] = kind;
    frameSaved[d] = this.cur;
    frameEscape[d] = d;
    frameUnchecked[d] = this.unchecked;
    frameText[d] = this.text;
    this.depth++;
  }

  /** Closes the innermost frame (an `end`). */
  leave(): void {
    if (frames[--this.depth] !== Frame.Block) this.loops--;
  }

  /**
   * A branch from here to frame `target`'s label (-1: out of the function).
   * A branch to a loop goes to its header, which needs nothing: every
   * back-edge passes a check (or the header has one), so the header's bound
   * is the loop entry's.
   */
  branch(target: number): void {
    if (this.precise && target >= 0 && frames[target] === Frame.Block && this.unchecked > frameReach[target]!) frameReach[target] = this.unchecked;
  }

  /** After `br`, `br_table`, `return`, `unreachable` or a throw: nothing runs here until the next `else` or `end`. */
  dead(): void {
    if (this.precise) this.unchecked = -Infinity;
  }

  /** The bound at the start of frame `k`'s `else` (or a handler). */
  uncheckedAtArm(k: number): number {
    if (!this.precise) return this.uncheckedAcross(k);
    this.branch(k); // the then-arm's fall-through reaches the end
    frameIf[k] = 0;
    return frameUnchecked[k]!;
  }

  /** The bound after frame `k`'s `end`. */
  uncheckedAtEnd(k: number): number {
    if (!this.precise) return this.uncheckedAcross(k);
    if (frames[k] !== Frame.Block) return this.unchecked; // a loop's end: only its fall-through
    return Math.max(this.unchecked, frameReach[k]!, frameIf[k] ? frameUnchecked[k]! : -Infinity);
  }

  kind(frame: number): Frame {
    return frames[frame] as Frame;
  }

  /**
   * A branch here to loop `frame` closes a short loop: at most `TIGHT_LOOP`
   * of weight between its header and here. Its check refuels through
   * `$refuel_slow` (fuel.ts); longer loops keep the import call inline,
   * cheaper on Node 20's V8 (docs/sandbox-instrumentation.md, "Overhead on Bun").
   */
  tight(frame: number): boolean {
    return this.text - frameText[frame]! <= TIGHT_LOOP;
  }

  /** The header block of back-edge loop `frame`. */
  header(frame: number): number {
    return frameBlock[frame]!;
  }

  setHeader(frame: number, block: number): void {
    frameBlock[frame] = block;
  }

  /** The block that was running when `frame` opened. */
  saved(frame: number): number {
    return frameSaved[frame]!;
  }

  /**
   * Where control may arrive from anywhere inside frame `k` (its end, an
   * arm): at most what ran before the frame, plus all of the frame so far
   * (checks inside it may have been skipped).
   */
  uncheckedAcross(k: number): number {
    return frameUnchecked[k]! + this.text - frameText[k]!;
  }

  /**
   * After frame `k`'s `end`: if nothing inside it may have branched past its
   * end, the code that follows runs whenever the block that opened the frame
   * ran, so that block pays for it; otherwise it is a block of its own.
   */
  closeFrame(k: number): void {
    addCost(this.cur, this.cost);
    this.cost = 0;
    const reach = frameEscape[k]!;
    if (k > 0 && reach < frameEscape[k - 1]!) frameEscape[k - 1] = reach;
    if (reach < k) {
      this.cur = newBlock(PENDING, -1, frameSaved[k]!);
      this.pending = true;
    } else {
      this.cur = frameSaved[k]!;
      this.pending = isPending(this.cur);
    }
  }

  /**
   * After a call returns: the local is reloaded (from the global, or a
   * variant's result). With a local, the code after the call runs whenever
   * the code before it ran (a callee that does not return ends the whole
   * call), so it stays in the running block, charged before the call: no
   * charge here, and no new value of the counter for the engine to keep
   * apart (see docs/sandbox-instrumentation.md, "Calls"). In the global the
   * next block is charged as any other.
   */
  afterCall(fromResult: boolean): void {
    if (!this.local) {
      addCost(this.cur, this.cost);
      this.cost = 0;
      return this.next(this.cur);
    }
    if (fromResult) writeResultReload(this.m, this.w);
    else writeReload(this.m, this.w);
  }

  /** Charges the operand on top of the stack before the instruction at `at` (bulk.ts). */
  chargeOperandHere(charge: OperandCharge): void {
    if (this.m.tempLocal < 0) this.r.fail(TOO_MANY_LOCALS, this.at);
    this.flush(this.at);
    chargeOperand(this.m, this.w, charge);
    this.unchecked = 0; // a check
  }

  /** Writes the 0xFC bulk instruction at `at` (ending at `p`) with its charge, long memory operations in chunks (chunks.ts). */
  bulkHere(charge: OperandCharge): void {
    if (this.m.tempLocal < 0) this.r.fail(TOO_MANY_LOCALS, this.at);
    this.flush(this.at);
    if (!writeBulk(this.m, this.w, this.buf, this.at, this.p, charge)) this.r.fail(NO_ROOM_TO_SPLIT, this.at);
    this.from = this.p;
    this.unchecked = 0; // a check
  }

  /** A check of its own before the instruction at `at`: one that calls into the engine (bulk.ts). */
  checkHere(fuel?: number): void {
    this.flush(this.at);
    chargeEngineCall(this.m, this.w, fuel);
    this.unchecked = 0;
  }
}

/** Skips a block type at `p`; returns the position after it. */
export function blockType(r: Reader, p: number): number {
  const b = r.buf[p]!;
  if (b === 0x40 || (b >= 0x6f && b <= 0x7f)) return p + 1; // the common forms
  r.pos = p;
  r.skipBlockType();
  return r.pos;
}
