/**
 * Memory caps with multi-memory: `maxMemoryPages` bounds all of a module's
 * memories together, imported and defined, as `maxTableElements` bounds its
 * tables (tables.ts). Capping each memory alone let a module of 64 memories
 * hold 64× the cap (1 GiB under the default 16 MiB, on Deno and Bun, for
 * about 3M fuel), far past `hostMemoryBound`.
 */
import { invalid } from './reader.js';

/**
 * Per memory (imported first), its maximum after capping: its minimum plus
 * an equal share of what the minimums leave of the cap. One memory gets the
 * whole cap, as before. A memory whose own minimum is past the cap is left
 * to the per-memory message (sections.ts); minimums past the cap together
 * are refused here.
 */
export function planMemories(mins: number[], cap: number): number[] {
  if (mins.some((min) => min > cap)) return mins.map(() => cap);
  const total = mins.reduce((a, b) => a + b, 0);
  if (total > cap) {
    invalid(
      `the module's ${mins.length} memories start with ${total} pages together, above the cap of ${cap} pages that they share (raise limits.maxMemoryPages)`,
    );
  }
  const share = mins.length > 0 ? Math.floor((cap - total) / mins.length) : 0;
  return mins.map((min) => min + share);
}
