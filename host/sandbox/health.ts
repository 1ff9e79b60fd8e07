/**
 * Health of one module: consecutive plugin-caused failures degrade it, N in a
 * row quarantine it. A quarantined module fails fast until its backoff ends,
 * then lets exactly one probe call through; a failed probe doubles the
 * backoff (capped), a successful one makes the module healthy again.
 */
import { safely } from '../errors.js';
import { FAILURE_RULES, failure } from './failures.js';
import type { Health, PluginFailure } from '../failure.js';
import type { CallOutcome, HealthEvent, QuarantinePolicy } from './types.js';

export const DEFAULT_QUARANTINE: Readonly<QuarantinePolicy> = Object.freeze({
  maxConsecutiveFailures: 3,
  backoffMs: 1_000,
  maxBackoffMs: 30_000,
});

export class HealthTracker {
  #health: Health = 'healthy';
  #consecutive = 0;
  #backoffMs: number;
  #retryAt = 0;
  #listeners = new Set<(event: HealthEvent) => void>();

  constructor(
    readonly policy: Readonly<QuarantinePolicy>,
    private readonly now: () => number = Date.now,
  ) {
    this.#backoffMs = policy.backoffMs;
  }

  get health(): Health {
    return this.#health;
  }

  subscribe(listener: (event: HealthEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The failure to return instead of calling, or null when a call may go in. */
  gate(): PluginFailure | null {
    if (this.#health !== 'quarantined') return null;
    const wait = this.#retryAt - this.now();
    if (wait <= 0) return null; // the probe
    return failure(
      'QUARANTINED',
      `the plugin failed ${this.#consecutive} calls in a row and is quarantined; next try in ${Math.ceil(wait)} ms`,
    );
  }

  record(outcome: CallOutcome): void {
    const effect = outcome.ok ? 'resets' : FAILURE_RULES[outcome.failure.code].health;
    // A plugin that reports its own error ran to completion: it works.
    if (effect === 'resets') {
      this.#consecutive = 0;
      this.#backoffMs = this.policy.backoffMs;
      this.#move('healthy');
      return;
    }
    if (effect === 'neutral' || outcome.ok) return;
    this.#consecutive++;
    if (this.#health === 'quarantined' || this.#consecutive >= this.policy.maxConsecutiveFailures) {
      // A failed probe doubles the wait; the first quarantine uses the base.
      if (this.#health === 'quarantined') {
        this.#backoffMs = Math.min(this.#backoffMs * 2, this.policy.maxBackoffMs);
      }
      this.#retryAt = this.now() + this.#backoffMs;
      this.#move('quarantined', outcome.failure, true);
      return;
    }
    this.#move('degraded', outcome.failure);
  }

  #move(to: Health, cause?: PluginFailure, always = false): void {
    const from = this.#health;
    if (from === to && !always) return;
    this.#health = to;
    const event: HealthEvent = { from, to, consecutiveFailures: this.#consecutive };
    if (cause) event.failure = cause;
    if (to === 'quarantined') event.retryAt = this.#retryAt;
    for (const listener of this.#listeners) safely(() => listener(event));
  }
}
