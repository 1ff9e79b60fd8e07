/**
 * A bounded ring of the last N stream events, each with its SSE id (a
 * per-server counter starting at 1). Frames are encoded lazily, once per
 * event and shape, however many clients read them.
 */
import { frame, sessionOf, type GlobalEnvelope, type StreamEvent } from './events.js';

export class Entry {
  #plain: Uint8Array | undefined;
  #global: Uint8Array | undefined;
  readonly sessionId: string | null;

  constructor(
    readonly id: number,
    readonly event: StreamEvent,
  ) {
    this.sessionId = sessionOf(event);
  }

  /** The frame for `/event`. */
  plain(): Uint8Array {
    return (this.#plain ??= frame(this.id, this.event));
  }

  /** The frame for `/global/event`. */
  global(): Uint8Array {
    if (!this.#global) {
      const envelope: GlobalEnvelope = { sessionId: this.sessionId, event: this.event };
      this.#global = frame(this.id, envelope);
    }
    return this.#global;
  }
}

export type Since =
  | { kind: 'ok'; entries: Entry[] }
  /** Some events after `after` are gone; `entries` is everything still held. */
  | { kind: 'gap'; entries: Entry[]; oldest: number; missed: number | null };

export class Ring {
  readonly #slots: (Entry | undefined)[];
  #last = 0;

  constructor(readonly capacity: number) {
    this.#slots = new Array<Entry | undefined>(capacity);
  }

  /** The id of the newest event (0 before the first). */
  get lastId(): number {
    return this.#last;
  }

  /** The id of the oldest event still held. */
  get oldestId(): number {
    return Math.max(1, this.#last - this.capacity + 1);
  }

  push(event: StreamEvent): Entry {
    const entry = new Entry(++this.#last, event);
    this.#slots[entry.id % this.capacity] = entry;
    return entry;
  }

  /** Every held event with an id greater than `after`. */
  since(after: number): Since {
    if (after > this.#last) return { kind: 'gap', entries: this.#range(this.oldestId), oldest: this.oldestId, missed: null };
    const oldest = this.oldestId;
    if (after + 1 < oldest) return { kind: 'gap', entries: this.#range(oldest), oldest, missed: oldest - after - 1 };
    return { kind: 'ok', entries: this.#range(after + 1) };
  }

  #range(from: number): Entry[] {
    const out: Entry[] = [];
    for (let id = from; id <= this.#last; id++) out.push(this.#slots[id % this.capacity] as Entry);
    return out;
  }
}
