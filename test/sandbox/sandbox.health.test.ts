// The health state machine on its own, with a fake clock.
import { describe, expect, it } from 'vitest';
import { failure } from '../../host/sandbox/failures.js';
import { HealthTracker } from '../../host/sandbox/health.js';
import type { FailureCode } from '../../host/failure.js';
import type { CallOutcome, HealthEvent } from '../../host/sandbox/types.js';

const ok: CallOutcome = { ok: true, output: new Uint8Array(0), fuelUsed: 1, durationMs: 1 };
const failed = (code: FailureCode): CallOutcome => ({ ok: false, failure: failure(code, code), fuelUsed: 0, durationMs: 1 });

describe('HealthTracker', () => {
  it('doubles the backoff on each failed probe, up to the cap, and resets it on success', () => {
    let now = 0;
    const events: HealthEvent[] = [];
    const tracker = new HealthTracker({ maxConsecutiveFailures: 2, backoffMs: 100, maxBackoffMs: 350 }, () => now);
    tracker.subscribe((e) => events.push(e));
    tracker.record(failed('TRAP'));
    expect(tracker.gate()).toBeNull();
    tracker.record(failed('TIMEOUT'));
    expect(tracker.gate()?.code).toBe('QUARANTINED');
    const waits: number[] = [];
    for (let probe = 0; probe < 4; probe++) {
      const until = events.at(-1)!.retryAt!;
      waits.push(until - now);
      now = until - 1;
      expect(tracker.gate()?.code).toBe('QUARANTINED');
      now = until;
      expect(tracker.gate()).toBeNull();
      tracker.record(failed('FUEL_EXHAUSTED'));
    }
    expect(waits).toEqual([100, 200, 350, 350]);
    now = events.at(-1)!.retryAt!;
    tracker.record(ok);
    expect(tracker.health).toBe('healthy');
    tracker.record(failed('TRAP'));
    tracker.record(failed('TRAP'));
    expect(events.at(-1)!.retryAt! - now).toBe(100);
  });

  it('ignores failures that are not the plugin’s doing', () => {
    const tracker = new HealthTracker({ maxConsecutiveFailures: 1, backoffMs: 100, maxBackoffMs: 100 });
    for (const code of ['ABORTED', 'INPUT_TOO_LARGE', 'PLUGIN_ERROR', 'MISSING_EXPORT', 'QUARANTINED'] as const) {
      tracker.record(failed(code));
    }
    expect(tracker.health).toBe('healthy');
    tracker.record(failed('OUTPUT_TOO_LARGE'));
    expect(tracker.health).toBe('quarantined');
  });

  it('takes a plugin’s own error as proof that it runs', () => {
    const tracker = new HealthTracker({ maxConsecutiveFailures: 3, backoffMs: 100, maxBackoffMs: 100 });
    tracker.record(failed('TRAP'));
    tracker.record(failed('TRAP'));
    expect(tracker.health).toBe('degraded');
    tracker.record(failed('PLUGIN_ERROR'));
    expect(tracker.health).toBe('healthy');
    tracker.record(failed('TRAP'));
    tracker.record(failed('TRAP'));
    expect(tracker.health).toBe('degraded');
  });
});
