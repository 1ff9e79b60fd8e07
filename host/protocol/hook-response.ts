/**
 * `wasmhooks.v1.HookResponse` bytes → its fields, read by hand: every WASM
 * hook call decodes one, and protobufjs's generated decoder builds a reader
 * and a message object on the way. The bytes come from the plugin, so this
 * accepts and refuses exactly what protobufjs 8's generated decoder does
 * (test/protocol/hook-response.fuzz.test.ts compares the two on every
 * response shape and on truncated, malformed and hostile bytes):
 *
 * - a known field with its own wire type is read (the last one wins; a
 *   string's or the decision's default value clears it);
 * - a known field with another wire type, or an unknown field, is skipped by
 *   its wire type, groups included (nested at most `RECURSION_LIMIT` deep);
 * - a field number 0, a wire type 4, 6 or 7 where a field starts, a varint,
 *   tag or length that runs off the end or is malformed, a length past the
 *   end, and a string that is not UTF-8 are errors (thrown, with a message).
 *
 * protobufjs's quirks are kept where they decide between accepting and
 * refusing: a varint near the end of the bytes may take at most 4 bytes, a
 * tag's fifth byte carries 4 bits, a length's fifth byte is at most 7.
 */

/** The fields of a HookResponse; `undefined` where the message leaves them at their default. */
export interface WireHookResponse {
  decision: number | undefined;
  reason: string | undefined;
  updatedInputJson: string | undefined;
  additionalContext: string | undefined;
  systemMessage: string | undefined;
  updatedOutputJson: string | undefined;
  updatedPermissionsJson: string | undefined;
}

/** protobufjs's `util.recursionLimit` (protoc's default): how deep groups may nest. */
const RECURSION_LIMIT = 100;

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A cursor over the bytes; the hook path reuses one (decoding is synchronous and calls out to nothing). Also reads `describe` answers (plugin-info.ts). */
export class Cursor {
  pos = 0;
  len = 0;
  buf: Uint8Array = NO_BYTES;

  /** Starts on `bytes`. */
  on(bytes: Uint8Array): this {
    this.buf = bytes;
    this.len = bytes.length;
    this.pos = 0;
    this.#high = 0;
    return this;
  }

  outOfRange(n = 1): Error {
    return new RangeError(`index out of range: ${this.pos} + ${n} > ${this.len}`);
  }

  /** Up to 4 bytes of a varint that starts fewer than 5 bytes before the end. */
  nearEnd(): number {
    let value = 0;
    for (let i = 0; i < 4; i++) {
      if (this.pos >= this.len) throw this.outOfRange();
      const b = this.buf[this.pos++]!;
      value = (value | ((b & 127) << (i * 7))) >>> 0;
      if (b < 128) return value;
    }
    throw this.outOfRange();
  }

