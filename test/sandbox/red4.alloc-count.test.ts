// Red review (red4): Extism's alloc walks every block the call made (to sum their sizes against the memory
// cap), so a loop of alloc(0) costs the host n²/2 block visits. At a flat charge per alloc, fuel did not
// see it: under a 3 s deadline the default budget (1e9, ~90 ms of compute) let it burn 2.4 s of CPU on 26M
// fuel, stopped only by the deadline. Each block past the first 64 now pays for the ones before it.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { hostile } from './sandbox-helpers.js';

describe('host blocks are charged by how many the call made', () => {
  it('a loop of alloc(0) runs out of fuel, not into a long deadline', async () => {
    const sandbox = await createSandbox(await hostile('alloc-zero-spin'), { name: 'alloc-zero-spin', limits: { timeoutMs: 5000, fuel: 1e9 } });
    try {
      const cpu = process.cpuUsage();
      const out = await sandbox.call('run', new Uint8Array());
      const used = process.cpuUsage(cpu);
      expect(out.ok).toBe(false);
      if (!out.ok) expect(out.failure.code).toBe('FUEL_EXHAUSTED');
      expect(out.fuelUsed).toBeLessThanOrEqual(1e9);
      // ~120-190 ms here; the old code ran to the 5 s deadline.
      expect((used.user + used.system) / 1000).toBeLessThan(1500);
    } finally {
      await sandbox.close();
    }
  }, 30_000);

});
