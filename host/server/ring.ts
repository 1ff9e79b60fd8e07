/**
 * A bounded ring of the last N stream events (the memory event log's
 * window). Entries carry their SSE id (`<epoch>.<position>`); frames are
 * encoded lazily, once per event and shape, however many clients read them.
 */
import { frame, sessionOf, type GlobalEnvelope, type StreamEvent } from './events.js';

export class Entry {
  #plain: Uint8Array | undefined;
  #global: Uint8Array | undefined;
  readonly sessionId: string | null;

  constructor(
    readonly id: string,
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

export type RingSince =
  | { kind: 'ok'; entries: Entry[] }
  /** Some events after `after` are gone; `entries` is everything still held. */
  | { kind: 'gap'; entries: Entry[]; oldest: number; missed: number | null };

export class Ring {
  readonly #slots: (Entry | undefined)[];
  #last = 0;

  constructor(
    readonly capacity: number,
    readonly epoch: string,
  ) {
    this.#slots = new Array<Entry | undefined>(capacity);
  }

  /** The position of the newest event (0 before the first). */
  get lastPosition(): number {
    return this.#last;
  }

  /** The position of the oldest event still held. */
  get oldestPosition(): number {
    return Math.max(1, this.#last - this.capacity + 1);
  }

  idAt(position: number): string {
    return `${this.epoch}.${position}`;
  }

  push(event: StreamEvent): Entry {
    const position = ++this.#last;
    const entry = new Entry(this.idAt(position), event);
    this.#slots[position % this.capacity] = entry;
    return entry;
  }

  /** Every held event with a position greater than `after`. */
  since(after: number): RingSince {
    if (after > this.#last) return { kind: 'gap', entries: this.#range(this.oldestPosition), oldest: this.oldestPosition, missed: null };
    const oldest = this.oldestPosition;
    if (after + 1 < oldest) return { kind: 'gap', entries: this.#range(oldest), oldest, missed: oldest - after - 1 };
    return { kind: 'ok', entries: this.#range(after + 1) };
  }

  #range(from: number): Entry[] {
    const out: Entry[] = [];
    for (let p = from; p <= this.#last; p++) out.push(this.#slots[p % this.capacity] as Entry);
    return out;
  }
}
