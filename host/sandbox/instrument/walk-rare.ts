/**
 * The walker's handlers for instructions that are rare in hot code but
 * change what it inserts: `br_table` (back-edge trampolines, branches.ts),
 * `try_table` and `delegate` (exception handling, handlers.ts), and the
 * operand-charged or engine-calling ones (`memory.grow`, `table.set`, the
 * 0xFC bulk and table operations, `memory.atomic.notify`; bulk.ts), plus
 * the refusal of `memory.atomic.wait`. `walkRare` returns false when the
 * function cannot keep its counter in a local (the caller retries).
 */
import { brTable, catchLabels, tableLabels } from './branches.js';
import { fcCharge, growCharge } from './bulk.js';
import { exceptionOp, handlerGate } from './handlers.js';
import { rareImmediates } from './immediates.js';
import { readLeb, skip } from './leb.js';
import { fcWeight, fdWeight, feWeight } from './opcodes.js';
import { Frame, type Walk } from './walk.js';

/** `memory.grow` (0x40): charged by its operand; `table.set` (0x26): a check of its own. */
export function walkGrow(s: Walk, op: number): void {
  s.p = skip(s.buf, s.p, s.end);
  if (!s.instrument) return;
  if (op === 0x40) s.chargeOperandHere(growCharge(s.m));
  else s.checkHere();
}

/** Every opcode whose immediates the bounds-checked reader decodes (immediates.ts). */
export function walkRare(s: Walk, op: number): boolean {
  const { m, r, w, buf, at } = s;
  r.pos = s.p;
  rareImmediates(r, op, at);
  s.p = r.pos;
  if (op === 0x0e) {
    if (!s.instrument) return true;
    for (const label of tableLabels(buf, at + 1)) {
      s.escape(s.depth - 1 - label);
      s.branch(s.depth - 1 - label);
    }
    if (s.local) {
      s.flush(at);
      const rewritten = brTable(m, w, buf, at + 1, s.depth, (d) => s.kind(d) === Frame.BackEdgeLoop, (d) => s.header(d));
      if (rewritten) s.from = s.p;
    }
    s.next(-1);
    s.dead();
  } else if (op === 0x1f) {
    exceptionOp(m, r, op, at);
    if (s.local) return false; // try_table
    s.open(Frame.Block);
    if (s.instrument) for (const label of catchLabels(r, at + 1)) s.escape(s.depth - 2 - label);
  } else if (op === 0x18) {
    exceptionOp(m, r, op, at);
    if (s.depth === 0) r.fail('delegate outside a try', at);
    s.leave();
    s.unchecked = s.uncheckedAcross(s.depth);
    if (m.handlerGates) {
      s.flush(s.p);
      handlerGate(m, w); // the try's label: a try_table catch clause may land here
    }
    if (s.instrument) {
      s.escape(-1);
      s.next(-1);
    }
  } else if (op === 0xfc) {
    const sub = readLeb(buf, at + 1);
    const extra = fcWeight(sub) - 1;
    s.cost += extra;
    s.text += extra;
    s.unchecked += extra;
    const charge = s.instrument ? fcCharge(m, sub) : null;
    if (charge) s.bulkHere(charge);
    else if (s.instrument && sub === 13) s.checkHere(); // elem.drop
  } else if (op === 0xfd) {
    const extra = fdWeight(readLeb(buf, at + 1)) - 1; // the SIMD divides (opcodes.ts)
    s.cost += extra;
    s.text += extra;
    s.unchecked += extra;
  } else if (op === 0xfe) {
    const sub = readLeb(buf, at + 1);
    // memory.atomic.wait32/64 block the thread for an operand's nanoseconds, out of the host's reach.
    if (sub === 1 || sub === 2) r.fail('memory.atomic.wait blocks the thread and is not supported by the sandbox', at);
    const extra = feWeight(sub) - 1; // atomic stores and read-modify-writes (opcodes.ts)
    s.cost += extra;
    s.text += extra;
    s.unchecked += extra;
    if ((sub === 0 || sub === 3) && s.instrument) s.checkHere(); // memory.atomic.notify, atomic.fence
  }
  return true;
}
