// The chunked bulk memory operations against the engine's own, on random operations around the chunk
// boundaries and the memories' ends, in every place the counter may live (test/fixtures/chunks-fuzz.ts;
// the cross-runtime twin is test/xrt/chunks.xrt.ts). WASMHOOKS_FUZZ_SEEDS / _FIRST widen the search.
import { describe, expect, it } from 'vitest';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { chunkFuzzProblems } from '../fixtures/chunks-fuzz.js';
import { FEATURES, wabt } from './instrument-helpers.js';

const SEEDS = Number(process.env.WASMHOOKS_FUZZ_SEEDS ?? 2);
const FIRST = Number(process.env.WASMHOOKS_FUZZ_FIRST ?? 1);

async function assemble(wat: string, features: Record<string, boolean>): Promise<Uint8Array<ArrayBuffer>> {
  const mod = (await wabt()).parseWat('chunks-fuzz.wat', wat, { ...FEATURES, ...features });
  try {
    mod.resolveNames(); // no wabt validate(): it refuses a second memory whatever the features (the engine validates)
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

describe('bulk memory operations in chunks: a seeded differential fuzz', () => {
  for (let seed = FIRST; seed < FIRST + SEEDS; seed++) {
    it(`seed ${seed}: memory, traps and fuel as the engine's unsplit operation`, async () => {
      const { problems, skipped } = await chunkFuzzProblems({ instrument, assemble }, seed, 60);
      for (const why of skipped) console.log(`skipped: ${why}`);
      expect(problems).toEqual([]);
    }, 60_000);
  }
});
