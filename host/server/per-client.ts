/**
 * Per-client caps (review red18). `maxSessions` and `maxSseClients` bound
 * the server as a whole, so one client could take all of either and lock
 * every other out: 1,000 streams from one address, or 10,000
 * `POST /session` in a loop. What each remote address holds is counted
 * here, one implementation for streams and sessions; past its cap a
 * request is `429 too_many_requests` naming the cap. A client is its
 * address (the adapters' `Connection.remoteAddress`): behind a proxy every
 * client shares the proxy's, so the proxy must bound per client itself.
 */
import { ApiError } from './errors.js';

/** What each address holds, by key (a stream, a session id). */
export class PerClient<K> {
  readonly #held = new Map<string, Set<K>>();
  readonly #address = new Map<K, string>();

  constructor(
    /** The option that sets the cap, for the refusal's message. */
    private readonly option: string,
    readonly cap: number,
    /** What is held, plural ("event streams", "sessions"). */
    private readonly what: string,
  ) {}

  count(address: string): number {
    return this.#held.get(address)?.size ?? 0;
  }

  /** The keys `address` holds (to check again which still exist). */
  keys(address: string): K[] {
    return [...(this.#held.get(address) ?? [])];
  }

  /** Throws the API's 429 when `address` already holds its cap. */
  check(address: string | undefined): void {
    if (address === undefined) return;
    const count = this.count(address);
    if (count < this.cap) return;
    throw new ApiError(
      'too_many_requests',
      `this client (${address}) already holds ${count} ${this.what}, its cap (${this.option}: ${this.cap}); close or delete one and retry`,
    );
  }

  /**
   * Checks `address` against its cap and holds `key` for it, in one step. At the cap, the keys `exists` says
   * are gone (a session another replica deleted) are let go first.
   */
  async admit(address: string | undefined, key: K, exists: (key: K) => Promise<boolean>): Promise<void> {
    if (address === undefined) return;
    if (this.count(address) >= this.cap) {
      const held = this.keys(address);
      const alive = await Promise.all(held.map((k) => exists(k).catch(() => true)));
      held.forEach((k, i) => alive[i] || this.remove(k));
    }
    this.check(address);
    this.add(address, key);
  }

  add(address: string | undefined, key: K): void {
    if (address === undefined) return;
    const set = this.#held.get(address) ?? new Set<K>();
    set.add(key);
    this.#held.set(address, set);
    this.#address.set(key, address);
  }

  remove(key: K): void {
    const address = this.#address.get(key);
    if (address === undefined) return;
    this.#address.delete(key);
    const set = this.#held.get(address);
    set?.delete(key);
    if (set?.size === 0) this.#held.delete(address);
  }
}
