// rv12: red11 made Extism's memory accessors' refusals final, but not Extism's own output_set and
// error_set, which throw a plain Error on a missing block or a length past it: a plugin with
// allowExceptions caught it 20,000 times (~5 µs of stack trace each, a host call's fuel) and
// answered. Fails on red11's code (the call was ok).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { KERNEL_CALLS, kernelCatcher, wat } from '../fixtures/rv12-plugins.js';

describe('Extism refusing output_set/error_set ends the call, finally (rv12)', () => {
  for (const [what, call] of Object.entries(KERNEL_CALLS)) {
    for (const isolation of ['in-thread', 'worker'] as const) {
      it(`${what} (${isolation}): one TRAP`, async () => {
        const sandbox = await createSandbox(await wat(kernelCatcher(call)), { allowExceptions: true, isolation, limits: { timeoutMs: 10_000, fuel: 1e12 } });
        try {
          const out = await sandbox.call('run', new Uint8Array());
          expect(out.ok ? 'ok' : out.failure.code).toBe('TRAP');
          expect(out.fuelUsed).toBeLessThan(10_000);
        } finally {
          await sandbox.close();
        }
      });
    }
  }

  it('a plugin that sets its output or error properly is answered as before', async () => {
    const sandbox = await createSandbox(await wat(kernelCatcher('(nop)')), { allowExceptions: true, limits: { timeoutMs: 10_000, fuel: 1e12 } });
    try {
      const out = await sandbox.call('run', new Uint8Array());
      expect(out.ok && [...out.output]).toEqual([33]);
    } finally {
      await sandbox.close();
    }
  });
});
