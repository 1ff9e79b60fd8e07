/**
 * A bounded ring of the last N stream events (the memory event log's
 * window), each with its SSE id `<epoch>.<position>`. An event is encoded
 * once, when it is pushed (so an unencodable one is replaced before it is
 * stored), and its `/event` frame is written then into the window's byte
 * slabs (frame-slabs.ts): a held event is five numbers in a typed array,
 * no object of its own. Live delivery writes views of those bytes; replays
 * read them back, and the other formats are built from the text when asked.
 */
import { encodeEvent, frameJson, frameText, referencePayload, sessionOf, type StreamEvent } from './events.js';
import { FrameSlabs, SLAB_BYTES } from './frame-slabs.js';

/** The shapes a stream can carry: `/event`, `/global/event`, and `/global/event` in the reference runtime API's format. */
export type StreamFormat = 'plain' | 'global' | 'reference';

const decoder = new TextDecoder();
const encoder = new TextEncoder();
/** The bytes of a frame around its JSON text: `id: ` and `\ndata: ` before the id's end and after it, `\n\n` at the end. */
const ID_HEAD = 'id: '.length;
const DATA_HEAD = '\ndata: '.length;
const TAIL = 2;

export class Entry {
  /** Frames built for a replay's reader (and a held `/event` frame's view, once asked for). */
  #frames: Partial<Record<StreamFormat, Uint8Array>> | undefined;
  readonly sessionId: string | null;
  #json: string | undefined;
  /**
   * Where the `/event` frame's bytes are when the event is held in a window's slabs (never written to): the
   * slab, the frame's offset and length in it. The view is made when asked for: the live path takes a tick's
   * frames as one view of the slab (`Entry.run`), with no object per event.
   */
  readonly #slab: Uint8Array | undefined;
  readonly #start: number;
  readonly #length: number;
  readonly #epoch: string;
  readonly #position: number | string;

  /**
   * `json`: the event's text; `slab`, `start`, `length`: its `/event` frame's bytes, from which the text is read
   * back when it is not given (an entry read from the window). The text or the bytes at least.
   */
  constructor(epoch: string, position: number | string, sessionId: string | null, json: string | undefined, slab?: Uint8Array, start = 0, length = 0) {
    this.sessionId = sessionId;
    this.#json = json;
    this.#slab = slab;
    this.#start = start;
    this.#length = length;
    this.#epoch = epoch;
    this.#position = position;
  }

