// The direct call's own memory accessors (host/sandbox/extism-kernel.ts) against raw Extism's, on random
// addresses: block indexes of the input, of empty, short, exact, freed and missing blocks, 31 and 32 (the last
// exact and the first inexact as a Number), 0x8000 and 0xffff (negative i64s); offsets at both ends of a block,
// straddling its end, at 2^32 - 1 and 2^48 - 1/- 8; every accessor, reads and writes. Both plugins get the same
// calls in the same order, so what one call leaves behind for the next is compared too. Same bytes, or both throw
// the same error. More calls with WASMHOOKS_KERNEL_CALLS=20000.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectCaller } from '../../host/sandbox/extism-call.js';
import { kernelPair, type KernelPair, type Plugin } from './kernel-pair.js';
import { hostile } from './sandbox-helpers.js';


const CALLS = Number(process.env.WASMHOOKS_KERNEL_CALLS ?? 1500);
const BLOCK = 1n << 48n;
const INDEXES = [0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 31n, 32n, 0x8000n, 0xffffn];

let raw: Plugin;
let direct: DirectCaller;
let pair: KernelPair;
beforeAll(async () => {
  pair = await kernelPair(await hostile('kernel-probe'));
  ({ raw, direct } = pair);
});
afterAll(() => pair.close());

async function answer(run: () => Promise<Uint8Array | null> | Uint8Array): Promise<string> {
  try {
    return Buffer.from((await run()) ?? new Uint8Array(0)).toString('hex');
  } catch (error) {
    return `threw ${error instanceof Error ? error.message : String(error)}`;
  }
}

describe('the direct call answers random accessor addresses as Extism does', () => {
  it(`${CALLS} calls`, { timeout: 120_000 }, async () => {
    let x = 7;
    const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
    const offsets = () => [0n, 1n, 6n, 7n, 8n, 9n, 15n, 16n, 17n, 23n, 24n, 0xffffffffn, BLOCK - 8n, BLOCK - 1n, BigInt(next() % 40)];
    const outcomes = new Map<string, number>();
    for (let i = 0; i < CALLS; i++) {
      // Inputs of 24, 29 and 34 bytes: the input block's own end moves.
      const input = new Uint8Array(24 + (next() % 3) * 5);
      const view = new DataView(input.buffer);
      input[0] = next() % 8;
      const index = INDEXES[next() % INDEXES.length]!;
      const offset = offsets()[next() % 15]!;
      view.setBigUint64(8, BigInt.asUintN(64, index * BLOCK + offset), true);
      view.setBigUint64(16, BigInt(next()) * 0x100000001n, true);
      const own = await answer(async () => (await raw.call('probe', input.slice()))?.bytes() ?? null);
      const ours = await answer(() => direct.call('probe', input.slice()));
      expect(ours, `op ${input[0]} at ${index}:${offset.toString(16)}`).toBe(own);
      const kind = own.startsWith('threw') ? 'threw' : 'read';
      outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
    }
    // Both kinds of answer are exercised: values read in range, and the failures past the edges.
    expect(outcomes.get('read') ?? 0).toBeGreaterThan(CALLS / 10);
    expect(outcomes.get('threw') ?? 0).toBeGreaterThan(CALLS / 10);
  });
});
