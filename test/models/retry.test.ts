import { describe, expect, it } from 'vitest';
import { backoffMs, resolveRetry, retryAfterMs, sleep } from '../../host/models/retry.js';

describe('retry policy', () => {
  it('reads retry-after as seconds, as an HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2026-11-30T01:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Mon, 30 Nov 2026 01:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Mon, 30 Nov 2026 00:59:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '120', 'retry-after': '1' }), now)).toBe(120);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });

  it('grows exponentially with jitter between half and all of the step, up to the ceiling', () => {
    const low = resolveRetry({ random: () => 0 });
    const high = resolveRetry({ random: () => 0.999999 });
    expect([0, 1, 2].map((n) => backoffMs(n, low))).toEqual([250, 500, 1000]);
    expect([0, 1, 2].map((n) => backoffMs(n, high))).toEqual([500, 1000, 2000]);
    expect(backoffMs(20, high)).toBe(8000);
  });

  it('stops sleeping as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 20);
    await sleep(10_000, controller.signal);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
