/**
 * Branch helpers of the walker (code.ts): the labels of a br_table or a
 * try_table's catch clauses, and the rewrite of a br_table that targets
 * loops checked at their back-edges.
 */
import type { ModuleInfo } from './module-info.js';
import { writeBack } from './fuel.js';
import { lebEnd, readLeb } from './leb.js';
import type { Reader } from './reader.js';
import { addSite } from './regions.js';
import type { Writer } from './writer.js';

/** The labels of a br_table whose immediates start at `p` (already bounds-checked). */
export function tableLabels(buf: Uint8Array, p: number): number[] {
  const n = readLeb(buf, p);
  p = lebEnd;
  const out: number[] = [];
  for (let i = 0; i <= n; i++) {
    out.push(readLeb(buf, p));
    p = lebEnd;
  }
  return out;
}

/** The labels of a try_table's catch clauses (relative to the frame outside it). */
export function catchLabels(r: Reader, p: number): number[] {
  const save = r.pos;
  r.pos = p;
  r.skipBlockType();
  const out: number[] = [];
  for (let n = r.u32(); n > 0; n--) {
    if (r.u8() < 2) r.skipLeb();
    out.push(r.u32());
  }
  r.pos = save;
  return out;
}

/**
 * Before a br_table (immediates at `p`, already bounds-checked), with a fuel
 * local: a write-back if a target leaves the function. If targets include
 * loops checked at their back-edges, the br_table is rewritten so that only
 * the taken back-edge pays: its back-edge targets go to trampoline blocks
 * that check that loop and branch to it, the index parked in the scratch
 * local. Returns true if it wrote the br_table itself (the original's bytes
 * are then skipped).
 */
export function brTable(
  m: ModuleInfo,
  w: Writer,
  buf: Uint8Array,
  p: number,
  depth: number,
  atEdges: (frame: number) => boolean,
  header: (frame: number) => number,
): boolean {
  const labels = tableLabels(buf, p);
  if (labels.includes(depth) && !m.threaded) writeBack(m, w); // a variant returns its counter instead
  const loops: number[] = [];
  for (const label of labels) {
    if (label < depth && atEdges(depth - 1 - label) && !loops.includes(label)) loops.push(label);
  }
  if (loops.length === 0 || m.tempLocal < 0) return false;
  const k = loops.length;
  w.u8(0x21), w.uleb(m.tempLocal);
  for (let i = 0; i < k; i++) w.u8(0x02), w.u8(0x40);
  w.u8(0x20), w.uleb(m.tempLocal);
  w.u8(0x0e), w.uleb(labels.length - 1);
  for (const label of labels) {
    const j = loops.indexOf(label);
    w.uleb(j >= 0 ? j : label + k);
  }
  for (let j = 0; j < k; j++) {
    w.u8(0x0b);
    addSite(m, w, header(depth - 1 - loops[j]!));
    w.u8(0x0c), w.uleb(loops[j]! + k - 1 - j);
  }
  m.tempUsed = Math.max(m.tempUsed, 1);
  return true;
}