  /**
   * The first four 7-bit groups of a varint with at least 5 bytes left, or -1
   * with `pos` on the fifth byte (whose handling differs per kind).
   */
  #four(): number {
    const buf = this.buf;
    let pos = this.pos;
    let value = buf[pos]! & 127;
    if (buf[pos++]! < 128) return ((this.pos = pos), value);
    value = (value | ((buf[pos]! & 127) << 7)) >>> 0;
    if (buf[pos++]! < 128) return ((this.pos = pos), value);
    value = (value | ((buf[pos]! & 127) << 14)) >>> 0;
    if (buf[pos++]! < 128) return ((this.pos = pos), value);
    value = (value | ((buf[pos]! & 127) << 21)) >>> 0;
    if (buf[pos++]! < 128) return ((this.pos = pos), value);
    this.pos = pos;
    this.#high = value;
    return -1;
  }

  /**
   * A varint's value when it ends within four bytes (or near the end of the
   * buffer), else -1 with `pos` on its fifth byte: the start every kind shares.
   */
  #low(): number {
    if (this.len - this.pos < 5) {
      if (this.pos >= this.len) throw this.outOfRange();
      if (this.buf[this.pos]! >= 128) return this.nearEnd();
    }
    return this.#four();
  }

  /** The low 28 bits read by `#four` when it returned -1. */
  #high = 0;

  tag(): number {
    const low = this.#low();
    if (low >= 0) return low;
    const b = this.buf[this.pos++]!;
    if (b < 128 && (b & 112) === 0) return (this.#high | ((b & 15) << 28)) >>> 0;
    throw new Error('invalid tag encoding');
  }

  uint32(): number {
    const low = this.#low();
    if (low >= 0) return low;
    const value = (this.#high | ((this.buf[this.pos]! & 15) << 28)) >>> 0;
    if (this.buf[this.pos++]! < 128) return value;
    // The rest of a 64-bit varint: up to five more bytes, ignored.
    for (let i = 0; i < 5; i++) {
      if (this.pos >= this.len) throw this.outOfRange();
      if (this.buf[this.pos++]! < 128) return value;
    }
    throw new Error('invalid varint encoding');
  }

  size(): number {
    const low = this.#low();
    if (low >= 0) return low;
    const b = this.buf[this.pos++]!;
    if (b > 7) throw new Error('invalid length encoding');
    return (this.#high | (b << 28)) >>> 0;
  }

  /** A length-delimited UTF-8 string; `undefined` for the empty string (the field's default). */
  string(field: string): string | undefined {
    const length = this.size();
    const start = this.pos;
    const end = start + length;
    if (end > this.len) throw this.outOfRange(length);
    this.pos = end;
    if (length === 0) return undefined;
    const buf = this.buf;
    // ASCII by hand: TextDecoder costs a crossing into the runtime per call.
    if (length <= 64) {
      let s = '';
      let i = start;
      for (; i < end; i++) {
        const c = buf[i]!;
        if (c > 127) break;
        s += String.fromCharCode(c);
      }
      if (i === end) return s;
    }
    try {
      return strict.decode(buf.subarray(start, end));
    } catch {
      throw new Error(`${field} is not valid UTF-8 (${length} bytes at offset ${start})`);
    }
  }

  skip(n: number): void {
    if (this.pos + n > this.len) throw this.outOfRange(n);
    this.pos += n;
  }

  skipType(wireType: number, depth: number, field: number): void {
    if (depth > RECURSION_LIMIT) throw new Error('max depth exceeded');
    if (field === 0) throw new Error('illegal tag: field number 0');
    switch (wireType) {
      case 0:
        do {
          if (this.pos >= this.len) throw this.outOfRange();
        } while (this.buf[this.pos++]! & 128);
        return;
      case 1:
        return this.skip(8);
      case 2:
        return this.skip(this.size());
      case 3:
        for (;;) {
          const tag = this.tag();
          const nested = tag >>> 3;
          const type = tag & 7;
          if (nested === 0) throw new Error('illegal tag: field number 0');
          if (type === 4) {
            if (nested !== field) throw new Error('invalid end group tag');
            return;
          }
          this.skipType(type, depth + 1, nested);
        }
      case 5:
        return this.skip(4);
      default:
        throw new Error(`invalid wire type ${wireType} at offset ${this.pos}`);
    }
  }
}

const NO_BYTES = new Uint8Array(0);
const cursor = new Cursor();

/** Reads a HookResponse's fields. Throws (an Error with a message) on bytes protobufjs would refuse. */
export function readHookResponse(bytes: Uint8Array): WireHookResponse {
  const r = cursor.on(bytes);
  const out: WireHookResponse = {
    decision: undefined,
    reason: undefined,
    updatedInputJson: undefined,
    additionalContext: undefined,
    systemMessage: undefined,
    updatedOutputJson: undefined,
    updatedPermissionsJson: undefined,
  };
  try {
    readFields(r, out);
  } finally {
    // The plugin's bytes are not kept past the decode.
    r.on(NO_BYTES);
  }
  return out;
}

function readFields(r: Cursor, out: WireHookResponse): void {
  while (r.pos < r.len) {
    const tag = r.tag();
    const wireType = tag & 7;
    const field = tag >>> 3;
    if (field === 1 && wireType === 0) {
      out.decision = (r.uint32() | 0) || undefined;
      continue;
    }
    if (wireType === 2) {
      switch (field) {
        case 2:
          out.reason = r.string('reason');
          continue;
        case 3:
          out.updatedInputJson = r.string('updated_input_json');
          continue;
        case 4:
          out.additionalContext = r.string('additional_context');
          continue;
        case 5:
          out.systemMessage = r.string('system_message');
          continue;
        case 6:
          out.updatedOutputJson = r.string('updated_output_json');
          continue;
        case 7:
          out.updatedPermissionsJson = r.string('updated_permissions_json');
          continue;
      }
    }
    r.skipType(wireType, 0, field);
  }
}
