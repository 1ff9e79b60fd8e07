import { bulkLengthIsI32, chargeBulkLength } from './bulk.js';
import { rareImmediates } from './immediates.js';
import { lebEnd, readLeb, skip } from './leb.js';
import { Imm, OP_IMM, OP_WEIGHT, fcWeight } from './opcodes.js';
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
  /** Parameter count of each defined function. */
  params: number[];
  /** Per memory (imported first): 1 if 64-bit, whose bulk lengths are i64 and charged a fixed weight. */
  memory64: Uint8Array;
  /** An i32 scratch local of the function being rewritten, for bulk-op lengths; -1 for none. */
  tempLocal: number;
  /** Set by the walker when it used `tempLocal`; the caller then declares it. */
  tempUsed: boolean;
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
 *
 * The hot path keeps the position in a local and skips LEB128s inline (this
 * runs once per plugin load, mostly before the JIT has warmed up); rare
 * immediates go through the bounds-checked `Reader`. Reads past `end` are
 * caught at the top of the loop, so a truncated body fails, never hangs.
 */
export function rewriteExpr(m: ModuleInfo, r: Reader, w: Writer, instrument: boolean): void {
  const buf = r.buf;
  const end = r.limit;
  let p = r.pos;
  let from = p;
  let depth = 0;
  let regions = 0;
  let cost = 0;
  if (instrument) regions = openRegion(m, w, regions, cost);

  for (;;) {
    if (p >= end) r.fail(p === end ? 'expression has no final end' : 'instruction runs past the end', Math.min(p, end));
    const at = p;
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
          w.copy(buf, from, p);
          if (instrument) closeRegion(w, --regions, cost);
          r.pos = p;
          return;
        }
        depth--;
        if (frames[depth] === 1 && instrument) cost = closeRegion(w, --regions, cost);
        break;
      case Imm.Block:
        p = blockType(r, p);
        frames = grow(frames, depth);
        frames[depth++] = 0;
        break;
      case Imm.Loop:
        p = blockType(r, p);
        frames = grow(frames, depth);
        frames[depth++] = 1;
        if (instrument) {
          w.copy(buf, from, p);
          from = p;
          regions = openRegion(m, w, regions, cost);
          cost = 0;
        }
        break;
      case Imm.Leb2:
        p = skip(buf, skip(buf, p, end), end);
        break;
      case Imm.Func: {
        const idx = readLeb(buf, p);
        if (idx >= m.funcImports) {
          w.copy(buf, from, p);
          w.uleb(idx + 1);
          from = lebEnd;
        }
        p = lebEnd;
        break;
      }
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
        if (op === 0x1f) {
          frames = grow(frames, depth);
          frames[depth++] = 0;
        } else if (op === 0x18) {
          if (depth === 0) r.fail('delegate outside a try', at);
          depth--;
        } else if (op === 0xfc) {
          const sub = readLeb(buf, at + 1);
          cost += fcWeight(sub) - 1;
          if (instrument && m.tempLocal >= 0 && bulkLengthIsI32(m, buf, sub, lebEnd)) {
            w.copy(buf, from, at);
            from = at;
            chargeBulkLength(m, w);
          }
        }
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
