// Long bulk memory operations run in chunks, each charged (and so able to reach the deadline), with the
// engine's own results: on Node, Deno and Bun against the build (test/fixtures/chunks-scenario.ts,
// chunks-fuzz.ts, chunks-edges.ts; vitest twins: test/sandbox/instrument.chunks*.test.ts).
import assert from 'node:assert/strict';
import wabtInit from 'wabt';
import { instrument } from '../../dist/index.js';
import { chunkEdgeProblems } from '../fixtures/chunks-edges.ts';
import { chunkFuzzProblems } from '../fixtures/chunks-fuzz.ts';
import { chunkProblems } from '../fixtures/chunks-scenario.ts';

async function assemble(source: string, features: Record<string, boolean> = {}): Promise<Uint8Array<ArrayBuffer>> {
  const mod = (await wabtInit()).parseWat('chunks.wat', source, { bulk_memory: true, ...features });
  try {
    mod.resolveNames();
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

export const scenarios: Record<string, () => Promise<void>> = {
  'memory.fill/copy/init past 1 MiB run in charged chunks, byte for byte as the engine runs them whole': async () => {
    assert.deepEqual(await chunkProblems({ instrument, assemble }), []);
  },
  'a seeded fuzz of fill/copy/init around the chunk boundaries and memory ends matches the engine (every counter placement; two memories where supported)': async () => {
    const { problems, skipped } = await chunkFuzzProblems({ instrument, assemble }, 1, 16);
    for (const why of skipped) console.log(`    skipped: ${why}`);
    assert.deepEqual(problems, []);
  },
  'functions near 50,000 locals stay valid; a memory.init past its segment stops for fuel before it traps': async () => {
    assert.deepEqual(await chunkEdgeProblems({ instrument, assemble }), []);
  },
};
