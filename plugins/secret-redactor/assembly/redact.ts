// Redaction of one text and of a JSON document.

import { JsonKind, JsonValue, TextEdit, spliceText } from "@wasmhooks/sdk-guest";
import { Match, apiKey, assignment, awsKey, githubToken, jwt, privateKey, secretNameKind, slackToken } from "./detectors";

export class Redacted {
  /** One entry per replacement, e.g. ["openai-key", "password"]. */
  kinds: string[] = [];
}

function detect(s: string, at: i32): Match | null {
  const c = s.charCodeAt(at);
  if (c == 0x3d || c == 0x3a) {
    // `OPENAI_API_KEY=sk-…`: let the value's own shape name the kind.
    const a = assignment(s, at);
    return a !== null && shaped(s, a.start) === null ? a : null;
  }
  return shaped(s, at);
}

function shaped(s: string, at: i32): Match | null {
  switch (s.charCodeAt(at)) {
    case 0x73: return apiKey(s, at); // s
    case 0x67: return githubToken(s, at); // g
    case 0x41: return awsKey(s, at); // A
    case 0x78: return slackToken(s, at); // x
    case 0x65: return jwt(s, at); // e
    case 0x2d: return privateKey(s, at); // -
    default: return null;
  }
}

// For each ASCII char that can start a secret, the second char it needs
// (`sk`, `ey`, `gh`/`gi`, `AK`/`AS`, `xo`, `--`); 1 for `=` and `:`, which
// need none; 0 for every other char.
const FIRST: StaticArray<u8> = new StaticArray<u8>(128);
FIRST[0x3d] = 1;
FIRST[0x3a] = 1;
FIRST[0x73] = 0x6b;
FIRST[0x65] = 0x79;
FIRST[0x67] = 0x68;
FIRST[0x41] = 0x4b;
FIRST[0x78] = 0x6f;
FIRST[0x2d] = 0x2d;

/**
 * The first index from `i` where a secret could start, or `len`. Asked of
 * every char, so it reads the text directly: a load, a table load and a
 * compare for most chars; detect() does the real work for the few left.
 */
function nextCandidate(s: string, i: i32, len: i32): i32 {
  const base = changetype<usize>(s);
  const end = base + (<usize>len << 1);
  let p = base + (<usize>i << 1);
  while (p < end) {
    const c = <u32>load<u16>(p);
    if (c < 128) {
      const want = <u32>unchecked(FIRST[c]);
      if (want == 1) break;
      if (want != 0 && p + 2 < end) {
        const d = <u32>load<u16>(p, 2);
        // The second choices: `gi` (github_pat_) and `AS` (ASIA).
        if (d == want || (c == 0x67 && d == 0x69) || (c == 0x41 && d == 0x53)) break;
      }
    }
    p += 2;
  }
  return <i32>((p - base) >> 1);
}

/**
 * `text` with every secret replaced by `[REDACTED:<kind>]`: one scan, then the
 * result is written once (the text itself when nothing matched).
 */
export function redactText(text: string, into: Redacted): string {
  const edits: TextEdit[] = [];
  const len = text.length;
  let i = 0;
  while (true) {
    i = nextCandidate(text, i, len);
    if (i >= len) break;
    const m = detect(text, i);
    if (m === null) {
      i++;
      continue;
    }
    // An assignment's match starts after the separator; the name and `=` are kept. A match that
    // starts inside the last one (scanned again after an escaped quote) widens it: one redaction.
    const last = edits.length > 0 ? unchecked(edits[edits.length - 1]) : null;
    if (last !== null && m.start < last.end) {
      if (m.end > last.end) last.end = m.end;
    } else {
      edits.push(new TextEdit(m.start, m.end, "[REDACTED:" + m.kind + "]"));
      into.kinds.push(m.kind);
    }
    i = m.resume > i ? m.resume : i + 1;
  }
  return spliceText(text, edits);
}

/**
 * Redacts every string in a JSON tree in place; an object member whose name is
 * a secret's (`"password": "…"`) has its whole string value replaced.
 */
export function redactJson(v: JsonValue, into: Redacted): void {
  if (v.kind == JsonKind.String) {
    v.stringValue = redactText(v.stringValue, into);
  } else if (v.kind == JsonKind.Array || v.kind == JsonKind.Object) {
    for (let i = 0; i < v.items.length; i++) {
      const item = v.items[i];
      const kind = v.kind == JsonKind.Object ? secretNameKind(v.keys[i]) : "";
      if (kind.length > 0 && item.kind == JsonKind.String && item.stringValue.length > 0 && !item.stringValue.startsWith("[REDACTED")) {
        item.stringValue = "[REDACTED:" + kind + "]";
        into.kinds.push(kind);
      } else {
        redactJson(item, into);
      }
    }
  }
}
