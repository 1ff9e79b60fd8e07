// red11, class "a cost not charged where it is incurred": with exception handling allowed, a throw
// the plugin catches costs the engine 0.8–2.9 µs but was charged 1 fuel (its weight), so a loop of
// caught throws ran 200–1,400× longer per fuel than ordinary code: with `timeoutMs: Infinity`, a
// budget meant for ~0.1 s of CPU bought minutes. throw and rethrow are now charged THROW_FUEL at a
// check of their own, in both metering modes. Fails on the old code (100 throws used ~1,300 fuel).
import { describe, expect, it } from 'vitest';
import wabtInit from 'wabt';
import { createSandbox } from '../../host/sandbox/index.js';
import { THROW_FUEL } from '../../host/sandbox/instrument/opcodes.js';

const wabt = wabtInit();
async function wat(source: string): Promise<Uint8Array> {
  const mod = (await wabt).parseWat('throws.wat', source, { exceptions: true });
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

/** `count` iterations of `body` (then returns), or forever with `count` 0. */
const looping = (body: string, count: number) => `(module (memory (export "memory") 1) (tag $e (param i32))
  (func (export "run") (result i32) (local $i i32)
    (loop $l ${body}
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.or (i32.eqz (i32.const ${count})) (i32.lt_u (local.get $i) (i32.const ${count})))))
    (i32.const 0)))`;

const BODIES = {
  throw: '(try (do (throw $e (i32.const 1))) (catch $e (drop)))',
  rethrow: '(try (do (try (do (throw $e (i32.const 1))) (catch_all (rethrow 0)))) (catch_all))',
  delegate: '(try (do (try (do (throw $e (i32.const 1))) (delegate 0))) (catch_all))',
};

describe('throws are charged what they cost (red11)', () => {
  it.each(['fast', 'exact'] as const)('%s metering: 100 caught throws use at least 100 × THROW_FUEL', async (metering) => {
    for (const [name, body] of Object.entries(BODIES)) {
      const sandbox = await createSandbox(await wat(looping(body, 100)), { allowExceptions: true, metering, limits: { timeoutMs: 10_000, fuel: 1e12 } });
      try {
        const out = await sandbox.call('run', new Uint8Array());
        expect(out.ok, name).toBe(true);
        const throws = name === 'rethrow' ? 200 : 100;
        expect(out.fuelUsed, name).toBeGreaterThanOrEqual(throws * THROW_FUEL);
      } finally {
        await sandbox.close();
      }
    }
  });

  it('with no deadline, an endless loop of caught throws ends on its fuel within a few ms of CPU', async () => {
    const sandbox = await createSandbox(await wat(looping(BODIES.throw, 0)), { allowExceptions: true, limits: { timeoutMs: Infinity, fuel: 50_000_000 } });
    try {
      const started = performance.now();
      const out = await sandbox.call('run', new Uint8Array());
      expect(out.ok ? 'ok' : out.failure.code).toBe('FUEL_EXHAUSTED');
      // 50M fuel of ordinary code is ~5–15 ms; the old charge let this loop run 10–70 s.
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await sandbox.close();
    }
  });
});
