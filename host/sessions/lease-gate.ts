/**
 * What a prompt on a shared store (Redis) publishes while its lease is not
 * known to be held. Store writes carry the lease's fencing token, so a
 * prompt that was taken over cannot write the store; the event log has no
 * token. A replica cut off from the store (a partition, a stalled process
 * or Redis) cannot tell a lease that lapsed from one another replica took,
 * and the other replica may report the prompt interrupted and run the next
 * one once the lease expires. So from `leaseMs - margin` after the last
 * confirmation was sent (the lease's expiry is counted from when the store
 * ran it, later than that), events are held here: a confirmation sent later
 * (a renewal or a write the store accepted with the token) publishes them in
 * order, a refusal drops them (the other replica published the end), and so
 * does the prompt's end with nothing confirmed (the lease then expires and a
 * sweep publishes `prompt.interrupted`). Two replicas never publish one
 * session's prompts at once, and a prompt that lapsed with nobody taking
 * over loses nothing. What the gate cannot hold: an event sent just before
 * the margin that reaches the store after the lease expired (a delay longer
 * than the margin), and a tool's own side effects outside the store.
 */
import type { HostEvent } from '../events/types.js';

/** Held events past which the prompt is aborted (its store answers nothing; the held events stay bounded). */
const MAX_HELD = 10_000;

export class LeaseGate {
  readonly #publish: (event: HostEvent) => void;
  readonly #onOverflow: () => void;
  /** Publishing stops this long before the lease's expiry (delays between this process and the store). */
  readonly #window: number;
  #confirmedAt: number;
  #held: HostEvent[] = [];
  #lost = false;

  /** `confirmedAt`: when the acquire that took the lease was sent. */
  constructor(leaseMs: number, confirmedAt: number, publish: (event: HostEvent) => void, onOverflow: () => void) {
    this.#window = leaseMs - Math.min(Math.floor(leaseMs / 5), 2000);
    this.#confirmedAt = confirmedAt;
    this.#publish = publish;
    this.#onOverflow = onOverflow;
  }

  /** Whether the lease may have expired by now (no confirmation sent within the window). */
  get lapsed(): boolean {
    return performance.now() - this.#confirmedAt >= this.#window;
  }

  publish(event: HostEvent): void {
    if (this.#lost) return;
    if (this.#held.length === 0 && !this.lapsed) return this.#publish(event);
    this.#held.push(event);
    if (this.#held.length === MAX_HELD) this.#onOverflow();
  }

  /** The store accepted the token in a call sent at `sentAt`: the lease was ours until `sentAt + leaseMs` at least. */
  confirm(sentAt: number): void {
    if (this.#lost) return;
    this.#confirmedAt = Math.max(this.#confirmedAt, sentAt);
    if (this.#held.length === 0 || this.lapsed) return;
    const held = this.#held;
    this.#held = [];
    for (const event of held) this.#publish(event);
  }

  /** The store refused the token: nothing more is published. */
  lose(): void {
    this.#lost = true;
    this.#held = [];
  }

  /** The prompt is over: whatever is still held was never confirmed and is dropped. */
  end(): number {
    const dropped = this.#held.length;
    this.#held = [];
    return dropped;
  }
}