  /**
   * The `/event` frames of `entries` as one view, when they lie side by side in one slab (a tick's, as the
   * window wrote them); undefined otherwise.
   */
  static run(entries: readonly Entry[]): Uint8Array | undefined {
    const first = entries[0] as Entry;
    const slab = first.#slab;
    if (slab === undefined) return undefined;
    let end = first.#start + first.#length;
    for (let i = 1; i < entries.length; i++) {
      const entry = entries[i] as Entry;
      if (entry.#slab !== slab || entry.#start !== end) return undefined;
      end += entry.#length;
    }
    return slab.subarray(first.#start, end);
  }

  /** The SSE id, `<epoch>.<position>`. */
  get id(): string {
    return `${this.#epoch}.${this.#position}`;
  }

  /** The event's JSON text, as logged: every format and every replay is built from it. */
  get json(): string {
    // The id is ASCII (base-36 epoch, digits), so the text starts that many bytes in.
    const from = this.#start + ID_HEAD + this.id.length + DATA_HEAD;
    return (this.#json ??= decoder.decode((this.#slab as Uint8Array).subarray(from, this.#start + this.#length - TAIL)));
  }

  /**
   * The event as logged, read back from its text (a copy per call): what every stream carries, whatever the
   * publisher did to its own object afterwards.
   */
  get event(): StreamEvent {
    return JSON.parse(this.json) as StreamEvent;
  }

  /** The frame as bytes, kept for the next reader of this entry. */
  frame(format: StreamFormat): Uint8Array {
    const frames = (this.#frames ??= {});
    if (format === 'plain' && this.#slab) return (frames.plain ??= this.#slab.subarray(this.#start, this.#start + this.#length));
    return (frames[format] ??= frameJson(this.id, this.#data(format)));
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

/** A held event's numbers, at `slot * STRIDE`: where its frame is, its text's length in characters, its session. */
const SLAB = 0;
const START = 1;
const LENGTH = 2;
const CHARS = 3;
const SESSION = 4;
const STRIDE = 5;

/** The session ids of held events, each string held once however many events carry it; 0 stands for none. */
class SessionIds {
  readonly #ids: (string | undefined)[] = [undefined];
  readonly #held: number[] = [0];
  readonly #numbers = new Map<string, number>();
  readonly #free: number[] = [];

  add(id: string | null): number {
    if (id === null) return 0;
    let n = this.#numbers.get(id);
    if (n === undefined) {
      n = this.#free.pop() ?? this.#ids.length;
      this.#ids[n] = id;
      this.#held[n] = 0;
      this.#numbers.set(id, n);
    }
    this.#held[n] = (this.#held[n] as number) + 1;
    return n;
  }

  get(n: number): string | null {
    return n === 0 ? null : (this.#ids[n] as string);
  }

  release(n: number): void {
    if (n === 0) return;
    const held = (this.#held[n] as number) - 1;
    this.#held[n] = held;
    if (held > 0) return;
    this.#numbers.delete(this.#ids[n] as string);
    this.#ids[n] = undefined;
    this.#free.push(n);
  }
}

export class Ring {
  /** Per slot (`position % capacity`), STRIDE numbers; grown as the window fills, up to `capacity` slots. */
  #held: Uint32Array;
  readonly #slabs: FrameSlabs;
  /** `id: <epoch>.`, the bytes every held frame starts with. */
  readonly #head: Uint8Array;
  readonly #sessions = new SessionIds();
  #last = 0;

  /** `slabBytes`: the size of the window's byte slabs (tests make them small). */
  constructor(
    readonly capacity: number,
    readonly epoch: string,
    slabBytes = SLAB_BYTES,
  ) {
    this.#held = new Uint32Array(Math.min(capacity, 1024) * STRIDE);
    this.#slabs = new FrameSlabs(slabBytes);
    this.#head = encoder.encode(`id: ${epoch}.`);
  }

  /** The position of the newest event (0 before the first). */
  get lastPosition(): number {
    return this.#last;
  }

  /** The position of the oldest event still held. */
  get oldestPosition(): number {
    return Math.max(1, this.#last - this.capacity + 1);
  }

  /** Byte slabs the window holds now (for tests and measurements). */
  get slabCount(): number {
    return this.#slabs.slabCount;
  }

  idAt(position: number): string {
    return `${this.epoch}.${position}`;
  }

  push(event: StreamEvent): Entry {
    const position = ++this.#last;
    const { event: logged, json } = encodeEvent(event);
    const sessionId = sessionOf(logged);
    const at = (position % this.capacity) * STRIDE;
    if (position > this.capacity) {
      // The slot's event leaves the window: its slab and session id are held by one event fewer.
      this.#slabs.release(this.#held[at + SLAB] as number);
      this.#sessions.release(this.#held[at + SESSION] as number);
    } else if (at + STRIDE > this.#held.length) this.#grow();
    const slabs = this.#slabs;
    // The frame's bytes straight into the slab; its text is built only where it may not fit (a new slab, a large event).
    if (!slabs.writeFrame(this.#head, position, json)) slabs.write(frameText(this.idAt(position), json));
    const held = this.#held;
    held[at + SLAB] = slabs.lastSlab;
    held[at + START] = slabs.lastStart;
    held[at + LENGTH] = slabs.lastLength;
    held[at + CHARS] = json.length;
    held[at + SESSION] = this.#sessions.add(sessionId);
    return new Entry(this.epoch, position, sessionId, json, slabs.lastBytes, slabs.lastStart, slabs.lastLength);
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
      bytes += this.#held[(p % this.capacity) * STRIDE + CHARS] as number;
      if (bytes > maxBytes) break;
    }
    return p + 1;
  }

  /** The held event at `position`, as an entry whose `/event` frame is the slab's bytes. */
  #entry(position: number): Entry {
    const at = (position % this.capacity) * STRIDE;
    const held = this.#held;
    const slab = this.#slabs.bytes(held[at + SLAB] as number);
    return new Entry(this.epoch, position, this.#sessions.get(held[at + SESSION] as number), undefined, slab, held[at + START] as number, held[at + LENGTH] as number);
  }

  #range(from: number): Entry[] {
    const out: Entry[] = [];
    for (let p = from; p <= this.#last; p++) out.push(this.#entry(p));
    return out;
  }

  #grow(): void {
    const grown = new Uint32Array(Math.min(this.capacity, (this.#held.length / STRIDE) * 2) * STRIDE);
    grown.set(this.#held);
    this.#held = grown;
  }
}
