// JSON string literals in linear time. Plugins run under the minimal runtime
// (no collection during a call), so building a result with `+=` per escape
// costs quadratic time and memory: 50 KB of escape-heavy text took 264 M fuel
// and more than 16 MiB. Here each result is sized first and written once into
// a string allocated at its final length.

// Escapes needing only a backslash and a letter; 0 where \u00XX is needed.
// Indexed by code unit, for code units < 0x60 ('"' is 0x22, '\' is 0x5c).
const SHORT: StaticArray<u8> = [
  0, 0, 0, 0, 0, 0, 0, 0, 0x62, 0x74, 0x6e, 0, 0x66, 0x72, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0x22, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x5c, 0, 0, 0,
];

@inline function needsEscape(c: u32): bool {
  return c < 0x20 || c == 0x22 || c == 0x5c;
}

@inline function hexDigit(n: u32): u16 {
  return <u16>(n < 10 ? 0x30 + n : 0x57 + n);
}

// Four UTF-16 code units at a time (SWAR): `(x - n·L) & ~x & H` is non-zero
// exactly when some 16-bit lane of x is below n (n ≤ 0x8000); a lane equal to
// v is a lane of x ^ v·L below 1.
const LANES: u64 = 0x0001000100010001;
const HIGH: u64 = 0x8000800080008000;

@inline function anyBelow(x: u64, n: u64): u64 {
  return (x - n * LANES) & ~x & HIGH;
}

@inline function anyEqual(x: u64, v: u64): u64 {
  return anyBelow(x ^ (v * LANES), 1);
}

/**
 * The address of the first code unit in [p, end) that may need attention in a
 * JSON string (a control character, `"` or `\`), or of the last group of
 * fewer than four; the caller checks from there one unit at a time.
 */
@inline export function plainRun(p: usize, end: usize): usize {
  while (p + 8 <= end) {
    const w = load<u64>(p);
    if (anyBelow(w, 0x20) | anyEqual(w, 0x22) | anyEqual(w, 0x5c)) break;
    p += 8;
  }
  return p;
}

/** The first code unit in [p, end) that needs escaping in JSON, or `end`. */
export function nextSpecial(p: usize, end: usize): usize {
  while (true) {
    p = plainRun(p, end);
    if (p >= end) return end;
    // The group plainRun stopped at (or the short tail), one unit at a time.
    const stop = p + 8 < end ? p + 8 : end;
    while (p < stop) {
      if (needsEscape(<u32>load<u16>(p))) return p;
      p += 2;
    }
    if (p >= end) return end;
  }
}

// A string of `units` UTF-16 code units, contents unset: the caller fills all of them.
@inline function allocString(units: i32): string {
  return changetype<string>(__new(<usize>units << 1, idof<string>()));
}

/** Quotes and escapes `s` as a JSON string literal. Example: `jsonString('say "hi"')` → `"say \"hi\""`. */
export function jsonString(s: string): string {
  const src = changetype<usize>(s);
  const end = src + (<usize>s.length << 1);
  let size = s.length + 2;
  for (let p = nextSpecial(src, end); p < end; p = nextSpecial(p + 2, end)) {
    size += unchecked(SHORT[<u32>load<u16>(p)]) != 0 ? 1 : 5;
  }
  const out = allocString(size);
  let dst = changetype<usize>(out);
  store<u16>(dst, 0x22);
  dst += 2;
  let p = src;
  while (p < end) {
    // Copy the run of plain code units in one go.
    const run = p;
    p = nextSpecial(p, end);
    memory.copy(dst, run, p - run);
    dst += p - run;
    if (p >= end) break;
    const c = <u32>load<u16>(p);
    p += 2;
    store<u16>(dst, 0x5c);
    const letter = unchecked(SHORT[c]);
    if (letter != 0) {
      store<u16>(dst, letter, 2);
      dst += 4;
    } else {
      store<u16>(dst, 0x75, 2);
      store<u16>(dst, 0x30, 4);
      store<u16>(dst, 0x30, 6);
      store<u16>(dst, hexDigit(c >> 4), 8);
      store<u16>(dst, hexDigit(c & 15), 10);
      dst += 12;
    }
  }
  store<u16>(dst, 0x22);
  return out;
}

/** The value of hex digit `c`, or -1. */
export function hexValue(c: i32): i32 {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** What the escape letter `e` (after a backslash) stands for; -1 for `u` and invalid letters. */
export function unescapeLetter(e: i32): i32 {
  if (e == 0x22 || e == 0x5c || e == 0x2f) return e;
  if (e == 0x62) return 0x08;
  if (e == 0x66) return 0x0c;
  if (e == 0x6e) return 0x0a;
  if (e == 0x72) return 0x0d;
  if (e == 0x74) return 0x09;
  return -1;
}

/**
 * Decodes the body of a string literal already checked to be valid:
 * `text[start, end)` (between the quotes), which decodes to `units` code units.
 */
export function decodeValidated(text: string, start: i32, end: i32, units: i32): string {
  const out = allocString(units);
  let dst = changetype<usize>(out);
  const base = changetype<usize>(text);
  let p = base + (<usize>start << 1);
  const stop = base + (<usize>end << 1);
  while (p < stop) {
    const run = p;
    while (p + 8 <= stop && !anyEqual(load<u64>(p), 0x5c)) p += 8;
    while (p < stop && load<u16>(p) != 0x5c) p += 2;
    memory.copy(dst, run, p - run);
    dst += p - run;
    if (p >= stop) break;
    const e = <i32>load<u16>(p, 2);
    if (e == 0x75) {
      let code = 0;
      for (let k = 0; k < 4; k++) code = (code << 4) | hexValue(<i32>load<u16>(p + 4 + (<usize>k << 1)));
      store<u16>(dst, <u16>code);
      p += 12;
    } else {
      store<u16>(dst, <u16>unescapeLetter(e));
      p += 4;
    }
    dst += 2;
  }
  return out;
}
