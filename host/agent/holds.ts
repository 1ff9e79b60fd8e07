/** Work a session's events wait on (a store's writes): a prompt's `agent.end` (`holdEnd`) and `close()` (`holdClose`). */

/** The longest an `agent.end` or `close()` waits for its holds (a store's writes still under way then report their own failure). */
const HOLD_MAX_MS = 5_000;

export class Holds<T> {
  readonly #holds = new Set<(value: T) => Promise<unknown>>();

  get size(): number {
    return this.#holds.size;
  }

  /** Adds `hold`; returns the function that removes it. */
  add(hold: (value: T) => Promise<unknown>): () => void {
    this.#holds.add(hold);
    return () => this.#holds.delete(hold);
  }

  /**
   * Runs every hold on `value`; settles when each has (a rejection is ignored: a hold reports its own failures),
   * or after `HOLD_MAX_MS`: a store that stops answering must not keep a session forever.
   */
  async settled(value: T): Promise<void> {
    if (this.#holds.size === 0) return;
    const holds = [...this.#holds].map(async (hold) => hold(value));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled(holds), new Promise<void>((resolve) => (timer = setTimeout(resolve, HOLD_MAX_MS)))]);
    clearTimeout(timer);
  }
}
