// UTF-8 to and from AssemblyScript's UTF-16 strings, with the same results as
// String.UTF8.decodeUnsafe and String.UTF8.encode (WTF-8: a lone surrogate is
// encoded as is). Text is mostly ASCII, so both directions take eight bytes
// (four code units) per step while every byte is below 0x80: one 64-bit load,
// one test of the high bits (the validation) and a widening or narrowing
// shuffle (the copy), ~3 fuel per byte. Any other character takes the
// one-character path, then the word loop resumes.

const HIGH_BITS_8: u64 = 0x8080808080808080;
const NOT_ASCII_16: u64 = 0xFF80FF80FF80FF80;

// Four bytes in the low half of `x` → four u16 lanes.
@inline function widen4(x: u64): u64 {
  x &= 0xFFFFFFFF;
  x = (x | (x << 16)) & 0x0000FFFF0000FFFF;
  return (x | (x << 8)) & 0x00FF00FF00FF00FF;
}

// Four u16 lanes, each below 0x80 → four bytes in the low half.
@inline function narrow4(x: u64): u32 {
  x = (x | (x >> 8)) & 0x0000FFFF0000FFFF;
  return <u32>(x | (x >> 16));
}

// Set by decodeUtf8 when the bytes are not well-formed UTF-8; protobuf string fields must be, so
// the wire reader refuses them (utf8WasInvalid).
let invalidSeen = false;

/** Whether the last decodeUtf8 met bytes that are not well-formed UTF-8 (Unicode table 3-7). */
export function utf8WasInvalid(): bool {
  return invalidSeen;
}

/**
 * Decodes `len` bytes at `buf`; `utf8WasInvalid()` says afterwards whether they were well-formed
 * (if not, decoding stopped at the first bad sequence and the string is only its start).
 *
 * The check is part of the decode (it once was a second pass over every non-ASCII character, which
 * cost CJK text ~30% more fuel): a sequence is well-formed when its continuation bytes are 10xxxxxx
 * and the value it decodes to is in its length's range (no overlong form), no surrogate and at most
 * U+10FFFF — table 3-7's byte ranges, stated as values. Lead bytes 80-C1 and F5-FF are never valid.
 */
export function decodeUtf8(buf: usize, len: usize): string {
  invalidSeen = false;
  const end = buf + len;
  const out = __new(len << 1, idof<string>()); // at most one code unit per byte
  let p = buf;
  let q = out;
  while (p < end) {
    while (p + 8 <= end) {
      const w = load<u64>(p);
      if (w & HIGH_BITS_8) break;
      store<u64>(q, widen4(w));
      store<u64>(q, widen4(w >> 32), 8);
      p += 8;
      q += 16;
    }
    if (p >= end) break;
    const u0 = <u32>load<u8>(p);
    if (u0 < 0x80) {
      store<u16>(q, u0);
      ++p;
      q += 2;
      continue;
    }
    if (u0 < 0xE0) {
      // C2-DF then one continuation byte (80-C1 as a lead: a stray continuation or an overlong form).
      if (u0 < 0xC2 || p + 2 > end) break;
      const u1 = <u32>load<u8>(p, 1);
      if ((u1 & 0xC0) != 0x80) break;
      store<u16>(q, (u0 & 31) << 6 | (u1 & 63));
      p += 2;
      q += 2;
      continue;
    }
    if (u0 < 0xF0) {
      if (p + 3 > end) break;
      const w = <u32>load<u16>(p, 1);
      if ((w & 0xC0C0) != 0x8080) break;
      const c = (u0 & 15) << 12 | (w & 63) << 6 | (w >> 8) & 63;
      // Below U+0800: overlong (E0 80-9F); D800-DFFF: a surrogate (ED A0-BF, CESU-8 among them).
      if (c < 0x800 || c - 0xD800 < 0x800) break;
      store<u16>(q, c);
      p += 3;
      q += 2;
      continue;
    }
    if (u0 > 0xF4 || p + 4 > end) break;
    const w = load<u32>(p);
    if ((w & 0xC0C0C000) != 0x80808000) break;
    // 0x10000-0x10FFFF only: below is overlong (F0 80-8F), above is past Unicode (F4 90-BF).
    const c = (u0 & 7) << 18 | (w << 4 & 0x3F000) | (w >> 10 & 0xFC0) | (w >> 24 & 63);
    if (c - 0x10000 > 0xFFFFF) break;
    const d = c - 0x10000;
    store<u32>(q, (d >> 10 | 0xD800) | ((d & 0x03FF) | 0xDC00) << 16);
    p += 4;
    q += 4;
  }
  if (p < end) invalidSeen = true;
  return changetype<string>(__renew(out, q - out));
}

/** The UTF-8 length of `s`. */
export function utf8Length(s: string): i32 {
  let p = changetype<usize>(s);
  const end = p + (<usize>s.length << 1);
  let n = 0;
  while (p < end) {
    while (p + 8 <= end && (load<u64>(p) & NOT_ASCII_16) == 0) {
      n += 4;
      p += 8;
    }
    if (p >= end) break;
    const c = <u32>load<u16>(p);
    if (c < 0x80) {
      n++;
    } else if (c < 0x800) {
      n += 2;
    } else if ((c & 0xFC00) == 0xD800 && p + 2 < end && (<u32>load<u16>(p, 2) & 0xFC00) == 0xDC00) {
      n += 4;
      p += 2;
    } else {
      n += 3;
    }
    p += 2;
  }
  return n;
}

/**
 * Writes `s` as UTF-8 at `dst`, which has room for `utf8Length(s)` bytes;
 * returns the address after the last byte written.
 */
export function encodeUtf8Into(s: string, dst: usize): usize {
  let p = changetype<usize>(s);
  const end = p + (<usize>s.length << 1);
  let q = dst;
  while (p < end) {
    while (p + 8 <= end) {
      const w = load<u64>(p);
      if (w & NOT_ASCII_16) break;
      store<u32>(q, narrow4(w));
      p += 8;
      q += 4;
    }
    if (p >= end) break;
    let c = <u32>load<u16>(p);
    if (c < 0x80) {
      store<u8>(q, c);
      q++;
    } else if (c < 0x800) {
      store<u16>(q, (c & 63 | 128) << 8 | (c >> 6 | 192));
      q += 2;
    } else {
      if ((c & 0xFC00) == 0xD800 && p + 2 < end) {
        const c2 = <u32>load<u16>(p, 2);
        if ((c2 & 0xFC00) == 0xDC00) {
          c = 0x10000 + ((c & 0x03FF) << 10) | (c2 & 0x03FF);
          store<u32>(q, (c & 63 | 128) << 24 | (c >> 6 & 63 | 128) << 16 | (c >> 12 & 63 | 128) << 8 | (c >> 18 | 240));
          q += 4;
          p += 4;
          continue;
        }
      }
      store<u16>(q, (c >> 6 & 63 | 128) << 8 | (c >> 12 | 224));
      store<u8>(q, c & 63 | 128, 2);
      q += 3;
    }
    p += 2;
  }
  return q;
}

/** Encodes `s` (WTF-8: a lone surrogate becomes its 3-byte form). */
export function encodeUtf8(s: string): Uint8Array {
  const bytes = new Uint8Array(utf8Length(s));
  encodeUtf8Into(s, bytes.dataStart);
  return bytes;
}
