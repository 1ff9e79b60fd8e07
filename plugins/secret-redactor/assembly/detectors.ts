// One detector per secret shape. Each looks at position `at` and returns a
// Match (the span to replace and its kind) or null. AssemblyScript has no
// regex engine, so the shapes are spelled out by hand; the README lists them.

import { isAlnum, isNameChar, isSpace, isTokenChar, isUpperOrDigit, runEnd, startsWord } from "./chars";

export class Match {
  constructor(public start: i32, public end: i32, public kind: string) {}
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

/** Key names whose values are secrets, by what the (lower-cased) name ends with. */
const SECRET_NAMES: string[] = [
  "password", "passwd", "pwd", "secret", "token", "api_key", "apikey", "api-key",
  "access_key", "private_key", "client_secret", "authorization", "credentials",
];

/** The kind for a key name, or "" when the name is not a secret's. */
export function secretNameKind(name: string): string {
  const n = name.toLowerCase();
  for (let i = 0; i < SECRET_NAMES.length; i++) {
    if (!n.endsWith(SECRET_NAMES[i])) continue;
    if (n.includes("pass") || n.endsWith("pwd")) return "password";
    if (n.includes("token") || n.endsWith("authorization")) return "token";
    if (n.includes("key")) return "api-key";
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
  while (nameEnd > 0 && (isSpace(s.charCodeAt(nameEnd - 1)) || s.charAt(nameEnd - 1) == "\"" || s.charAt(nameEnd - 1) == "'")) nameEnd--;
  let nameStart = nameEnd;
  while (nameStart > 0 && isNameChar(s.charCodeAt(nameStart - 1))) nameStart--;
  const kind = secretNameKind(s.substring(nameStart, nameEnd));
  if (kind.length == 0) return null;
  let v = runEnd(s, at + 1, isSpace);
  let quote = "";
  if (v < s.length && (s.charAt(v) == "\"" || s.charAt(v) == "'")) {
    quote = s.charAt(v);
    v++;
  } else if (s.startsWith("\\\"", v)) {
    quote = "\\\"";
    v += 2;
  }
  for (let i = 0; i < AUTH_SCHEMES.length; i++) {
    if (s.startsWith(AUTH_SCHEMES[i], v)) { v += AUTH_SCHEMES[i].length; break; }
  }
  let end = v;
  while (end < s.length && !endsValue(s, end, quote)) end++;
  const value = s.substring(v, end);
  if (value.length < 4 || value == "null" || value == "true" || value == "false" || value.startsWith("[REDACTED")) return null;
  return new Match(v, end, kind);
}

function endsValue(s: string, i: i32, quote: string): bool {
  const c = s.charCodeAt(i);
  if (c == 0x0a || c == 0x0d) return true;
  if (quote.length > 0) return s.startsWith(quote, i);
  // space, tab, " ' , ; & \
  return c == 0x20 || c == 0x09 || c == 0x22 || c == 0x27 || c == 0x2c || c == 0x3b || c == 0x26 || c == 0x5c;
}
