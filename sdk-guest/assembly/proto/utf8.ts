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

// Set by decodeUtf8 when a sequence is not well-formed UTF-8 (decoding goes on as before, lossy);
// protobuf string fields must be valid UTF-8, so the wire reader refuses them (utf8WasInvalid).
let invalidSeen = false;

/** Whether the last decodeUtf8 met bytes that are not well-formed UTF-8 (Unicode table 3-7). */
export function utf8WasInvalid(): bool {
  return invalidSeen;
}

// The sequence starting at `p` (a byte ≥ 0x80) is well-formed: no overlong forms, no surrogates,
// nothing past U+10FFFF, not cut by `end`.
function wellFormedAt(p: usize, end: usize): bool {
  const u0 = <u32>load<u8>(p);
  let need: usize = 0;
  let lo: u32 = 0x80;
  let hi: u32 = 0xBF;
  if (u0 - 0xC2 <= 0xDF - 0xC2) {
    need = 1;
  } else if (u0 - 0xE0 <= 0x0F) {
    need = 2;
    if (u0 == 0xE0) lo = 0xA0;
    else if (u0 == 0xED) hi = 0x9F;
  } else if (u0 - 0xF0 <= 0x04) {
    need = 3;
    if (u0 == 0xF0) lo = 0x90;
    else if (u0 == 0xF4) hi = 0x8F;
  } else {
    return false;
  }
  if (end - p <= need) return false;
  const u1 = <u32>load<u8>(p, 1);
  if (u1 < lo || u1 > hi) return false;
  for (let i: usize = 2; i <= need; i++) {
    if ((<u32>load<u8>(p + i) & 0xC0) != 0x80) return false;
  }
  return true;
}

/** Decodes `len` bytes at `buf`; `utf8WasInvalid()` says afterwards whether they were well-formed. */
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
    let u0 = <u32>load<u8>(p);
    if (u0 >= 0x80 && !wellFormedAt(p, end)) invalidSeen = true;
    ++p;
    if (u0 < 0x80) {
      store<u16>(q, u0);
      q += 2;
      continue;
    }
    // A multi-byte sequence; a truncated one ends the string, as in the standard library.
    if (p == end) break;
    const u1 = <u32>load<u8>(p) & 63;
    ++p;
    if ((u0 & 224) == 192) {
      store<u16>(q, (u0 & 31) << 6 | u1);
      q += 2;
      continue;
    }
    if (p == end) break;
    const u2 = <u32>load<u8>(p) & 63;
    ++p;
    if ((u0 & 240) == 224) {
      u0 = (u0 & 15) << 12 | u1 << 6 | u2;
    } else {
      if (p == end) break;
      u0 = (u0 & 7) << 18 | u1 << 12 | u2 << 6 | <u32>load<u8>(p) & 63;
      ++p;
    }
    if (u0 < 0x10000) {
      store<u16>(q, u0);
    } else {
      u0 -= 0x10000;
      store<u32>(q, (u0 >> 10 | 0xD800) | ((u0 & 0x03FF) | 0xDC00) << 16);
      q += 2;
    }
    q += 2;
  }
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
