/**
 * A bounded ring of the last N stream events, each with its SSE id (a
 * per-server counter starting at 1). An event is encoded once, when it is
 * pushed (so an unencodable one is replaced before it is stored); frames
 * are built from that text lazily, once per shape, however many clients
 * read them.
 */
import { encodeEvent, frameJson, referencePayload, sessionOf, type StreamEvent } from './events.js';

/** The shapes a stream can carry: `/event`, `/global/event`, and `/global/event` in the reference runtime API's format. */
export type StreamFormat = 'plain' | 'global' | 'reference';

export class Entry {
  readonly #frames: Partial<Record<StreamFormat, Uint8Array>> = {};
  readonly sessionId: string | null;
  readonly event: StreamEvent;
  /** The event's JSON text. */
  readonly json: string;

  constructor(
    readonly id: number,
    event: StreamEvent,
  ) {
    const encoded = encodeEvent(event);
    this.event = encoded.event;
    this.json = encoded.json;
    this.sessionId = sessionOf(this.event);
  }

  frame(format: StreamFormat): Uint8Array {
    return (this.#frames[format] ??= frameJson(this.id, this.#data(format)));
  }

  #data(format: StreamFormat): string {
    switch (format) {
      case 'plain':
        return this.json;
      case 'global':
        return `{"sessionId":${JSON.stringify(this.sessionId)},"event":${this.json}}`;
      case 'reference': {
        // Re-encoding the same values cannot fail where the first encoding succeeded, short of a toJSON that changes its mind.
        try {
          return JSON.stringify({ sessionID: this.sessionId, payload: referencePayload(this.event) });
        } catch {
          return JSON.stringify({ sessionID: this.sessionId, payload: { type: 'event.unencodable', properties: { originalType: this.event.type } } });
        }
      }
      default: {
        const never: never = format;
        return never;
      }
    }
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
