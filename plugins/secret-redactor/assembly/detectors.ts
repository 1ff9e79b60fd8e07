// One detector per secret shape. Each looks at position `at` and returns a
// Match (the span to replace and its kind) or null. AssemblyScript has no
// regex engine, so the shapes are spelled out by hand; the README lists them.

import { isAlnum, isNameChar, isSpace, isTokenChar, isUpperOrDigit, runEnd, spanEndsWith, spanIncludes, spanIs, startsWord } from "./chars";

export class Match {
  /** Where the scan goes on: the end, or an assignment's value start (see `assignment`). */
  resume: i32;
  constructor(public start: i32, public end: i32, public kind: string) {
    this.resume = end;
  }
}

/** `prefix` followed by at least `min` chars of `accept`, starting a word. */
function prefixed(s: string, at: i32, prefix: string, min: i32, accept: (c: i32) => bool, kind: string): Match | null {
  if (!s.startsWith(prefix, at) || !startsWord(s, at)) return null;
  const end = runEnd(s, at + prefix.length, accept);
  return end - at - prefix.length >= min ? new Match(at, end, kind) : null;
}

/** Anthropic `sk-ant-…`, then OpenAI `sk-…` / `sk-proj-…`. */
export function apiKey(s: string, at: i32): Match | null {
  const ant = prefixed(s, at, "sk-ant-", 20, isTokenChar, "anthropic-key");
  if (ant !== null) return ant;
  return prefixed(s, at, "sk-", 20, isTokenChar, "openai-key");
}

const GITHUB_PREFIXES: string[] = ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"];

/** GitHub classic tokens (`ghp_` + 36) and fine-grained ones (`github_pat_…`). */
export function githubToken(s: string, at: i32): Match | null {
  const pat = prefixed(s, at, "github_pat_", 22, isTokenChar, "github-token");
  if (pat !== null) return pat;
  for (let i = 0; i < GITHUB_PREFIXES.length; i++) {
    const m = prefixed(s, at, GITHUB_PREFIXES[i], 30, isAlnum, "github-token");
    if (m !== null) return m;
  }
  return null;
}

/** AWS access key ids: `AKIA` or `ASIA` and exactly 16 upper-case letters or digits. */
export function awsKey(s: string, at: i32): Match | null {
  if (!(s.startsWith("AKIA", at) || s.startsWith("ASIA", at)) || !startsWord(s, at)) return null;
  const end = runEnd(s, at + 4, isUpperOrDigit);
  if (end - at != 20 || (end < s.length && isTokenChar(s.charCodeAt(end)))) return null;
  return new Match(at, end, "aws-access-key");
}

/** Slack tokens: `xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xoxe-`. */
export function slackToken(s: string, at: i32): Match | null {
  if (!s.startsWith("xox", at) || at + 4 >= s.length || s.charAt(at + 4) != "-") return null;
  if (!"baprse".includes(s.charAt(at + 3))) return null;
  return prefixed(s, at, s.substring(at, at + 5), 10, isTokenChar, "slack-token");
}

/** JWTs: `eyJ…` header `.` `eyJ…` payload `.` signature (base64url). */
export function jwt(s: string, at: i32): Match | null {
  if (!s.startsWith("eyJ", at) || !startsWord(s, at)) return null;
  const h = runEnd(s, at, isTokenChar);
  if (h - at < 10 || h >= s.length || s.charAt(h) != "." || !s.startsWith("eyJ", h + 1)) return null;
  const p = runEnd(s, h + 1, isTokenChar);
  if (p - h - 1 < 10 || p >= s.length || s.charAt(p) != ".") return null;
  const sig = runEnd(s, p + 1, isTokenChar);
  return sig - p - 1 >= 10 ? new Match(at, sig, "jwt") : null;
}

/** `-----BEGIN … PRIVATE KEY-----` through its END line (or the end of the text if cut off). */
export function privateKey(s: string, at: i32): Match | null {
  if (!s.startsWith("-----BEGIN ", at)) return null;
  const close = s.indexOf("-----", at + 11);
  if (close < 0 || !s.substring(at + 11, close).endsWith("PRIVATE KEY")) return null;
  const endMarker = s.indexOf("-----END ", close + 5);
  if (endMarker < 0) return new Match(at, s.length, "private-key");
  const endClose = s.indexOf("-----", endMarker + 9);
  return new Match(at, endClose < 0 ? s.length : endClose + 5, "private-key");
}

/** The kind for a key name, or "" when the name is not a secret's. */
export function secretNameKind(name: string): string {
  // A JSON key may hold any character; lower-casing first keeps the Unicode rules (`K` KELVIN SIGN is `k`).
  const n = name.toLowerCase();
  return secretNameKindAt(n, 0, n.length);
}

// Key names whose values are secrets, by what the (lower-cased) name ends with; grouped by
// that ending's last letter, so a name is compared with the few it could be.
const ENDING_D: string[] = ["password", "passwd", "pwd"];
const ENDING_T: string[] = ["secret", "client_secret"];
const ENDING_N: string[] = ["token", "authorization"];
const ENDING_Y: string[] = ["api_key", "apikey", "api-key", "access_key", "private_key"];
const ENDING_S: string[] = ["credentials"];

