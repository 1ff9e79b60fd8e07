// rv12: red11 made every host-call error final "proc_exit aside": a plugin with allowExceptions
// caught its own exit with catch_all, 20,000 times at ~6 µs each (a stack trace) for a host call's
// ~1,000 fuel (70x underpriced), and then answered as if it had never exited. proc_exit never
// returns: the exit is now final like a stop, and the outcome is the exit's (0: a finished call with
// no output; else PLUGIN_ERROR). Fails on red11's code (output "!", fuel 20 million).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { exitCatcher, wat } from '../fixtures/rv12-plugins.js';

describe('a plugin cannot catch its own exit (rv12)', () => {
  for (const isolation of ['in-thread', 'worker'] as const) {
    it(`exit 0 caught by catch_all (${isolation}): a finished call with no output, at once`, async () => {
      const sandbox = await createSandbox(await wat(exitCatcher(0)), { wasi: true, allowExceptions: true, isolation, limits: { timeoutMs: 10_000, fuel: 1e12 } });
      try {
        const out = await sandbox.call('run', new Uint8Array());
        expect(out.ok && [...out.output]).toEqual([]);
        expect(out.fuelUsed).toBeLessThan(100_000);
      } finally {
        await sandbox.close();
      }
    });

    it(`exit 3 caught by catch_all (${isolation}): PLUGIN_ERROR naming the code`, async () => {
      const sandbox = await createSandbox(await wat(exitCatcher(3)), { wasi: true, allowExceptions: true, isolation, limits: { timeoutMs: 10_000, fuel: 1e12 } });
      try {
        const out = await sandbox.call('run', new Uint8Array());
        expect(out.ok ? 'ok' : `${out.failure.code} ${out.failure.message}`).toBe('PLUGIN_ERROR the plugin exited with code 3');
        expect(out.fuelUsed).toBeLessThan(100_000);
      } finally {
        await sandbox.close();
      }
    });
  }
});
