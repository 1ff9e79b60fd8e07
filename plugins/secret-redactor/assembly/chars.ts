// Character classes for the scanners (ASCII only: secrets are ASCII), and
// comparisons over a span of a string that allocate nothing.

export function isAlnum(c: i32): bool {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

export function isUpperOrDigit(c: i32): bool {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a);
}

/** `[A-Za-z0-9_-]`: the alphabet of most API keys and of base64url. */
export function isTokenChar(c: i32): bool {
  return isAlnum(c) || c == 0x5f || c == 0x2d;
}

/** Letters, digits, `_`, `-`, `.`: what a config key name is made of. */
export function isNameChar(c: i32): bool {
  return isTokenChar(c) || c == 0x2e;
}

export function isSpace(c: i32): bool {
  return c == 0x20 || c == 0x09;
}

/** The end of `s` from `from` while `accept` holds. */
export function runEnd(s: string, from: i32, accept: (c: i32) => bool): i32 {
  let i = from;
  while (i < s.length && accept(s.charCodeAt(i))) i++;
  return i;
}

/** Is the char before `at` not part of a token (so a match starts a word)? */
export function startsWord(s: string, at: i32): bool {
  return at == 0 || !isTokenChar(s.charCodeAt(at - 1));
}

@inline function lower(c: i32): i32 {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

/** Does `s[start, end)`, lower-cased, end with `suffix` (lower-case ASCII)? */
export function spanEndsWith(s: string, start: i32, end: i32, suffix: string): bool {
  const n = suffix.length;
  if (end - start < n) return false;
  const at = end - n;
  for (let i = 0; i < n; i++) if (lower(s.charCodeAt(at + i)) != suffix.charCodeAt(i)) return false;
  return true;
}

/** Does `s[start, end)`, lower-cased, contain `word` (lower-case ASCII)? */
export function spanIncludes(s: string, start: i32, end: i32, word: string): bool {
  for (let at = end - word.length; at >= start; at--) {
    if (spanEndsWith(s, start, at + word.length, word)) return true;
  }
  return false;
}

/** Is `s[start, end)` exactly `word`? */
export function spanIs(s: string, start: i32, end: i32, word: string): bool {
  return end - start == word.length && s.startsWith(word, start);
}
