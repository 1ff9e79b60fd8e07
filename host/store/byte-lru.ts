/**
 * A least-recently-used cache bounded by bytes, the one such cache of the
 * stores: the file store's transcripts (a client reading every session in
 * turn made the server hold every transcript, review red18) and the Redis
 * log's replayed entries (each concurrent reconnect read and held its own
 * copy of the same events, review red22). Past `maxBytes` the least recently
 * used go (`onEvict` is told); a key with an operation under way (pinned)
 * stays until it ends, so a read or an append never sees its value vanish
 * halfway. What is dropped is read again from its source when next needed.
 */
export class ByteLru<K, V> {
  /** Each kept value and its size, least recently used first (a Map keeps insertion order). */
  readonly #kept = new Map<K, { value: V; bytes: number }>();
  readonly #pins = new Map<K, number>();
  #total = 0;

  constructor(
    readonly maxBytes: number,
    private readonly onEvict: (key: K, value: V) => void = () => {},
  ) {}

  /** Bytes held now (what the cap compares). */
  get bytes(): number {
    return this.#total;
  }

  /** Values held now. */
  get size(): number {
    return this.#kept.size;
  }

  has(key: K): boolean {
    return this.#kept.has(key);
  }

  /** The kept value, now the most recently used; undefined when it is not kept. */
  get(key: K): V | undefined {
    const kept = this.#kept.get(key);
    if (!kept) return undefined;
    this.#kept.delete(key);
    this.#kept.set(key, kept);
    return kept.value;
  }

  /** Keeps `value` under `key`, `bytes` large, as the most recently used (the least recently used may go). */
  set(key: K, value: V, bytes: number): void {
    this.#total += bytes - (this.#kept.get(key)?.bytes ?? 0);
    this.#kept.delete(key);
    this.#kept.set(key, { value, bytes });
    this.#evict();
  }

  /** A kept value grew by `bytes` (an append to a transcript). */
  grow(key: K, bytes: number): void {
    const kept = this.#kept.get(key);
    if (kept) this.set(key, kept.value, kept.bytes + bytes);
  }

  /** Drops `key` without telling `onEvict` (its owner dropped it). */
  forget(key: K): void {
    const kept = this.#kept.get(key);
    if (!kept) return;
    this.#kept.delete(key);
    this.#total -= kept.bytes;
  }

  /** Drops every value without telling `onEvict`. */
  clear(): void {
    this.#kept.clear();
    this.#total = 0;
  }

  /** Runs `fn` with `key` pinned: not evicted until `fn` settles. */
  async pinned<T>(key: K, fn: () => Promise<T>): Promise<T> {
    this.#pins.set(key, (this.#pins.get(key) ?? 0) + 1);
    try {
      return await fn();
    } finally {
      const left = (this.#pins.get(key) as number) - 1;
      if (left === 0) this.#pins.delete(key);
      else this.#pins.set(key, left);
      this.#evict();
    }
  }

  #evict(): void {
    for (const [key, kept] of this.#kept) {
      if (this.#total <= this.maxBytes) return;
      if (this.#pins.has(key)) continue;
      this.#kept.delete(key);
      this.#total -= kept.bytes;
      this.onEvict(key, kept.value);
    }
  }
}
