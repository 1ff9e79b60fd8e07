// Random control flow against the per-path bound of UNCHECKED_MAX (walk.ts, `Walk.precise`): nested blocks, ifs with
// and without else, loops (with and without params) left and re-entered by br, br_if and br_table from any depth,
// branches to outer labels, return and unreachable in arms, dead code after each. Every instruction's weight is
// added to an exported `work` global (each unit of work adds its own weight, each condition and loop guard its
// own), and `refuel` hands out -1 so that every check calls it: the work between two calls of `refuel` is what ran
// between two checks, which the walker promises is at most UNCHECKED_MAX + 100 (the heaviest single instruction).
// Calls are left out: a chain of returns may add that much per frame (docs/sandbox-instrumentation.md, limits).
// More modules with
//   WASMHOOKS_BOUND_MODULES=5000 npx vitest run test/sandbox/instrument.bound-fuzz.test.ts
import { describe, expect, it } from 'vitest';
import { UNCHECKED_MAX } from '../../host/sandbox/instrument/code.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { assemble } from './instrument-helpers.js';
import { shape } from './bound-shapes.js';

const MODULES = Number(process.env.WASMHOOKS_BOUND_MODULES ?? 150);
const BOUND = UNCHECKED_MAX + 100;

/** The most work run between two checks of `run` (and from the last one to its end or trap). */
async function mostBetweenChecks(wasm: Uint8Array<ArrayBuffer>): Promise<{ most: number; checks: number }> {
  const { bytes } = instrument(wasm, { maxMemoryPages: 1 });
  let work: WebAssembly.Global | undefined;
  let last = 0;
  let most = 0;
  let checks = 0;
  const refuel = (): bigint => {
    const now = (work as WebAssembly.Global).value as number;
    most = Math.max(most, now - last);
    last = now;
    checks++;
    return -1n; // never enough: the next check calls refuel again
  };
  const { instance } = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel, gate: () => 0 } });
  work = instance.exports.work as WebAssembly.Global;
  (instance.exports.__wasmhooks_fuel as WebAssembly.Global).value = -1n;
  try {
    (instance.exports.run as () => void)();
  } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) throw error; // unreachable
  }
  most = Math.max(most, (work.value as number) - last);
  return { most, checks };
}

describe('UNCHECKED_MAX per path, on random control flow', () => {
  it(`${MODULES} modules: never more than UNCHECKED_MAX + 100 of weight between two checks`, { timeout: 120_000 }, async () => {
    let worst = { most: 0, seed: 0 };
    let checks = 0;
    for (let seed = 1; seed <= MODULES; seed++) {
      const result = await mostBetweenChecks(await assemble(shape(seed)));
      checks += result.checks;
      if (result.most > worst.most) worst = { most: result.most, seed };
    }
    expect(worst.most, `seed ${worst.seed}`).toBeLessThanOrEqual(BOUND);
    // The shapes reach the bound (straight lines of up to 960 weight): the oracle is not vacuous.
    expect(worst.most).toBeGreaterThan(UNCHECKED_MAX);
    expect(checks).toBeGreaterThan(MODULES);
  });
});
