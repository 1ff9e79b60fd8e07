// red16, class "a cost not charged where it is incurred" (after red11's flat throw charge): unwinding
// a wasm exception costs the engine per frame it unwinds (and on Bun per frame on the stack), and a
// throw paid a flat THROW_FUEL (16,384) whatever its depth. A loop that throws from 4,000 frames down
// and catches at the top ran 25-35 ns per fuel on Node 20 and Bun 1.4, 100-300x ordinary code: with
// the deadline far off, the default budget (≈ 0.1 s of CPU) bought 25-35 s. Now the time from a throw
// to the handler that catches it is charged at ordinary code's rate (gate.ts). Fails on the old code
// (the throw loop's CPU per fuel was 60-130x the plain recursion's).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { hostile } from './sandbox-helpers.js';

const FUEL = 50_000_000;

async function cpuOf(fn: 'run' | 'flat', options: { metering?: 'fast' | 'exact'; isolation?: 'worker' }) {
  const sandbox = await createSandbox(await hostile('red16-unwind'), { allowExceptions: true, ...options, limits: { timeoutMs: 60_000, fuel: FUEL } });
  try {
    const started = performance.now();
    const outcome = await sandbox.call(fn, new Uint8Array([16])); // depth 4,096
    const ms = performance.now() - started;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.failure.code).toBe('FUEL_EXHAUSTED');
    expect(outcome.fuelUsed).toBeLessThanOrEqual(FUEL);
    return ms;
  } finally {
    await sandbox.close();
  }
}

describe('red16: unwinding an exception is charged for the time it takes', () => {
  it.each([
    ['fast', {}],
    ['exact', { metering: 'exact' as const }],
    ['worker', { isolation: 'worker' as const }],
  ])('%s: a loop of throws from 4,096 frames down spends its fuel at about ordinary code\'s pace', async (_, options) => {
    const flat = await cpuOf('flat', options);
    const unwinding = await cpuOf('run', options);
    // Old code: 1.4-1.7 s against 30-35 ms (fast, worker) and 0.8 s (exact, whose global counter
    // slows the recursion). Now tens of ms: one throw from this depth costs ~1.3 ms of unwinding,
    // charged ~13M fuel. The bound leaves room for a loaded machine.
    expect(unwinding).toBeLessThan(Math.max(400, 1.5 * flat));
  }, 60_000);
});
