/**
 * Fuel regions (function body, loop bodies) and their checks: each region's
 * cost is known only when it closes, so checks are written with a padded
 * constant and patched then.
 */
import type { ModuleInfo } from './code.js';
import { writeCheck } from './fuel.js';
import { patchSleb5, type Writer } from './writer.js';

// The cost constant is a padded 5-byte LEB128; cap it well inside that range.
const MAX_COST = 0x7fffffff;

/**
 * Per open fuel region (function body, then each enclosing loop): its patch
 * offset (-1 if checked at back-edges), its first back-edge site (-1 for
 * none) and the enclosing region's cost so far. Sites form linked lists.
 */
let regionPatch = new Float64Array(256);
let regionSites = new Float64Array(256);
let regionCost = new Float64Array(256);
let sitePatch = new Float64Array(256);
let siteNext = new Float64Array(256);
let sites = 0;

/** Grows shared scratch to hold index `need`. */
export function grow<T extends Uint8Array | Float64Array>(a: T, need: number): T {
  if (need < a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need + 1, a.length * 2));
  next.set(a);
  return next;
}

/** Forgets the back-edge sites of the previous expression. */
export function resetSites(): void {
  sites = 0;
}

/** Opens a region, with a fuel check here if `checked`; returns the new region count. */
export function openRegion(m: ModuleInfo, w: Writer, regions: number, outerCost: number, checked: boolean): number {
  regionPatch = grow(regionPatch, regions);
  regionSites = grow(regionSites, regions);
  regionCost = grow(regionCost, regions);
  regionCost[regions] = outerCost;
  regionSites[regions] = -1;
  regionPatch[regions] = checked ? writeCheck(m, w, regions === 0) : -1;
  if (checked) m.checksInserted++;
  return regions + 1;
}

/** A check for back-edge loop `region` here, its cost patched when the region closes. */
export function addSite(m: ModuleInfo, w: Writer, region: number): void {
  sitePatch = grow(sitePatch, sites);
  siteNext = grow(siteNext, sites);
  sitePatch[sites] = writeCheck(m, w, false);
  siteNext[sites] = regionSites[region]!;
  regionSites[region] = sites++;
  m.checksInserted++;
}

/**
 * Patches the cost of region `index` into its check or back-edge checks;
 * returns the enclosing region's cost, which pays for the first iteration
 * of a loop checked at its back-edges.
 */
export function closeRegion(w: Writer, index: number, cost: number): number {
  const c = Math.min(Math.max(cost, 1), MAX_COST);
  if (regionPatch[index]! >= 0) {
    patchSleb5(w.buf, regionPatch[index]!, c);
    return regionCost[index]!;
  }
  for (let s = regionSites[index]!; s >= 0; s = siteNext[s]!) patchSleb5(w.buf, sitePatch[s]!, c);
  return regionCost[index]! + cost;
}
