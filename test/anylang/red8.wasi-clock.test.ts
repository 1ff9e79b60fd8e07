// Red review (red8), class "a precise timer for untrusted code": WASI's monotonic clock gave a
// plugin performance.now() to the nanosecond it reports (microseconds in practice), the instrument
// timing side channels are measured with, in a process holding the host's secrets. It is now
// coarsened to 100 µs, as browsers do for untrusted code. Fails on the code before the fix.
import { describe, expect, it } from 'vitest';
import { CLOCK_STEP_NS } from '../../host/sandbox/wasi/preview1.js';
import { directWasi as setup } from './wasi-direct.js';

describe('WASI clocks', () => {
  it('the monotonic clock (and the CPU-time ones) step by 100 µs, and say so', () => {
    const { fns, view } = setup();
    for (const id of [1, 2, 3]) {
      expect(fns.clock_res_get!(id, 0)).toBe(0);
      expect(view.getBigUint64(0, true)).toBe(CLOCK_STEP_NS);
      const seen = new Set<bigint>();
      const until = performance.now() + 5;
      let last = 0n;
      while (performance.now() < until) {
        expect(fns.clock_time_get!(id, 1n, 8)).toBe(0);
        const t = view.getBigUint64(8, true);
        expect(t % CLOCK_STEP_NS).toBe(0n);
        expect(t >= last).toBe(true);
        last = t;
        seen.add(t);
      }
      // 5 ms of readings: about 50 distinct values at a 100 µs step (thousands at the old precision).
      expect(seen.size).toBeLessThanOrEqual(60);
    }
  });

  it('the realtime clock is in milliseconds', () => {
    const { fns, view } = setup();
    expect(fns.clock_time_get!(0, 1n, 8)).toBe(0);
    expect(view.getBigUint64(8, true) % 1_000_000n).toBe(0n);
  });
});
