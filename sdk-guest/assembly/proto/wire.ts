// Protobuf wire format: a growable Writer and a bounds-checked Reader.
// AssemblyScript has no exceptions, so the Reader records the first error
// instead of trapping; decoders check `reader.failed` and stop.

import { decodeUtf8, encodeUtf8Into, utf8Length, utf8WasInvalid } from "./utf8";

export const WIRE_VARINT: u32 = 0;
const WIRE_I64: u32 = 1;
export const WIRE_LEN: u32 = 2;
const WIRE_I32: u32 = 5;

/**
 * Appends protobuf-encoded fields to a byte buffer. Strings are encoded in
 * place (no intermediate byte array), and a buffer that must grow takes at
 * least what the field needs, so a message with one large string field is
 * copied once at most.
 */
export class Writer {
  private buf: Uint8Array = new Uint8Array(64);
  private len: i32 = 0;

  private ensure(extra: i32): void {
    const need = this.len + extra;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    if (size < need) size = need;
    const next = new Uint8Array(size);
    memory.copy(next.dataStart, this.buf.dataStart, <usize>this.len);
    this.buf = next;
  }

  byte(b: u8): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }

  varint(v: u64): void {
    while (v >= 0x80) {
      this.byte(<u8>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    this.byte(<u8>v);
  }

  tag(field: u32, wireType: u32): void {
    this.varint(<u64>((field << 3) | wireType));
  }

  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
  }

  /** A uint32 field, omitted when zero (proto3 default). */
  uint32(field: u32, v: u32): void {
    if (v == 0) return;
    this.tag(field, WIRE_VARINT);
    this.varint(<u64>v);
  }

  /** An enum (int32) field; negative values take ten bytes, as in every protobuf runtime. */
  enumValue(field: u32, v: i32): void {
    if (v == 0) return;
    this.tag(field, WIRE_VARINT);
    this.varint(<u64>(<i64>v));
  }

  bool(field: u32, v: bool): void {
    if (!v) return;
    this.tag(field, WIRE_VARINT);
    this.byte(1);
  }

  /** A string field, omitted when empty. */
  string(field: u32, v: string): void {
    if (v.length == 0) return;
    this.stringAlways(field, v);
  }

  /** A string element of a repeated field: written even when empty. */
  stringAlways(field: u32, v: string): void {
    const n = utf8Length(v);
    this.tag(field, WIRE_LEN);
    this.varint(<u64>n);
    this.ensure(n);
    encodeUtf8Into(v, this.buf.dataStart + <usize>this.len);
    this.len += n;
  }

  /** A nested message, already encoded. */
  message(field: u32, encoded: Uint8Array): void {
    this.tag(field, WIRE_LEN);
    this.varint(<u64>encoded.length);
    this.raw(encoded);
  }

  /** The bytes written so far: a view of the buffer, not a copy (write nothing after it). */
  finish(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

/** Reads protobuf fields from a byte range; never reads past `end`. */
export class Reader {
  pos: i32;
  end: i32;
  error: string = "";
  private parent: Reader | null = null;

  constructor(public buf: Uint8Array, start: i32 = 0, end: i32 = -1) {
    this.pos = start;
    this.end = end < 0 ? buf.length : end;
  }

  get failed(): bool {
    return this.error.length > 0;
  }

  get done(): bool {
    return this.failed || this.pos >= this.end;
  }

  fail(message: string): void {
    this.failWith(message + " at byte " + this.pos.toString());
  }

  // A nested message's error fails every enclosing reader too.
  private failWith(error: string): void {
    if (!this.failed) this.error = error;
    this.pos = this.end;
    const parent = this.parent;
    if (parent !== null) parent.failWith(error);
  }

  varint(): u64 {
    let result: u64 = 0;
    for (let shift: u64 = 0; shift < 70; shift += 7) {
      if (this.pos >= this.end) {
        this.fail("truncated varint");
        return 0;
      }
      const b = this.buf[this.pos++];
      result |= (<u64>(b & 0x7f)) << shift;
      if ((b & 0x80) == 0) return result;
    }
    this.fail("varint longer than 10 bytes");
    return 0;
  }

  /** uint32 and enum fields keep the low 32 bits, as protobufjs does. */
  uint32(): u32 {
    return <u32>this.varint();
  }

  int32(): i32 {
    return <i32>this.varint();
  }

  bool(): bool {
    return this.varint() != 0;
  }

  /** The length prefix of a LEN field, checked against the remaining bytes. */
  length(): i32 {
    const n = this.varint();
    if (this.failed) return 0;
    if (n > <u64>(this.end - this.pos)) {
      this.fail("length " + n.toString() + " runs past the end of the message");
      return 0;
    }
    return <i32>n;
  }

  string(): string {
    const n = this.length();
    if (this.failed) return "";
    const s = decodeUtf8(this.buf.dataStart + <usize>this.pos, <usize>n);
    // proto3: a string field holds valid UTF-8; protobufjs (the host) refuses other bytes, and so do we
    // (decoded lossily, C0 AF would read as "/").
    if (utf8WasInvalid()) {
      this.fail("string field is not valid UTF-8");
      return "";
    }
    this.pos += n;
    return s;
  }

  /** A sub-reader over a nested message; the parent skips past it. */
  sub(): Reader {
    const n = this.length();
    const child = new Reader(this.buf, this.pos, this.pos + n);
    child.parent = this;
    this.pos += n;
    return child;
  }

  /** Skips a field we do not know (forward compatibility). */
  skip(wireType: u32): void {
    if (wireType == WIRE_VARINT) {
      this.varint();
    } else if (wireType == WIRE_I64) {
      this.advance(8);
    } else if (wireType == WIRE_LEN) {
      this.advance(this.length());
    } else if (wireType == WIRE_I32) {
      this.advance(4);
    } else {
      this.fail("unsupported wire type " + wireType.toString());
    }
  }

  private advance(n: i32): void {
    if (this.end - this.pos < n) {
      this.fail("truncated field");
      return;
    }
    this.pos += n;
  }

  /**
   * Whether a known field arrived with the wire type its schema says. One that did not is skipped
   * as an unknown field, as protobuf runtimes (and protobufjs, the host's) do.
   */
  expect(wireType: u32, want: u32, field: u32): bool {
    if (wireType == want) return true;
    this.skip(wireType);
    return false;
  }
}
