// A call stopped for its fuel reports its whole budget as used. A charge the budget cannot cover
// (a refused refuel, a host call's bytes, an exception's unwind charged by its time) stops the call;
// before, the refused charge was left out of fuelUsed, so a 2,000,000 budget could read FUEL_EXHAUSTED
// with 432,223 used: a collector pause during one unwind made its charge 38M (CI, Deno, redteam.xrt
// "retrying forever"). fuelUsed then undercounted the call's work, and the message ("burnt its fuel
// budget") contradicted it.
import { describe, expect, it } from 'vitest';
import { charge } from '../../host/sandbox/host-call.js';
import { Meter, StopSignal } from '../../host/sandbox/meter.js';
import { createSandbox } from '../../host/sandbox/index.js';
import { hostile } from './sandbox-helpers.js';

const budget = (fuel: number) => ({ deadline: performance.now() + 60_000, timeoutMs: 60_000, fuel, signal: undefined });
const stopCode = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    return error instanceof StopSignal ? error.code : String(error);
  }
  return 'none';
};

describe('a call stopped for its fuel used its whole budget', () => {
  it('a host charge past the budget, with a slice still in the global', () => {
    const meter = new Meter(budget(2_000_000), 1_200_000, null);
    meter.prefill(0n); // 1,200,000 handed out, all still in the global
    expect(stopCode(() => charge(meter, 38_000_000))).toBe('FUEL_EXHAUSTED');
    expect(meter.used(1_200_000n)).toBe(2_000_000);
  });

  it('a refuel whose overdraft the budget cannot cover', () => {
    const global = new WebAssembly.Global({ value: 'i64', mutable: true }, -50_000n);
    const meter = new Meter(budget(100_000), 80_000, global);
    meter.prefill(0n);
    expect(stopCode(() => meter.refuel())).toBe('FUEL_EXHAUSTED');
    expect(meter.used(-50_000n)).toBe(100_000);
  });

  it('a timeout is not a fuel stop: only what was burnt counts', () => {
    const meter = new Meter({ ...budget(2_000_000), deadline: performance.now() - 1 }, 10_000, null);
    meter.prefill(0n);
    expect(stopCode(() => meter.gate())).toBe('TIMEOUT');
    expect(meter.used(4_000n)).toBe(6_000);
  });

  it.each([['in-thread', {}], ['worker', { isolation: 'worker' as const }]])(
    '%s: a throw from 4,096 frames down whose unwind costs more than the budget',
    async (_, options) => {
      const sandbox = await createSandbox(await hostile('red16-unwind'), { allowExceptions: true, ...options, limits: { timeoutMs: 60_000, fuel: 1_000_000 } });
      try {
        const outcome = await sandbox.call('run', new Uint8Array([16]));
        expect(outcome.ok ? 'ok' : outcome.failure.code).toBe('FUEL_EXHAUSTED');
        expect(outcome.fuelUsed).toBe(1_000_000);
      } finally {
        await sandbox.close();
      }
    },
  );
});
