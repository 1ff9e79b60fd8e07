import { invalid } from './reader.js';

/** A growable output buffer: one allocation per doubling, none per byte. */
export class Writer {
  buf: Uint8Array<ArrayBuffer>;
  pos = 0;
  /** The most bytes this writer may hold (`setLimit`); Infinity for no limit. */
  limit = Infinity;
  /** Why a module is refused past `limit`. */
  refusal = '';
  /** min(capacity, limit): writes up to here need no growth and no check. */
  private end: number;

  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(64, capacity));
    this.end = this.buf.length;
  }

  /** Past `bytes`, the next growth refuses the module (INVALID_WASM, `refusal`). */
  setLimit(bytes: number, refusal: string): void {
    this.limit = bytes;
    this.refusal = refusal;
    this.end = Math.min(this.buf.length, bytes);
  }

  ensure(n: number): void {
    if (this.pos + n > this.end) this.grow(n);
  }

  private grow(n: number): void {
    const need = this.pos + n;
    if (need > this.limit) invalid(this.refusal);
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.end = Math.min(cap, this.limit);
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  /** Unsigned LEB128, minimal length. */
  uleb(v: number): void {
    this.ensure(10);
    const buf = this.buf;
    let p = this.pos;
    while (v >= 0x80) {
      buf[p++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    buf[p++] = v;
    this.pos = p;
  }

  /** Copies src[start, end). Runs under 256 bytes byte by byte: no subarray view to allocate (and collect). */
  copy(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (n <= 0) return;
    this.ensure(n);
    if (n < 256) {
      const buf = this.buf;
      let p = this.pos;
      for (let i = start; i < end; i++) buf[p++] = src[i]!;
    } else {
      this.buf.set(src.subarray(start, end), this.pos);
    }
    this.pos += n;
  }

  bytes(src: Uint8Array): void {
    this.copy(src, 0, src.length);
  }

  /** Reserves 5 bytes for a size written later by `closeSize`. */
  openSize(): number {
    this.ensure(5);
    this.pos += 5;
    return this.pos;
  }

  /**
   * Writes the byte count since `openSize` as a minimal LEB128 in the reserved
   * slot and moves the content left over the unused bytes.
   */
  closeSize(contentStart: number): void {
    const size = this.pos - contentStart;
    const lebLen = size < 1 << 7 ? 1 : size < 1 << 14 ? 2 : size < 1 << 21 ? 3 : size < 1 << 28 ? 4 : 5;
    const at = contentStart - 5;
    const buf = this.buf;
    let v = size;
    for (let i = 0; i < lebLen; i++) {
      buf[at + i] = (v & 0x7f) | (i < lebLen - 1 ? 0x80 : 0);
      v >>>= 7;
    }
    if (lebLen < 5) {
      buf.copyWithin(at + lebLen, contentStart, this.pos);
      this.pos -= 5 - lebLen;
    }
  }

  result(): Uint8Array<ArrayBuffer> {
    return this.buf.slice(0, this.pos);
  }
}

/** Writes `value` (0 ≤ value < 2^34) as a 5-byte signed LEB128 at `at`. */
export function patchSleb5(buf: Uint8Array, at: number, value: number): void {
  for (let i = 0; i < 4; i++) buf[at + i] = ((value >>> (7 * i)) & 0x7f) | 0x80;
  buf[at + 4] = Math.floor(value / 2 ** 28) & 0x3f;
}
