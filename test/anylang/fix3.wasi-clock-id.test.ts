// fix3 item 4 (vitest twin of the WASI scenario in test/xrt/fix3.xrt.ts): a clock id that names no WASI clock is
// EINVAL in poll_oneoff (it was waited out as the monotonic clock: an absolute wake-up at 2^64 - 1 ns slept past
// the deadline), clock_time_get and clock_res_get (an id from 2^31 on arrives negative and passed `id > 3`).
import { describe, expect, it } from 'vitest';
import { directWasi as setup } from './wasi-direct.js';

function subscribe(view: DataView, at: number, clock: number, timeout: bigint, absolute: boolean, type = 0): void {
  view.setUint8(at + 8, type);
  view.setUint32(at + 16, clock, true);
  view.setBigUint64(at + 24, timeout, true);
  view.setUint16(at + 40, absolute ? 1 : 0, true);
}

describe('WASI clock ids (fix3)', () => {
  it('poll_oneoff: an unknown clock id is EINVAL at once, nothing written, whatever else is subscribed', () => {
    for (const clock of [4, 2 ** 31, 2 ** 32 - 1]) {
      const { fns, view } = setup();
      view.setUint32(8192, 77, true);
      subscribe(view, 0, clock, 2n ** 64n - 1n, true);
      const started = performance.now();
      expect(fns.poll_oneoff!(0, 4096, 1, 8192), String(clock)).toBe(28);
      expect(performance.now() - started).toBeLessThan(50);
      expect(view.getUint32(8192, true)).toBe(77);
      // Beside a ready stdin subscription (type 1, fd 0): still EINVAL, no event.
      subscribe(view, 0, 0, 0n, false, 1);
      subscribe(view, 48, clock, 1n, false);
      expect(fns.poll_oneoff!(0, 4096, 2, 8192)).toBe(28);
      expect(view.getUint32(8192, true)).toBe(77);
    }
  });

  it('poll_oneoff: the four WASI clocks still sleep', () => {
    for (const clock of [0, 1, 2, 3]) {
      const { fns, view } = setup();
      subscribe(view, 0, clock, 1n, false);
      expect(fns.poll_oneoff!(0, 4096, 1, 8192), String(clock)).toBe(0);
      expect(view.getUint32(8192, true)).toBe(1);
    }
  });

  it('clock_time_get and clock_res_get: ids past 3, negative as i32 too, are EINVAL', () => {
    const { fns } = setup();
    for (const id of [4, -1, -(2 ** 31), 2 ** 31 - 1]) {
      expect(fns.clock_time_get!(id, 0n, 1024), String(id)).toBe(28);
      expect(fns.clock_res_get!(id, 1024), String(id)).toBe(28);
    }
    for (const id of [0, 1, 2, 3]) expect(fns.clock_time_get!(id, 0n, 1024)).toBe(0);
  });
});
