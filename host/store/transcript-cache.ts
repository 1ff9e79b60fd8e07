/**
 * Which loaded transcripts the file store keeps in memory. They were kept for
 * as long as the process ran: a client reading every session's messages in
 * turn (`GET /session/:id/messages`) made the server hold every transcript of
 * the data directory (review red18). Past `maxBytes` the least recently used
 * go; a transcript with an operation under way (pinned) stays until it ends,
 * so a read or an append never sees its conversation vanish halfway. The file
 * stays the truth: a dropped transcript is read again when next needed.
 */
export class TranscriptCache {
  /** Bytes of each kept transcript, least recently used first (a Map keeps insertion order). */
  readonly #sizes = new Map<string, number>();
  readonly #pins = new Map<string, number>();
  #total = 0;

  constructor(
    readonly maxBytes: number,
    private readonly drop: (id: string) => void,
  ) {}

  /** Bytes held now (what the cap compares). */
  get bytes(): number {
    return this.#total;
  }

  has(id: string): boolean {
    return this.#sizes.has(id);
  }

  /** `id` is kept, `bytes` large, and used now. */
  set(id: string, bytes: number): void {
    this.#total += bytes - (this.#sizes.get(id) ?? 0);
    this.#sizes.delete(id);
    this.#sizes.set(id, bytes);
    this.#evict();
  }

  /** A kept transcript is used now (last to go). */
  touch(id: string): void {
    const size = this.#sizes.get(id);
    if (size === undefined) return;
    this.#sizes.delete(id);
    this.#sizes.set(id, size);
  }

  /** A kept transcript grew by `bytes` (an append). */
  grow(id: string, bytes: number): void {
    const size = this.#sizes.get(id);
    if (size !== undefined) this.set(id, size + bytes);
  }

  forget(id: string): void {
    const size = this.#sizes.get(id);
    if (size === undefined) return;
    this.#sizes.delete(id);
    this.#total -= size;
  }

  /** Runs `fn` with `id` pinned: not dropped until `fn` settles. */
  async pinned<T>(id: string, fn: () => Promise<T>): Promise<T> {
    this.#pins.set(id, (this.#pins.get(id) ?? 0) + 1);
    try {
      return await fn();
    } finally {
      const left = (this.#pins.get(id) as number) - 1;
      if (left === 0) this.#pins.delete(id);
      else this.#pins.set(id, left);
      this.#evict();
    }
  }

  #evict(): void {
    for (const [id, size] of this.#sizes) {
      if (this.#total <= this.maxBytes) return;
      if (this.#pins.has(id)) continue;
      this.#sizes.delete(id);
      this.#total -= size;
      this.drop(id);
    }
  }
}
