/**
 * A bounded ring of the last N stream events (the memory event log's
 * window), each with its SSE id `<epoch>.<position>`. An event is encoded once, when it is
 * pushed (so an unencodable one is replaced before it is stored); frames
 * are built from that text lazily: live delivery joins the text of a tick's
 * frames once per view, replays keep each frame's bytes once per shape,
 * however many clients read them.
 */
import { encodeEvent, frameJson, frameText, referencePayload, sessionOf, type StreamEvent } from './events.js';

/** The shapes a stream can carry: `/event`, `/global/event`, and `/global/event` in the reference runtime API's format. */
export type StreamFormat = 'plain' | 'global' | 'reference';

export class Entry {
  /** Made on the first replay that reads this entry (live delivery never does): one object fewer per event held. */
  #frames: Partial<Record<StreamFormat, Uint8Array>> | undefined;
  readonly sessionId: string | null;
  /** The event's JSON text, as logged: every format and every replay is built from it. */
  readonly json: string;
  // A held entry keeps its text and nothing else per event: the id string and the event object (with its boxed
  // `time`) were three more objects for every one of a window's thousands, each copied by every young-generation
  // collection until promoted, and the caller's object could change after it was logged (below).
  readonly #epoch: string;
  readonly #position: number | string;

  /** `json`: the event's text when it is already known (read back from a log), so it is not encoded again. */
  constructor(epoch: string, position: number | string, event: StreamEvent, json?: string) {
    const encoded = json === undefined ? encodeEvent(event) : { event, json };
    this.json = encoded.json;
    this.sessionId = sessionOf(encoded.event);
    this.#epoch = epoch;
    this.#position = position;
  }

  /** The SSE id, `<epoch>.<position>`. */
  get id(): string {
    return `${this.#epoch}.${this.#position}`;
  }

  /**
   * The event as logged, read back from its text (a copy per call): what every stream carries, whatever the
   * publisher did to its own object afterwards.
   */
  get event(): StreamEvent {
    return JSON.parse(this.json) as StreamEvent;
  }

  /** The frame as bytes, kept for the next reader (replays read the same entries). */
  frame(format: StreamFormat): Uint8Array {
    return ((this.#frames ??= {})[format] ??= frameJson(this.id, this.#data(format)));
  }

  /** The frame as text, not kept (live delivery joins a tick's frames and encodes them once). */
  text(format: StreamFormat): string {
    return frameText(this.id, this.#data(format));
  }

  #data(format: StreamFormat): string {
    switch (format) {
      case 'plain':
        return this.json;
      case 'global':
        return `{"sessionId":${JSON.stringify(this.sessionId)},"event":${this.json}}`;
      case 'reference': {
        // Re-encoding the same values cannot fail where the first encoding succeeded, short of a toJSON that changes its mind.
        const event = this.event;
        try {
          return JSON.stringify({ sessionID: this.sessionId, payload: referencePayload(event) });
        } catch {
          return JSON.stringify({ sessionID: this.sessionId, payload: { type: 'event.unencodable', properties: { originalType: event.type } } });
        }
      }
      default: {
        const never: never = format;
        return never;
      }
    }
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
    const entry = new Entry(this.epoch, position, event);
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

  /**
   * The first position from `from` on whose events' texts, to the newest, add up to at most `maxBytes` characters:
   * read newest first, so the work is bounded by `maxBytes`, not by the window.
   */
  newestFrom(from: number, maxBytes: number): number {
    let bytes = 0;
    let p = this.#last;
    for (; p >= from; p--) {
      bytes += (this.#slots[p % this.capacity] as Entry).json.length;
      if (bytes > maxBytes) break;
    }
    return p + 1;
  }

  #range(from: number): Entry[] {
    const out: Entry[] = [];
    for (let p = from; p <= this.#last; p++) out.push(this.#slots[p % this.capacity] as Entry);
    return out;
  }
}
