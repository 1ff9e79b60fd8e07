// Long bulk memory operations run in chunks, each charged (and so able to reach the deadline), with the
// engine's own results: on Node, Deno and Bun against the build (test/fixtures/chunks-scenario.ts;
// vitest twin: test/sandbox/instrument.chunks.test.ts).
import assert from 'node:assert/strict';
import wabtInit from 'wabt';
import { instrument } from '../../dist/index.js';
import { chunkProblems } from '../fixtures/chunks-scenario.ts';

async function assemble(source: string): Promise<Uint8Array<ArrayBuffer>> {
  const mod = (await wabtInit()).parseWat('chunks.wat', source, { bulk_memory: true });
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

export const scenarios: Record<string, () => Promise<void>> = {
  'memory.fill/copy/init past 1 MiB run in charged chunks, byte for byte as the engine runs them whole': async () => {
    assert.deepEqual(await chunkProblems({ instrument, assemble }), []);
  },
};
