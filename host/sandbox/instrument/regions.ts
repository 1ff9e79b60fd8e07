/**
 * Fuel blocks: the straight-line pieces of a function body, each charged
 * once when control enters it (docs/sandbox-instrumentation.md, "The block
 * rule"). A block's cost is known only when the body has been read to its
 * end (a block may be resumed after a nested `block … end`), so its charge
 * is written with a padded constant and patched in `finishBlocks`.
 *
 * A block is one of:
 * - charged where it starts (a decrement or, at function entry and at loop
 *   headers checked there, a check); `blockPatch` ≥ 0,
 * - pending: opened, nothing written yet (the walker writes its decrement
 *   before its first instruction of non-zero weight, so empty blocks cost
 *   nothing); `blockPatch` = PENDING,
 * - a loop header charged at its back-edges (`addSite`) and, for its first
 *   iteration, by the block it was entered from (`blockParent`);
 *   `blockPatch` = AT_EDGES.
 */
import type { ModuleInfo } from './module-info.js';
import { writeCheck, writeDecrement } from './fuel.js';
import { patchSleb5, type Writer } from './writer.js';

// The cost constant is a padded 5-byte LEB128; cap it well inside that range.
const MAX_COST = 0x7fffffff;
export const PENDING = -1;
export const AT_EDGES = -2;

let blockPatch = new Float64Array(256);
let blockCost = new Float64Array(256);
let blockParent = new Float64Array(256);
let blockSites = new Float64Array(256);
/** The block that runs whenever this one does (it may absorb this one's cost), or -1; and where this block's decrement starts. */
let blockHost = new Float64Array(256);
let blockStart = new Float64Array(256);
let blockEnd = new Float64Array(256);
let blockFolded = new Float64Array(256);
let sitePatch = new Float64Array(256);
let siteNext = new Float64Array(256);
let blocks = 0;
let sites = 0;

/** Grows shared scratch to hold index `need`. */
export function grow<T extends Uint8Array | Float64Array>(a: T, need: number): T {
  if (need < a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need + 1, a.length * 2));
  next.set(a);
  return next;
}

/** Forgets the blocks of the previous expression. */
export function resetBlocks(): void {
  blocks = 0;
  sites = 0;
}

/**
 * Opens a block in state `patch` (PENDING, AT_EDGES or a patch offset);
 * returns its index. `host`: a block that has run whenever this one runs
 * (once per run of this one), which may absorb its cost (see finishBlocks);
 * -1 for none.
 */
export function newBlock(patch: number, parent = -1, host = -1): number {
  blockPatch = grow(blockPatch, blocks);
  blockCost = grow(blockCost, blocks);
  blockParent = grow(blockParent, blocks);
  blockSites = grow(blockSites, blocks);
  blockHost = grow(blockHost, blocks);
  blockStart = grow(blockStart, blocks);
  blockEnd = grow(blockEnd, blocks);
  blockFolded = grow(blockFolded, blocks);
  blockPatch[blocks] = patch;
  blockCost[blocks] = 0;
  blockParent[blocks] = parent;
  blockSites[blocks] = -1;
  blockHost[blocks] = host;
  blockStart[blocks] = -1;
  blockFolded[blocks] = 0;
  return blocks++;
}

export function isPending(b: number): boolean {
  return blockPatch[b] === PENDING;
}

/** Writes the charge of pending block `b` here (a decrement). */
export function chargeHere(m: ModuleInfo, w: Writer, b: number): void {
  blockStart[b] = w.pos;
  blockPatch[b] = writeDecrement(m, w);
  blockEnd[b] = w.pos;
}

/** Opens a block charged by a check here (function entry, a loop checked at its header, or a forced check). */
export function checkedBlock(m: ModuleInfo, w: Writer, entry: boolean): number {
  m.checksInserted++;
  return newBlock(writeCheck(m, w, entry));
}

export function addCost(b: number, cost: number): void {
  blockCost[b] = blockCost[b]! + cost;
}

/**
 * A check for back-edge loop header `b` here, its cost patched at the end.
 * `tight`: the back-edge closes a short loop, whose check refuels through
 * `$refuel_slow` (fuel.ts, writeRefuelIfNegative).
 */
export function addSite(m: ModuleInfo, w: Writer, b: number, tight = false): void {
  sitePatch = grow(sitePatch, sites);
  siteNext = grow(siteNext, sites);
  sitePatch[sites] = writeCheck(m, w, false, tight);
  siteNext[sites] = blockSites[b]!;
  blockSites[b] = sites++;
  m.checksInserted++;
}

/**
 * A conditional block costing at most this fraction of its host's own cost
 * is charged with its host instead (its decrement becomes nops). Its host
 * runs whenever it does, so fuel can only grow, by at most this fraction of
 * the host's own cost per run: fast fuel ≤ (1 + FOLD) × exact.
 */
export const FOLD = 0.2;

/**
 * Patches every block's cost into its charge, after folding small
 * conditional blocks into their hosts. Loop headers charged at their
 * back-edges also add their cost to the block they were entered from (the
 * first iteration). Hosts and parents are opened before the blocks they
 * absorb, so walking from the last block down sees each block's final cost
 * before its host's or parent's.
 */
export function finishBlocks(w: Writer): void {
  for (let b = blocks - 1; b >= 0; b--) {
    const total = blockCost[b]! + blockFolded[b]!;
    const host = blockHost[b]!;
    const patch = blockPatch[b]!;
    if (host >= 0 && patch >= 0 && total <= FOLD * blockCost[host]! - blockFolded[host]!) {
      blockFolded[host] = blockFolded[host]! + total;
      const start = blockStart[b]!;
      if (start >= 0) w.buf.fill(0x01, start, blockEnd[b]!); // nop: the decrement is stack-neutral
      else patchSleb5(w.buf, patch, 0);
      continue;
    }
    const cost = Math.min(total, MAX_COST);
    if (patch >= 0) patchSleb5(w.buf, patch, cost);
    for (let s = blockSites[b]!; s >= 0; s = siteNext[s]!) patchSleb5(w.buf, sitePatch[s]!, cost);
    const parent = blockParent[b]!;
    if (parent >= 0) blockCost[parent] = blockCost[parent]! + total;
  }
}
