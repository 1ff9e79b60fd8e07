import { WasmhooksError } from '../../errors.js';

/** Throws the one error malformed input ever produces. */
export function invalid(message: string): never {
  throw new WasmhooksError('INVALID_WASM', `invalid wasm: ${message}`);
}

/**
 * A cursor over the input bytes. Every read checks `limit`, so truncated or
 * garbage input ends in `invalid()`, never in an out-of-range read or a hang.
 * `where` names the thing being read, for error messages.
 */
export class Reader {
  where = 'module';
  constructor(
    readonly buf: Uint8Array,
    public pos: number,
    public limit: number,
  ) {}

  fail(message: string, at = this.pos): never {
    return invalid(`${this.where}: ${message} at byte offset ${at}`);
  }

  eof(): boolean {
    return this.pos >= this.limit;
  }

  u8(): number {
    if (this.pos >= this.limit) this.fail('unexpected end');
    return this.buf[this.pos++]!;
  }

  /** Unsigned LEB128 up to 2^53 (u32 indices, u64 memory limits). */
  uleb(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.u8();
      result += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) {
        if (result > Number.MAX_SAFE_INTEGER) this.fail('LEB128 value too large');
        return result;
      }
      mul *= 128;
    }
    return this.fail('LEB128 too long');
  }

  u32(): number {
    const v = this.uleb();
    if (v > 0xffffffff) this.fail('u32 out of range');
    return v;
  }

  /** Skips any LEB128 (signed or unsigned, up to 10 bytes). */
  skipLeb(): void {
    for (let i = 0; i < 10; i++) if ((this.u8() & 0x80) === 0) return;
    this.fail('LEB128 too long');
  }

  skip(n: number): void {
    if (n > this.limit - this.pos) this.fail(`${n} bytes needed, ${this.limit - this.pos} left`);
    this.pos += n;
  }

  /** A value type: one byte, or 0x63/0x64 followed by a heap type. */
  skipValType(): void {
    const b = this.u8();
    if (b === 0x63 || b === 0x64) this.skipLeb();
  }

  /** A block type: 0x40, a value type, or a type index (s33). */
  skipBlockType(): void {
    const b = this.buf[this.pos];
    if (b === undefined || this.pos >= this.limit) this.fail('unexpected end');
    if (b >= 0x40 && b < 0x80) this.skipValType();
    else this.skipLeb();
  }

  /** A name (UTF-8 bytes with a length prefix); returns its [start, end). */
  name(): [number, number] {
    const n = this.u32();
    const start = this.pos;
    this.skip(n);
    return [start, this.pos];
  }

  /** Skips table/memory limits; returns the flags byte. */
  limits(): { flags: number; min: number; max: number | undefined } {
    const flags = this.u8();
    if (flags > 0x07) this.fail(`unsupported limits flags 0x${flags.toString(16)}`);
    const min = this.uleb();
    const max = flags & 1 ? this.uleb() : undefined;
    return { flags, min, max };
  }
}