/** The kind for the key name `s[start, end)` (any case), or "". */
function secretNameKindAt(s: string, start: i32, end: i32): string {
  if (end <= start) return "";
  let names: string[];
  switch (s.charCodeAt(end - 1) | 0x20) {
    case 0x64: names = ENDING_D; break;
    case 0x74: names = ENDING_T; break;
    case 0x6e: names = ENDING_N; break;
    case 0x79: names = ENDING_Y; break;
    case 0x73: names = ENDING_S; break;
    default: return "";
  }
  for (let i = 0; i < names.length; i++) {
    if (!spanEndsWith(s, start, end, names[i])) continue;
    if (spanIncludes(s, start, end, "pass") || spanEndsWith(s, start, end, "pwd")) return "password";
    if (spanIncludes(s, start, end, "token") || spanEndsWith(s, start, end, "authorization")) return "token";
    if (spanIncludes(s, start, end, "key")) return "api-key";
    return "secret";
  }
  return "";
}

const AUTH_SCHEMES: string[] = ["Bearer ", "Basic ", "Token ", "bearer ", "basic ", "token "];

/**
 * `password=hunter2`, `DB_PASSWORD: "x"`, `"api_key":"…"`, `Authorization: Bearer …`:
 * at a `=` or `:`, the name before it is a secret's; the value after it is
 * replaced (the name, separator and quotes stay). Values shorter than 4 chars
 * and `null`/`true`/`false` are left alone.
 */
export function assignment(s: string, at: i32): Match | null {
  const sep = s.charCodeAt(at);
  if (sep != 0x3d && sep != 0x3a) return null;
  let nameEnd = at;
  while (nameEnd > 0 && isNameEdge(s.charCodeAt(nameEnd - 1))) nameEnd--;
  let nameStart = nameEnd;
  while (nameStart > 0 && isNameChar(s.charCodeAt(nameStart - 1))) nameStart--;
  const kind = secretNameKindAt(s, nameStart, nameEnd);
  if (kind.length == 0) return null;
  let v = runEnd(s, at + 1, isSpace);
  // The closing quote: `"` or `'` (QUOTE_ESCAPED: `\"`, a quote inside JSON-escaped text), or none.
  let quote = 0;
  const q = s.charCodeAt(v);
  if (q == 0x22 || q == 0x27) {
    quote = q;
    v++;
  } else if (s.startsWith("\\\"", v)) {
    quote = QUOTE_ESCAPED;
    v += 2;
  }
  for (let i = 0; i < AUTH_SCHEMES.length; i++) {
    if (s.startsWith(AUTH_SCHEMES[i], v)) { v += AUTH_SCHEMES[i].length; break; }
  }
  let end = v;
  while (end < s.length && !endsValue(s, end, quote)) end = valueStep(s, end, quote);
  if (end > s.length) end = s.length;
  if (end - v < 4 || spanIs(s, v, end, "null") || spanIs(s, v, end, "true") || spanIs(s, v, end, "false") || s.startsWith("[REDACTED", v)) return null;
  // A quoted value's end is a guess (an unclosed quote, an escaped one that did close it): the value
  // is scanned again for secrets and assignments, and a match reaching past it widens the redaction
  // (redact.ts), so a secret after a swallowed `token=` is not left out. Quoted values only: a value
  // of one quote kind cannot hold another of the same kind, so this stays linear; an unquoted value
  // (`password=password=…`, 1 MB of it) is not scanned again.
  const m = new Match(v, end, kind);
  if (quote != 0) m.resume = v;
  return m;
}

const QUOTE_ESCAPED = 1;

// Spaces and quotes between a name and its separator; a backslash too, for a name in JSON-escaped text (`\"password\":`).
function isNameEdge(c: i32): bool {
  return isSpace(c) || c == 0x22 || c == 0x27 || c == 0x5c;
}

/**
 * The next position in a value: past a whole escape inside a double-quoted
 * one (`\"`, `\\`, `\u…`'s backslash), and past `\\\"` (an escaped quote,
 * escaped again) or `\\` in JSON-escaped text, so an escaped quote does not end
 * the value (`"password":"hun\"ter22"` leaked `ter22`).
 */
function valueStep(s: string, i: i32, quote: i32): i32 {
  if (s.charCodeAt(i) != 0x5c) return i + 1;
  const next = s.charCodeAt(i + 1);
  if (next == 0x0a || next == 0x0d) return i + 1;
  if (quote == 0x22) return i + 2;
  if (quote == QUOTE_ESCAPED && next == 0x5c) return s.startsWith("\\\"", i + 2) ? i + 4 : i + 2;
  return i + 1;
}

function endsValue(s: string, i: i32, quote: i32): bool {
  const c = s.charCodeAt(i);
  if (c == 0x0a || c == 0x0d) return true;
  if (quote == QUOTE_ESCAPED) return c == 0x5c && s.charCodeAt(i + 1) == 0x22;
  if (quote != 0) return c == quote;
  // space, tab, " ' , ; & \
  return c == 0x20 || c == 0x09 || c == 0x22 || c == 0x27 || c == 0x2c || c == 0x3b || c == 0x26 || c == 0x5c;
}
