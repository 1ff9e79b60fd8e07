// A plugin that calls a host function the gate does not check (output_set:
// the host's work for it is constant) in a tight loop: its charge alone must
// stop it, by fuel within the budget and by the deadline within the
// documented slack, and the stop is final. The same on Deno and Bun:
// test/xrt/sandbox.xrt.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { GATED_CALL_FUEL } from '../../host/sandbox/instrument/hostcalls.js';
import type { SandboxedModule } from '../../host/sandbox/types.js';
import { hostile, str, text } from './sandbox-helpers.js';

const DEADLINE = 50;
/** The documented slack: a call with a deadline ends by max(2 × deadline, deadline + 50 ms). */
const ENDS_BY = Math.max(2 * DEADLINE, DEADLINE + 50);

let flood: SandboxedModule;
let echo: SandboxedModule;
beforeAll(async () => {
  // A deadline far off unless a test sets one: 10,000 host calls ('many') can outrun the default 100 ms on a loaded machine.
  flood = await createSandbox(await hostile('output-set-flood'), { name: 'flood', limits: { timeoutMs: 10_000 }, quarantine: { maxConsecutiveFailures: 100 } });
  echo = await createSandbox(await hostile('echo'), { name: 'echo' });
});
afterAll(async () => {
  await flood.close();
  await echo.close();
});

describe('an ungated host call in a tight loop', () => {
  it('pays at least GATED_CALL_FUEL a call', async () => {
    const once = await flood.call('once', new Uint8Array(0));
    const many = await flood.call('many', new Uint8Array(0));
    expect([once, many].map((o) => (o.ok ? 'ok' : o.failure.code))).toEqual(['ok', 'ok']);
    expect(many.fuelUsed - once.fuelUsed).toBeGreaterThanOrEqual(9_999 * GATED_CALL_FUEL);
  });

  it('stops at its deadline, within the slack, and the stop is final', async () => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const outcome = await flood.call('run', new Uint8Array(0), { limits: { timeoutMs: DEADLINE, fuel: 1e15 } });
      times.push(performance.now() - started);
      expect(outcome.ok ? 'ok' : outcome.failure.code).toBe('TIMEOUT');
    }
    // On the median: a loaded machine (the suite runs files in parallel on 2 cores) delays any one run.
    times.sort((a, b) => a - b);
    expect(times[2]).toBeLessThan(ENDS_BY);
    const back = await echo.call('run', text('after'));
    expect(back.ok && str(back.output)).toBe('after');
  });

  it('counts the same fuel whether a call starts on what the last call left in the global or on a fresh slice', async () => {
    await flood.call('many', new Uint8Array(0)); // refuels: the slice grows, and most of the last one is left over
    const figures: number[] = [];
    for (let i = 0; i < 6; i++) {
      const once = await flood.call('once', new Uint8Array(0));
      expect(once.ok).toBe(true);
      figures.push(once.fuelUsed);
    }
    expect(new Set(figures).size).toBe(1);
    // A budget below what is left over: the call gets no more than its budget.
    const small = await flood.call('once', new Uint8Array(0), { limits: { fuel: 500 } });
    expect(small.ok ? 'ok' : small.failure.code).toBe('FUEL_EXHAUSTED');
    expect(small.fuelUsed).toBeLessThanOrEqual(500);
    const spent = await flood.call('many', new Uint8Array(0), { limits: { fuel: 3_000_000 } });
    expect(spent.ok ? 'ok' : spent.failure.code).toBe('FUEL_EXHAUSTED');
    expect(spent.fuelUsed).toBeLessThanOrEqual(3_000_000);
  });

  it('stops at its fuel budget, and never reports more than the budget', async () => {
    for (const fuel of [50_000, 2_000_000]) {
      const outcome = await flood.call('run', new Uint8Array(0), { limits: { timeoutMs: 10_000, fuel } });
      expect(outcome.ok ? 'ok' : outcome.failure.code).toBe('FUEL_EXHAUSTED');
      expect(outcome.fuelUsed).toBeLessThanOrEqual(fuel);
    }
    const fine = await flood.call('once', new Uint8Array(0));
    expect(fine.ok).toBe(true);
  });
});
