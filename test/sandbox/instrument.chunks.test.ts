// Long bulk memory operations run in chunks (host/sandbox/instrument/chunks.ts): the same memory, traps
// and fuel as the engine's own unsplit operation, and the host gets control between chunks
// (test/fixtures/chunks-scenario.ts; the cross-runtime twin is test/xrt/chunks.xrt.ts).
import { describe, expect, it } from 'vitest';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { chunkProblems } from '../fixtures/chunks-scenario.js';
import { assemble } from './instrument-helpers.js';

describe('bulk memory operations in chunks', () => {
  it('fill, copy (both directions) and init match the engine, charge the same fuel, and reach refuel per chunk', async () => {
    expect(await chunkProblems({ instrument, assemble })).toEqual([]);
  }, 120_000);
});
