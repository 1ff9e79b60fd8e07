/**
 * The replay window's frame bytes, out of the JS heap: frames are encoded
 * once, one after the other, into fixed-size byte slabs, and a held frame is
 * a place in a slab (the ring keeps its number, offset and length in a typed
 * array). The collector sees one object per slab instead of two or three per
 * held event, which it would otherwise trace (and, while they are young,
 * copy) on every collection.
 *
 * Views of a slab's bytes are what the clients are written (live ticks and
 * replays alike), and a client may hold them after the window has let their
 * events go (a queue, a socket's pending write). So a slab is never written
 * again once its bytes are handed out: a slab whose frames have all been
 * evicted is let go (its number is reused, its memory returns through the
 * collector once the last view of it is gone), never overwritten.
 */

import { concatBytes } from '../bytes.js';

/** The size of a slab: about 1,900 frames of a streamed text delta. */
export const SLAB_BYTES = 256 * 1024;

const encoder = new TextEncoder();
/** Between an SSE frame's id and its data, and at its end. */
const DATA = encoder.encode('\ndata: ');
const NEWLINE = 10;
/** The most digits a position takes (2^53 has 16). */
const DIGITS = 16;

export class FrameSlabs {
  /** By slab number; undefined once let go (the number is free). */
  readonly #slabs: (Uint8Array | undefined)[] = [];
  /** Frames held per slab. */
  readonly #held: number[] = [];
  readonly #free: number[] = [];
  /** The slab being filled (-1 before the first write), its buffer, and its first free byte. */
  #current = -1;
  #buffer: ArrayBuffer | undefined;
  #offset = 0;
  /** Where the last write put its bytes: the slab's number and bytes, the frame's offset and length there. */
  lastSlab = -1;
  lastBytes: Uint8Array | undefined;
  lastStart = 0;
  lastLength = 0;

  constructor(readonly slabBytes = SLAB_BYTES) {}

  /** Slabs held now (for tests and measurements). */
  get slabCount(): number {
    return this.#slabs.length - this.#free.length;
  }

  /**
   * Appends `text`'s UTF-8 and returns a view of those bytes (never written to again); `lastSlab` and `lastStart`
   * say where they are. A text larger than a slab gets a buffer of its own, under a slab number like the others.
   */
  write(text: string): Uint8Array {
    // A character takes 1 to 3 bytes: what cannot fit in `chars` bytes cannot fit; what fits in a third always does.
    if (text.length > this.slabBytes) return this.#alone(encoder.encode(text));
    if (this.#current >= 0 && this.#offset + text.length <= this.slabBytes) {
      const view = this.#into(text);
      if (view) return view;
    }
    this.#open();
    return this.#into(text) ?? this.#alone(encoder.encode(text));
  }

  /**
   * Appends the SSE frame `<head><position>\ndata: <json>\n\n` (`head`: `id: <epoch>.`, ASCII) when it surely fits
   * in the slab being filled, and says whether it did (else `write` the frame's text). The same bytes as `write`
   * of that text, with no string built around the JSON text and no view returned (a view is an object per event;
   * `lastBytes`, `lastStart` and `lastLength` say where the frame is).
   */
  writeFrame(head: Uint8Array, position: number, json: string): boolean {
    const slab = this.#slabs[this.#current];
    const start = this.#offset;
    // The JSON text takes at most 3 bytes a character (encodeInto's bound): past that it may not fit.
    if (slab === undefined || start + head.length + DIGITS + DATA.length + json.length * 3 + 2 > this.slabBytes) return false;
    let at = start;
    for (let i = 0; i < head.length; i++) slab[at++] = head[i] as number;
    let length = 1;
    for (let n = position; n >= 10; n = Math.floor(n / 10)) length++;
    for (let i = at + length - 1, n = position; i >= at; i--, n = Math.floor(n / 10)) slab[i] = 48 + (n % 10);
    at += length;
    for (let i = 0; i < DATA.length; i++) slab[at++] = DATA[i] as number;
    // A view made from the buffer, not `subarray`: half the instructions on V8 (no species lookup), less on JSC.
    at += encoder.encodeInto(json, new Uint8Array(this.#buffer as ArrayBuffer, at)).written;
    slab[at++] = NEWLINE;
    slab[at++] = NEWLINE;
    this.#offset = at;
    this.#held[this.#current] = (this.#held[this.#current] as number) + 1;
    this.lastSlab = this.#current;
    this.lastBytes = slab;
    this.lastStart = start;
    this.lastLength = at - start;
    return true;
  }

  /** The bytes of slab number `slab`. */
  bytes(slab: number): Uint8Array {
    return this.#slabs[slab] as Uint8Array;
  }

  /** The bytes at a place `write` gave. */
  view(slab: number, start: number, length: number): Uint8Array {
    return (this.#slabs[slab] as Uint8Array).subarray(start, start + length);
  }

  /** One frame of `slab` was evicted: a slab with none left (and not being filled) is let go. */
  release(slab: number): void {
    const held = (this.#held[slab] as number) - 1;
    this.#held[slab] = held;
    if (held === 0 && slab !== this.#current) this.#letGo(slab);
  }

  /** Encodes into the current slab; undefined when it does not fit there. */
  #into(text: string): Uint8Array | undefined {
    const slab = this.#slabs[this.#current] as Uint8Array;
    const start = this.#offset;
    const { read, written } = encoder.encodeInto(text, slab.subarray(start));
    if (read < text.length) return undefined;
    this.#offset = start + written;
    this.#held[this.#current] = (this.#held[this.#current] as number) + 1;
    this.lastSlab = this.#current;
    this.lastBytes = slab;
    this.lastStart = start;
    this.lastLength = written;
    return slab.subarray(start, start + written);
  }

  /** A fresh slab to fill; the one before is let go if all its frames were evicted meanwhile. */
  #open(): void {
    const before = this.#current;
    const slab = new Uint8Array(this.slabBytes);
    this.#current = this.#number(slab, 0);
    this.#buffer = slab.buffer;
    this.#offset = 0;
    if (before >= 0 && this.#held[before] === 0) this.#letGo(before);
  }

  #alone(bytes: Uint8Array): Uint8Array {
    this.lastSlab = this.#number(bytes, 1);
    this.lastBytes = bytes;
    this.lastStart = 0;
    this.lastLength = bytes.length;
    return bytes;
  }

  #number(slab: Uint8Array, held: number): number {
    const n = this.#free.pop() ?? this.#slabs.length;
    this.#slabs[n] = slab;
    this.#held[n] = held;
    return n;
  }

  #letGo(slab: number): void {
    this.#slabs[slab] = undefined;
    this.#free.push(slab);
  }
}

/**
 * Frames as one chunk: a view when they lie side by side in one buffer (a tick's frames in a slab), else a copy
 * of them joined.
 */
export function joinFrames(frames: readonly Uint8Array[]): Uint8Array {
  const first = frames[0] as Uint8Array;
  if (frames.length === 1) return first;
  let end = first.byteOffset + first.length;
  let total = first.length;
  let adjacent = true;
  for (let i = 1; i < frames.length; i++) {
    const frame = frames[i] as Uint8Array;
    adjacent &&= frame.buffer === first.buffer && frame.byteOffset === end;
    end = frame.byteOffset + frame.length;
    total += frame.length;
  }
  return adjacent ? new Uint8Array(first.buffer, first.byteOffset, total) : concatBytes(frames, total);
}
