// red16, class "work done before any meter runs" (with red16.element-segments.test.ts): engines build
// every import, table, global, export, passive data segment and tag of a module at each instantiation,
// at load and at every rebuild after a failure, and nothing capped their number below the engines' own
// limits (100,000 exports, 1,000,000 globals): 99,990 exported functions held the thread 0.9 s per
// instance from a 0.9 MB module, 100,000 tables 0.42 s from 300 KB. Each is now capped (instrument/
// counts.ts), refused at load with INVALID_WASM naming what and the cap. Fails on the old code (every
// module past the cap loaded).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { countBomb, type Declared } from '../fixtures/hostile/red16.js';

const CAPS: Array<[Declared, number]> = [
  ['imports', 1_000], ['tables', 100], ['globals', 10_000], ['exports', 2_048], ['passive data segments', 10_000], ['tags', 1_000],
];

async function run(bytes: Uint8Array) {
  const sandbox = await createSandbox(bytes, { allowExceptions: true, limits: { timeoutMs: 5_000 } });
  try {
    return await sandbox.call('run', new Uint8Array());
  } finally {
    await sandbox.close();
  }
}

describe('red16: what an engine builds per instance is capped', () => {
  it.each(CAPS)('%s: the cap (%i) loads and runs, one more is INVALID_WASM naming it', async (what, cap) => {
    expect((await run(countBomb(what, cap))).ok).toBe(true);
    const refused = run(countBomb(what, cap + 1));
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_WASM' });
    await expect(refused).rejects.toThrow(`the module declares ${cap + 1} ${what}, above the sandbox's cap of ${cap}`);
  });

  // Multi-memory runs on Deno and Bun (Node 20 validates one memory at most): the cap is the instrumenter's.
  it('memories: 100 are instrumented, 101 are INVALID_WASM naming the cap (20,000 cost Deno 155 ms per instance)', () => {
    expect(instrument(countBomb('memories', 100), { maxMemoryPages: 256 }).bytes.length).toBeGreaterThan(0);
    expect(() => instrument(countBomb('memories', 101), { maxMemoryPages: 256 })).toThrow(/the module declares 101 memories, above the sandbox's cap of 100/);
  });

  it('the bombs that cost seconds per instance are refused within the time of their validation', async () => {
    for (const [what, n] of [['exports', 99_990], ['tables', 100_000], ['globals', 999_990]] as const) {
      const bytes = countBomb(what, n);
      const started = performance.now();
      await expect(run(bytes)).rejects.toMatchObject({ code: 'INVALID_WASM' });
      // Loose: validation alone takes 0.1-2.4 s of a loaded 2-core machine; the refusal above is what fails on the old code.
      expect(performance.now() - started, what).toBeLessThan(10_000);
    }
  });
});
