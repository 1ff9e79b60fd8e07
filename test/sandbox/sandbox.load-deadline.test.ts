// A load's one-time work (the start function, wasi-libc constructors, describe) gets at least
// LOAD_MIN_TIMEOUT_MS whatever the per-call deadline: a fresh module pays the engine's lazy compile
// once, and a loaded machine stalling for a moment must not fail a plugin's load (CI saw a 100 ms
// TIMEOUT at instantiation under load). Fuel still bounds the guest, and a start function that never
// ends is still refused.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { LOAD_MIN_TIMEOUT_MS } from '../../host/sandbox/types.js';
import { assemble } from './instrument-helpers.js';

/** spin-at-start.wat: a start function spinning a few ms, or (`endless`) forever. */
const spinAtStart = async (endless = false) => {
  const source = await readFile(new URL('../fixtures/hostile/spin-at-start.wat', import.meta.url), 'utf8');
  return assemble(endless ? source.replace('(i64.const 3000000)', '(i64.const -1)') : source);
};

describe('the deadline of a load', () => {
  for (const isolation of ['in-thread', 'worker'] as const) {
    it(`${isolation}: a start function longer than timeoutMs but short of ${LOAD_MIN_TIMEOUT_MS} ms loads; the calls keep timeoutMs`, async () => {
      const bytes = await spinAtStart();
      const sandbox = await createSandbox(bytes, { name: 'slow-start', isolation, limits: { timeoutMs: 1, fuel: 1e12 } });
      try {
        expect(sandbox.limits.timeoutMs).toBe(1);
        const done = await sandbox.call('done', new Uint8Array(0));
        expect(done.ok || done.failure.code).toBe(true);
      } finally {
        await sandbox.close();
      }
    });

    it(`${isolation}: a start function that never ends is refused (TIMEOUT) after the load's deadline`, async () => {
      const started = performance.now();
      await expect(
        createSandbox(await spinAtStart(true), { name: 'endless-start', isolation, limits: { timeoutMs: 1, fuel: 1e15 } }),
      ).rejects.toMatchObject({ code: 'LOAD_FAILED', cause: { code: 'TIMEOUT' } });
      expect(performance.now() - started).toBeGreaterThanOrEqual(LOAD_MIN_TIMEOUT_MS - 1);
    });

    it(`${isolation}: a start function past its fuel is refused at once (FUEL_EXHAUSTED)`, async () => {
      await expect(
        createSandbox(await spinAtStart(true), { name: 'hungry-start', isolation, limits: { timeoutMs: 1, fuel: 1_000_000 } }),
      ).rejects.toMatchObject({ code: 'LOAD_FAILED', cause: { code: 'FUEL_EXHAUSTED' } });
    });
  }
});
