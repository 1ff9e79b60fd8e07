import { BULK_BYTES_PER_FUEL_LOG2, FC_LEBS, Imm, OP_IMM, OP_WEIGHT, SIMD_IMM, Simd, atomicHasMemArg, fcWeight } from './opcodes.js';
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

/** End offset of the last `readLeb`, to avoid allocating a pair. */
let lebEnd = 0;

/** Unsigned LEB128 at `p` (u32 range); sets `lebEnd`. Past the buffer's end, reads stop at `undefined`. */
function readLeb(buf: Uint8Array, p: number): number {
  let v = 0;
  let mul = 1;
  for (let i = 0; i < 5; i++) {
    const b = buf[p++] ?? 0;
    v += (b & 0x7f) * mul;
    if ((b & 0x80) === 0) break;
    mul *= 128;
  }
  lebEnd = p;
  return v;
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

/**
 * memory.init (8), memory.copy (10) and memory.fill (11) cost in proportion
 * to their length, which is on top of the stack: charge it there, when the
 * length is an i32 (memory.init's always is; memory.copy's is unless both
 * memories are 64-bit).
 */
function bulkLengthIsI32(m: ModuleInfo, buf: Uint8Array, sub: number, p: number): boolean {
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
function chargeBulkLength(m: ModuleInfo, w: Writer): void {
  const t = m.tempLocal;
  const fuel = m.globals;
  w.u8(0x21), w.uleb(t);
  w.u8(0x23), w.uleb(fuel);
  w.u8(0x20), w.uleb(t);
  w.u8(0xad); // i64.extend_i32_u
  w.u8(0x42), w.u8(BULK_BYTES_PER_FUEL_LOG2);
  w.u8(0x88); // i64.shr_u
  w.u8(0x7d); // i64.sub
  w.u8(0x24), w.uleb(fuel);
  w.u8(0x23), w.uleb(fuel);
  w.u8(0x42), w.u8(0x00);
  w.u8(0x53), w.u8(0x04), w.u8(0x40); // i64.lt_s; if
  w.u8(0x10), w.uleb(m.funcImports); // call $refuel
  w.u8(0x24), w.uleb(fuel);
  w.u8(0x0b);
  w.u8(0x20), w.uleb(t);
  m.tempUsed = true;
  m.checksInserted++;
}

function skip(buf: Uint8Array, p: number, end: number): number {
  while (buf[p++]! & 0x80 && p < end);
  return p;
}

function blockType(r: Reader, p: number): number {
  const b = r.buf[p]!;
  if (b === 0x40 || (b >= 0x6f && b <= 0x7f)) return p + 1; // the common forms
  r.pos = p;
  r.skipBlockType();
  return r.pos;
}

/** Immediates of the rarer opcodes, through the bounds-checked reader. */
function rareImmediates(r: Reader, op: number, at: number): void {
  switch (OP_IMM[op] as Imm) {
    case Imm.BrTable: {
      const n = r.u32();
      for (let i = 0; i <= n; i++) r.skipLeb();
      return;
    }
    case Imm.SelectT: {
      const n = r.u32();
      for (let i = 0; i < n; i++) r.skipValType();
      return;
    }
    case Imm.HeapType:
      return r.skipLeb();
    case Imm.TryTable: {
      r.skipBlockType();
      const n = r.u32();
      for (let i = 0; i < n; i++) {
        const kind = r.u8();
        if (kind > 3) r.fail(`unknown catch kind ${kind}`);
        if (kind < 2) r.skipLeb(); // tag
        r.skipLeb(); // label
      }
      return;
    }
    case Imm.Delegate:
      return r.skipLeb();
    case Imm.PrefixFC: {
      const sub = r.u32();
      const lebs = FC_LEBS[sub];
      if (lebs === undefined) r.fail(`unknown opcode 0xfc ${sub}`, at);
      for (let i = 0; i < lebs; i++) r.skipLeb();
      return;
    }
    case Imm.PrefixFD:
      return simd(r, at);
    case Imm.PrefixFE: {
      const sub = r.u32();
      if (sub === 0x03) r.skip(1);
      else if (atomicHasMemArg(sub)) memArg(r);
      else r.fail(`unknown opcode 0xfe ${sub}`, at);
      return;
    }
    case Imm.Invalid:
      return r.fail(`unknown opcode 0x${op.toString(16).padStart(2, '0')}`, at);
    case Imm.None:
    case Imm.Block:
    case Imm.Loop:
    case Imm.End:
    case Imm.Leb:
    case Imm.Leb2:
    case Imm.Func:
    case Imm.Global:
    case Imm.MemArg:
    case Imm.Bytes4:
    case Imm.Bytes8:
      return r.fail(`opcode 0x${op.toString(16)} reached the slow path`, at); // handled inline
  }
}

function memArg(r: Reader): void {
  if (r.u32() & 0x40) r.skipLeb();
  r.skipLeb();
}

function simd(r: Reader, at: number): void {
  const sub = r.u32();
  switch ((SIMD_IMM[sub] ?? 0) as Simd | 0) {
    case Simd.None:
      return;
    case Simd.MemArg:
      return memArg(r);
    case Simd.MemArgLane:
      memArg(r);
      return r.skip(1);
    case Simd.Bytes16:
      return r.skip(16);
    case Simd.Lane:
      return r.skip(1);
    default:
      r.fail(`unknown opcode 0xfd ${sub}`, at);
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
