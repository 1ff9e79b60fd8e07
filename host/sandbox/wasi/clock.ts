/**
 * The clocks a WASI plugin sees (clock_time_get, clock_res_get, poll_oneoff's clock
 * subscriptions): one step for all, so no way of asking the time is finer than another.
 */
/**
 * The monotonic clock's step a plugin sees: 100 µs, as browsers coarsen `performance.now()` for
 * code they do not trust. A plugin shares the process with the host's secrets (API keys, other
 * sessions' data) and other plugins; a clock precise to the microsecond is what timing side
 * channels (cache timing, Spectre-style reads) are measured with. The realtime clock is Date.now()'s
 * millisecond already.
 */
export const CLOCK_STEP_NS = 100_000n;

/** performance.now() in ns, cut down to a multiple of `CLOCK_STEP_NS` (still never decreasing). */
export function coarseMonotonicNs(): bigint {
  const ns = BigInt(Math.floor(performance.now() * 1e6));
  return ns - (ns % CLOCK_STEP_NS);
}

/**
 * Whether `id` names a WASI clock (realtime 0, monotonic 1, process and thread CPU time 2 and 3, read as the
 * monotonic clock): anything else is EINVAL in clock_res_get, clock_time_get and poll_oneoff. Read unsigned:
 * an i32 import argument arrives negative from 2^31 on.
 */
export function isClockId(id: number): boolean {
  return id >>> 0 <= 3;
}
