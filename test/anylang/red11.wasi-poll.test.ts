// red11, class "a precise timer for untrusted code", second way in: red8 coarsened WASI's clocks to
// 100 µs, but a poll_oneoff clock subscription still woke at any nanosecond (a 1 ns sleep ended at
// once, so a loop of them timed work finely). Wake-ups are now on the clock's step: every sleep ends
// on a step boundary past the last. Fails on the code before the fix (50 sleeps took microseconds).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOCK_STEP_NS } from '../../host/sandbox/wasi/preview1.js';
import { directWasi as setup } from './wasi-direct.js';

/** One clock subscription at 0: `clock` id, `timeout` ns, absolute or relative. */
function subscribe(view: DataView, clock: number, timeout: bigint, absolute: boolean): void {
  view.setUint8(8, 0);
  view.setUint32(16, clock, true);
  view.setBigUint64(24, timeout, true);
  view.setUint16(40, absolute ? 1 : 0, true);
}

/** performance.now() made to read `start` ms and then 1 µs more at each read (the sleep's own loop reads it). */
function fakeClock(start: number): () => number {
  let t = start;
  vi.spyOn(performance, 'now').mockImplementation(() => (t += 0.001));
  return () => t;
}

describe('WASI poll_oneoff clocks (red11)', () => {
  afterEach(() => void vi.restoreAllMocks());

  it('a 1 ns sleep begun 10 µs past a step ends on the next step, not 1 ns later', () => {
    const { fns, view } = setup();
    subscribe(view, 1, 1n, false);
    const now = fakeClock(1_000.01);
    expect(fns.poll_oneoff!(0, 4096, 1, 8192)).toBe(0);
    expect(now()).toBeGreaterThanOrEqual(1_000.1 - 1e-6);
    expect(now()).toBeLessThan(1_000.11);
  });

  it('an absolute wake-up between two steps ends at the next step, as the clock reads it', () => {
    const { fns, view } = setup();
    const now = fakeClock(2_000.0);
    subscribe(view, 1, 2_000_250_001n, true);
    expect(fns.poll_oneoff!(0, 4096, 1, 8192)).toBe(0);
    expect(now()).toBeGreaterThanOrEqual(2_000.3 - 1e-6);
    expect(now()).toBeLessThan(2_000.31);
  });

  it('50 sleeps of 1 ns span at least 49 clock steps: each wakes on the step after the last', () => {
    const { fns, view } = setup();
    subscribe(view, 1, 1n, false);
    const started = performance.now();
    for (let i = 0; i < 50; i++) expect(fns.poll_oneoff!(0, 4096, 1, 8192)).toBe(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual((49 * Number(CLOCK_STEP_NS)) / 1e6);
  });
});
