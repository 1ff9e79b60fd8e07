// Redaction of one text and of a JSON document.

import { JsonKind, JsonValue } from "@wasmhooks/sdk-guest";
import { Match, apiKey, assignment, awsKey, githubToken, jwt, privateKey, secretNameKind, slackToken } from "./detectors";

export class Redacted {
  text: string = "";
  /** One entry per replacement, e.g. ["openai-key", "password"]. */
  kinds: string[] = [];
}

function detect(s: string, at: i32): Match | null {
  // Dispatch on the char code: most positions cost one load and a few compares.
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

/**
 * Could a secret start at `i`? `sk`, `gh`/`gi`, `AK`/`AS`, `xo`, `ey`, `--`, `=`, `:`.
 * Checked in a tight loop before any call: the sandbox charges fuel per
 * function entry and loop iteration, so most chars must cost a few compares.
 */
@inline function mayStart(s: string, i: i32): bool {
  const c = s.charCodeAt(i);
  if (c == 0x3d || c == 0x3a) return true;
  const d = s.charCodeAt(i + 1);
  if (c == 0x73) return d == 0x6b;
  if (c == 0x65) return d == 0x79;
  if (c == 0x67) return d == 0x68 || d == 0x69;
  if (c == 0x41) return d == 0x4b || d == 0x53;
  if (c == 0x78) return d == 0x6f;
  return c == 0x2d && d == 0x2d;
}

/** `text` with every secret replaced by `[REDACTED:<kind>]`. */
export function redactText(text: string, into: Redacted): string {
  const parts: string[] = [];
  const len = text.length;
  let copied = 0;
  let i = 0;
  while (true) {
    while (i < len && !mayStart(text, i)) i++;
    if (i >= len) break;
    const m = detect(text, i);
    if (m === null) {
      i++;
      continue;
    }
    // An assignment's match starts after the separator; the name and `=` are kept.
    parts.push(text.substring(copied, m.start));
    parts.push("[REDACTED:" + m.kind + "]");
    into.kinds.push(m.kind);
    copied = m.end;
    i = m.end > i ? m.end : i + 1;
  }
  if (parts.length == 0) return text;
  parts.push(text.substring(copied));
  return parts.join("");
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
