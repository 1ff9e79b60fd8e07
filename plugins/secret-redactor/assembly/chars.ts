// Character classes for the scanners (ASCII only: secrets are ASCII).

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
