import { FC_LEBS, Imm, OP_IMM, OP_WEIGHT, SIMD_IMM, Simd, atomicHasMemArg, fcWeight } from './opcodes.js';
import type { Reader } from './reader.js';
import { patchSleb5, type Writer } from './writer.js';

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
}

// The cost constant is a padded 5-byte LEB128; cap it well inside that range.
const MAX_COST = 0x7fffffff;

/** Control frames: 1 for a loop, 0 otherwise. Shared scratch, grown on demand. */
let frames = new Uint8Array(1024);
/** Per open fuel region (function body, then each enclosing loop): its patch offset and cost so far. */
let regionPatch = new Float64Array(256);
let regionCost = new Float64Array(256);

function grow<T extends Uint8Array | Float64Array>(a: T, need: number): T {
  if (need < a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need + 1, a.length * 2));
  next.set(a);
  return next;
}

/**
 * Copies one expression (a function body after its locals, or a constant
 * expression) from `r` to `w` up to and including its final `end`,
 * renumbering function indices and, if `instrument`, inserting a fuel check
 * at the start and after every `loop` header. The region's cost is patched
 * into its check when the region closes.
 */
export function rewriteExpr(m: ModuleInfo, r: Reader, w: Writer, instrument: boolean): void {
  const buf = r.buf;
  const end = r.limit;
  let from = r.pos;
  let depth = 0;
  let regions = 0;
  let cost = 0;
  if (instrument) {
    w.copy(buf, from, r.pos);
    from = r.pos;
    regions = openRegion(m, w, regions, cost);
  }

  for (;;) {
    if (r.pos >= end) r.fail('expression has no final end');
    const at = r.pos;
    const op = buf[r.pos++]!;
    cost += OP_WEIGHT[op]!;
    switch (OP_IMM[op] as Imm) {
      case Imm.None:
        break;
      case Imm.End:
        if (depth === 0) {
          w.copy(buf, from, r.pos);
          if (instrument) closeRegion(w, --regions, cost);
          return;
        }
        depth--;
        if (frames[depth] === 1 && instrument) cost = closeRegion(w, --regions, cost);
        break;
      case Imm.Block:
        r.skipBlockType();
        frames = grow(frames, depth);
        frames[depth++] = 0;
        break;
      case Imm.Loop:
        r.skipBlockType();
        frames = grow(frames, depth);
        frames[depth++] = 1;
        if (instrument) {
          w.copy(buf, from, r.pos);
          from = r.pos;
          regions = openRegion(m, w, regions, cost);
          cost = 0;
        }
        break;
      case Imm.Leb:
        r.skipLeb();
        break;
      case Imm.Leb2:
        r.skipLeb();
        r.skipLeb();
        break;
      case Imm.Func: {
        const idxAt = r.pos;
        const idx = r.u32();
        if (idx >= m.funcImports) {
          w.copy(buf, from, idxAt);
          w.uleb(idx + 1);
          from = r.pos;
        }
        break;
      }
      case Imm.Global:
        if (r.u32() >= m.globals) r.fail('global index out of range', at);
        break;
      case Imm.MemArg:
        if (r.u32() & 0x40) r.skipLeb();
        r.skipLeb();
        break;
      case Imm.BrTable: {
        const n = r.u32();
        for (let i = 0; i <= n; i++) r.skipLeb();
        break;
      }
      case Imm.Bytes4:
        r.skip(4);
        break;
      case Imm.Bytes8:
        r.skip(8);
        break;
      case Imm.SelectT: {
        const n = r.u32();
        for (let i = 0; i < n; i++) r.skipValType();
        break;
      }
      case Imm.HeapType:
        r.skipLeb();
        break;
      case Imm.TryTable: {
        r.skipBlockType();
        const n = r.u32();
        for (let i = 0; i < n; i++) {
          const kind = r.u8();
          if (kind > 3) r.fail(`unknown catch kind ${kind}`);
          if (kind < 2) r.skipLeb(); // tag
          r.skipLeb(); // label
        }
        frames = grow(frames, depth);
        frames[depth++] = 0;
        break;
      }
      case Imm.Delegate:
        r.skipLeb();
        if (depth === 0) r.fail('delegate outside a try', at);
        depth--;
        break;
      case Imm.PrefixFC: {
        const sub = r.u32();
        const lebs = FC_LEBS[sub];
        if (lebs === undefined) r.fail(`unknown opcode 0xfc ${sub}`, at);
        for (let i = 0; i < lebs; i++) r.skipLeb();
        cost += fcWeight(sub) - 1;
        break;
      }
      case Imm.PrefixFD: {
        const sub = r.u32();
        switch ((SIMD_IMM[sub] ?? 0) as Simd | 0) {
          case Simd.None:
            break;
          case Simd.MemArg:
            if (r.u32() & 0x40) r.skipLeb();
            r.skipLeb();
            break;
          case Simd.MemArgLane:
            if (r.u32() & 0x40) r.skipLeb();
            r.skipLeb();
            r.skip(1);
            break;
          case Simd.Bytes16:
            r.skip(16);
            break;
          case Simd.Lane:
            r.skip(1);
            break;
          default:
            r.fail(`unknown opcode 0xfd ${sub}`, at);
        }
        break;
      }
      case Imm.PrefixFE: {
        const sub = r.u32();
        if (sub === 0x03) r.skip(1);
        else if (atomicHasMemArg(sub)) {
          if (r.u32() & 0x40) r.skipLeb();
          r.skipLeb();
        } else r.fail(`unknown opcode 0xfe ${sub}`, at);
        break;
      }
      case Imm.Invalid:
        r.fail(`unknown opcode 0x${op.toString(16).padStart(2, '0')}`, at);
    }
  }
}

/** Writes a fuel check and opens its region; returns the new region count. */
function openRegion(m: ModuleInfo, w: Writer, regions: number, outerCost: number): number {
  regionPatch = grow(regionPatch, regions);
  regionCost = grow(regionCost, regions);
  regionCost[regions] = outerCost;
  regionPatch[regions] = w.pos + m.checkPatch;
  w.bytes(m.check);
  m.checksInserted++;
  return regions + 1;
}

/** Patches the cost of region `index` into its check; returns the enclosing region's cost. */
function closeRegion(w: Writer, index: number, cost: number): number {
  patchSleb5(w.buf, regionPatch[index]!, Math.min(Math.max(cost, 1), MAX_COST));
  return regionCost[index]!;
}
