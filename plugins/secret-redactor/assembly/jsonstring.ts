// JSON string literal decoding and encoding with one buffer each. Tool output
// arrives as one JSON string, often long and multi-line. The SDK's parseJson and
// jsonString build their result with `+=` per escape (quadratic), and a string
// piece per escape is costly too under the SDK's minimal runtime (no collection
// during a call); so these size the result first and fill one UTF-16 buffer.

const HEX = "0123456789abcdef";

function hexValue(c: i32): i32 {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

function hex4(text: string, at: i32): i32 {
  let code = 0;
  for (let k = 0; k < 4; k++) {
    const h = hexValue(text.charCodeAt(at + k));
    if (h < 0) return -1;
    code = (code << 4) | h;
  }
  return code;
}

function simpleEscape(e: i32): i32 {
  if (e == 0x22 || e == 0x5c || e == 0x2f) return e;
  if (e == 0x62) return 0x08;
  if (e == 0x66) return 0x0c;
  if (e == 0x6e) return 0x0a;
  if (e == 0x72) return 0x0d;
  if (e == 0x74) return 0x09;
  return -1;
}

/** The decoded value of `json` if it is exactly one JSON string literal (surrounding whitespace allowed); else null. */
export function decodeJsonString(json: string): string | null {
  let first = 0;
  let last = json.length - 1;
  while (first <= last && isJsonSpace(json.charCodeAt(first))) first++;
  while (last >= first && isJsonSpace(json.charCodeAt(last))) last--;
  if (last - first < 1 || json.charCodeAt(first) != 0x22 || json.charCodeAt(last) != 0x22) return null;
  const out = new Uint16Array(last - first);
  let n = 0;
  let i = first + 1;
  while (i < last) {
    // Plain chars in a tight loop (the sandbox charges per loop iteration by body size).
    let c = json.charCodeAt(i);
    while (c >= 0x20 && c != 0x22 && c != 0x5c && i < last) {
      out[n++] = <u16>c;
      c = json.charCodeAt(++i);
    }
    if (i >= last) break;
    if (c == 0x22 || c < 0x20) return null;
    if (i + 1 >= last) return null;
    const e = json.charCodeAt(i + 1);
    if (e == 0x75) {
      if (i + 6 > last) return null;
      const code = hex4(json, i + 2);
      if (code < 0) return null;
      out[n++] = <u16>code;
      i += 6;
      continue;
    }
    const simple = simpleEscape(e);
    if (simple < 0) return null;
    out[n++] = <u16>simple;
    i += 2;
  }
  return String.UTF16.decodeUnsafe(out.dataStart, <usize>n << 1);
}

function isJsonSpace(c: i32): bool {
  return c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d;
}

/** The escape for code unit `c` ("" when it stands as is). */
function escapeOf(c: i32): string {
  if (c == 0x22) return "\\\"";
  if (c == 0x5c) return "\\\\";
  if (c == 0x0a) return "\\n";
  if (c == 0x0d) return "\\r";
  if (c == 0x09) return "\\t";
  if (c < 0x20) return "\\u00" + HEX.charAt(c >> 4) + HEX.charAt(c & 15);
  return "";
}

@inline function escapedLength(c: i32): i32 {
  if (c == 0x22 || c == 0x5c || c == 0x0a || c == 0x0d || c == 0x09) return 2;
  return c < 0x20 ? 6 : 1;
}

/** `s` as a JSON string literal. */
export function encodeJsonString(s: string): string {
  let size = 2;
  for (let i = 0; i < s.length; i++) size += escapedLength(s.charCodeAt(i));
  const out = new Uint16Array(size);
  let n = 0;
  out[n++] = 0x22;
  let i = 0;
  while (i < s.length) {
    let c = s.charCodeAt(i);
    while (c >= 0x20 && c != 0x22 && c != 0x5c) {
      out[n++] = <u16>c;
      c = s.charCodeAt(++i);
    }
    if (i >= s.length) break;
    i++;
    const esc = escapeOf(c);
    for (let k = 0; k < esc.length; k++) out[n++] = <u16>esc.charCodeAt(k);
  }
  out[n++] = 0x22;
  return String.UTF16.decodeUnsafe(out.dataStart, <usize>n << 1);
}
