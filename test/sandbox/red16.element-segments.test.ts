// red16, class "work done before any meter runs": engines build a module's active and passive element
// segments at every instantiation (50-140 ns an element on Node 20, Deno and Bun), at load and at every
// rebuild after a failure, out of every limit, and segments were not capped: only the tables were. 100
// segments of 100,000 entries (a 10 MB module; 64 MiB allowed) held the thread 0.5-2.8 s per instance.
// Now active and passive segments hold at most maxTableElements together, refused at load
// (INVALID_WASM). Fails on the old code (the bomb loaded and answered).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { elementBomb } from '../fixtures/hostile/red16.js';

async function load(bytes: Uint8Array, maxTableElements?: number) {
  const sandbox = await createSandbox(bytes, { limits: { timeoutMs: 5_000, ...(maxTableElements ? { maxTableElements } : {}) } });
  try {
    return await sandbox.call('run', new Uint8Array());
  } finally {
    await sandbox.close();
  }
}

describe('red16: element segments are capped like the tables they fill', () => {
  it.each([['active', 0], ['passive', 1]] as const)('%s segments of more elements than maxTableElements are INVALID_WASM, fast', async (_, flags) => {
    const started = performance.now();
    const refused = load(elementBomb(40, 100_000, flags));
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_WASM' });
    await expect(refused).rejects.toThrow(/element segments hold more than 100000 elements \(raise limits\.maxTableElements\)/);
    // The refusal tells the old code apart (it loaded the bomb); the time includes building the 4 MB bomb and
    // reading it, 1.9-2.4 s here with other tests running and 3.4-6.5 s with several at once on 2 cores.
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('segments within the cap load and run; a raised cap admits more; declarative segments do not count toward it', async () => {
    expect((await load(elementBomb(1, 100_000))).ok).toBe(true);
    expect((await load(elementBomb(2, 50_000, 1))).ok).toBe(true);
    expect((await load(elementBomb(3, 1_000), 3_000)).ok).toBe(true);
    await expect(load(elementBomb(4, 1_000), 3_000)).rejects.toMatchObject({ code: 'INVALID_WASM' });
    // Declarative ones are capped by the module's functions instead (red38): one entry for its one function.
    expect((await load(elementBomb(1, 1, 3))).ok).toBe(true);
  });
});
