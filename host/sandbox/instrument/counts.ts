/**
 * Caps on what an engine builds for every instance of a module, whatever the
 * module then runs: tables, globals, exports (a JS wrapper or object each),
 * passive data segments and tags. That work happens at instantiation, before
 * any meter runs and out of every deadline's reach, at load and again at
 * every rebuild after a failure; V8 accepts up to 100,000 tables and exports
 * and 1,000,000 globals and tags. Measured (red16, Node 20 / Bun 1.4): 99,990
 * exported functions 0.9 s per instance (an 0.9 MB module), 99,990 exported
 * globals 0.45 / 0.8 s, 100,000 tables 0.42 s (300 KB), 1,000,000 globals
 * 0.15 / 0.5 s, 100,000 passive data segments 0.1 s, 1,000,000 tags 0.2 s, 50,000 imports
 * 40-140 ms (each resolved against the host's object).
 * At these caps a module's instance costs at most ≈ 30 ms of such work; real
 * plugins stay two orders of magnitude below (1 table, under 20 globals and
 * 100 exports, 40 imports for sql.js; their data segments are active). Element segments are capped by
 * `maxTableElements` (sections.ts `rewriteElements`).
 */
import { invalid, type Reader } from './reader.js';
import { skipConstExpr } from './tables.js';

export const INSTANCE_CAPS = Object.freeze({ imports: 1_000, tables: 100, globals: 10_000, exports: 2_048, 'passive data segments': 10_000, tags: 1_000 });

export type InstanceCounts = Record<keyof typeof INSTANCE_CAPS, number>;

/** Refuses (INVALID_WASM) a module with more of any of these than its cap. */
export function checkInstanceCounts(counts: InstanceCounts): void {
  for (const [what, cap] of Object.entries(INSTANCE_CAPS) as [keyof InstanceCounts, number][]) {
    if (counts[what] > cap) {
      invalid(`the module declares ${counts[what]} ${what}, above the sandbox's cap of ${cap} (engines build each at every instantiation, before any limit applies)`);
    }
  }
}

/** The passive segments of a data section (`r` at its start). */
export function passiveDataSegments(r: Reader): number {
  let passive = 0;
  for (let n = r.u32(); n > 0; n--) {
    const flags = r.u32();
    if (flags === 1) passive++;
    else {
      if (flags === 2) r.u32(); // memory index
      else if (flags !== 0) r.fail(`unknown data segment flags ${flags}`);
      skipConstExpr(r);
    }
    r.skip(r.u32());
  }
  return passive;
}
