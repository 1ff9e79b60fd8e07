/**
 * Timer delays from options. setTimeout keeps a delay in a 32-bit signed count of milliseconds on
 * Node, Deno and Bun alike, and fires one past it (about 24.8 days) after 1 ms: a timeout meant as
 * "practically never" (a hook's `timeoutMs: 3e9`, `Infinity`) would expire at once, and a fail-open
 * hook (a redactor, an audit log) would then be skipped on every call. Every timer set from an
 * option goes through `timerDelay`.
 */

/** The longest delay setTimeout keeps (2³¹ − 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` as setTimeout will keep it: longer delays (and Infinity) are capped at `MAX_TIMER_MS`, never wrapped to 1 ms. */
export function timerDelay(ms: number): number {
  return ms > MAX_TIMER_MS ? MAX_TIMER_MS : ms;
}
