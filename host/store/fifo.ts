/**
 * A first-in first-out queue with O(1) removal at the front. An array's
 * `shift()` moves every element: on a queue of 100 000 entries (the Redis
 * log's while Redis is away, dropping its oldest at each append) that made
 * each append O(n). Here the front is an index, and the array is compacted
 * once the dead part at its start is at least as long as the live part, so
 * every operation is O(1) amortized.
 */
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** The `i`-th item from the front (0: the oldest). */
  at(i: number): T | undefined {
    return i >= 0 && i < this.size ? this.#items[this.#head + i] : undefined;
  }

  /** The first `n` items, oldest first (a copy). */
  first(n: number): T[] {
    return this.#items.slice(this.#head, this.#head + Math.max(0, n));
  }

  /** Removes the `n` oldest items. */
  drop(n: number): void {
    const count = Math.min(Math.max(0, n), this.size);
    // Let go of what was dropped (the queue may hold large texts).
    this.#items.fill(undefined as T, this.#head, this.#head + count);
    this.#head += count;
    if (this.#head >= this.size) this.#compact();
  }

  /** Keeps exactly the items `keep` accepts, in order (in place). */
  retain(keep: (item: T) => boolean): void {
    this.#compact();
    let kept = 0;
    for (const item of this.#items) if (keep(item)) this.#items[kept++] = item;
    this.#items.length = kept;
  }

  #compact(): void {
    if (this.#head === 0) return;
    this.#items = this.#items.slice(this.#head);
    this.#head = 0;
  }
}
