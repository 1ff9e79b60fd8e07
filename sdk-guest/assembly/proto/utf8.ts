// UTF-8 to and from AssemblyScript's UTF-16 strings, with the same results as
// String.UTF8.decodeUnsafe and String.UTF8.encode (WTF-8: a lone surrogate is
// encoded as is). The sandbox charges a loop's whole body on every iteration,
// so the standard loops cost ~140 fuel per byte of plain text; here ASCII runs
// go through a tight inner loop (~15) and only other characters take the long path.

/** Decodes `len` bytes at `buf`. */
export function decodeUtf8(buf: usize, len: usize): string {
  const end = buf + len;
  const out = __new(len << 1, idof<string>()); // at most one code unit per byte
  let p = buf;
  let q = out;
  while (p < end) {
    let u0 = <u32>load<u8>(p);
    while (u0 < 0x80) {
      store<u16>(q, u0);
      q += 2;
      if (++p >= end) break;
      u0 = <u32>load<u8>(p);
    }
    if (p >= end) break;
    // A multi-byte sequence; a truncated one ends the string, as in the standard library.
    ++p;
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
function utf8Length(s: string): i32 {
  let p = changetype<usize>(s);
  const end = p + (<usize>s.length << 1);
  let n = 0;
  while (p < end) {
    let c = <u32>load<u16>(p);
    while (c < 0x80) {
      n++;
      p += 2;
      if (p >= end) return n;
      c = <u32>load<u16>(p);
    }
    if (c < 0x800) {
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

/** Encodes `s` (WTF-8: a lone surrogate becomes its 3-byte form). */
export function encodeUtf8(s: string): Uint8Array {
  const bytes = new Uint8Array(utf8Length(s));
  let p = changetype<usize>(s);
  const end = p + (<usize>s.length << 1);
  let q = bytes.dataStart;
  while (p < end) {
    let c = <u32>load<u16>(p);
    while (c < 0x80) {
      store<u8>(q, c);
      q++;
      p += 2;
      if (p >= end) return bytes;
      c = <u32>load<u16>(p);
    }
    if (c < 0x800) {
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
  return bytes;
}
