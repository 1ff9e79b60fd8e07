/*
 * json-check.h: the JSON value type and its one validation (wh_json_parse,
 * linear time, nesting capped), which every reader in json.h relies on; also
 * the word-at-a-time scan over string bodies that both use.
 */
#ifndef WASMHOOKS_JSON_CHECK_H
#define WASMHOOKS_JSON_CHECK_H

#include "text.h"

/** The text of one JSON value (no surrounding whitespace); text.ptr == NULL means "absent". */
typedef struct wh_json {
  wh_str text;
} wh_json;

#define WH_JSON_MAX_DEPTH 64

typedef struct wh__json_parser {
  const uint8_t *s;
  uint32_t pos, len;
  const char *error;
} wh__json_parser;

static inline void wh__json_space(wh__json_parser *p) {
  while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' || p->s[p->pos] == '\r')) p->pos++;
}

static inline bool wh__json_fail(wh__json_parser *p, const char *error) {
  if (!p->error) p->error = error;
  return false;
}

static inline bool wh__json_hex(uint8_t c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
static inline bool wh__json_digit(uint8_t c) { return c >= '0' && c <= '9'; }

/*
 * Eight bytes at a time (SWAR): `(x - n*L) & ~x & H` is non-zero exactly when
 * some byte of x is below n (n <= 0x80); a byte equal to v is a byte of
 * x ^ v*L below 1. String bodies are mostly plain text, and every lookup
 * (wh_json_get) skips over them again, so both scanners step over them a word
 * at a time: ~1.5 instructions a byte instead of ~10.
 */
#define WH__L 0x0101010101010101ull
#define WH__H 0x8080808080808080ull

static inline uint64_t wh__load64(const uint8_t *p) {
  uint64_t w;
  __builtin_memcpy(&w, p, 8);
  return w;
}

static inline uint64_t wh__has_byte(uint64_t w, uint8_t v) {
  uint64_t x = w ^ (WH__L * v);
  return (x - WH__L) & ~x & WH__H;
}

/* The first position from `pos` that may hold a quote or a backslash (or the last < 8 bytes). */
static inline uint32_t wh__json_quiet(const uint8_t *s, uint32_t pos, uint32_t len) {
  while (pos < len && len - pos >= 8) {
    uint64_t w = wh__load64(s + pos);
    if (wh__has_byte(w, '"') | wh__has_byte(w, '\\')) break;
    pos += 8;
  }
  return pos;
}

static inline bool wh__json_string(wh__json_parser *p) {
  p->pos++; /* the opening quote */
  while (p->pos < p->len) {
    /* Plain text (no quote, backslash or control character) a word at a time. */
    while (p->len - p->pos >= 8) {
      uint64_t w = wh__load64(p->s + p->pos);
      if ((((w - WH__L * 0x20) & ~w & WH__H) | wh__has_byte(w, '"') | wh__has_byte(w, '\\'))) break;
      p->pos += 8;
    }
    if (p->pos >= p->len) break;
    uint8_t c = p->s[p->pos++];
    if (c == '"') return true;
    if (c < 0x20) return wh__json_fail(p, "a control character inside a string");
    if (c != '\\') continue;
    if (p->pos >= p->len) break;
    c = p->s[p->pos++];
    if (c == 'u') {
      for (int i = 0; i < 4; i++)
        if (p->pos >= p->len || !wh__json_hex(p->s[p->pos++])) return wh__json_fail(p, "a bad \\u escape");
    } else if (!(c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't')) {
      return wh__json_fail(p, "a bad escape");
    }
  }
  return wh__json_fail(p, "an unterminated string");
}

static inline bool wh__json_number(wh__json_parser *p) {
  if (p->s[p->pos] == '-') p->pos++;
  if (p->pos >= p->len || !wh__json_digit(p->s[p->pos])) return wh__json_fail(p, "a bad number");
  if (p->s[p->pos] == '0') p->pos++;
  else while (p->pos < p->len && wh__json_digit(p->s[p->pos])) p->pos++;
  if (p->pos < p->len && p->s[p->pos] == '.') {
    p->pos++;
    if (p->pos >= p->len || !wh__json_digit(p->s[p->pos])) return wh__json_fail(p, "a bad number");
    while (p->pos < p->len && wh__json_digit(p->s[p->pos])) p->pos++;
  }
  if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
    p->pos++;
    if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-')) p->pos++;
    if (p->pos >= p->len || !wh__json_digit(p->s[p->pos])) return wh__json_fail(p, "a bad number");
    while (p->pos < p->len && wh__json_digit(p->s[p->pos])) p->pos++;
  }
  return true;
}

static inline bool wh__json_word(wh__json_parser *p, const char *word) {
  wh_str w = wh_cstr(word);
  if (p->len - p->pos < w.len || !wh__mem_eq(p->s + p->pos, w.ptr, w.len)) return wh__json_fail(p, "an unexpected character");
  p->pos += w.len;
  return true;
}

static inline bool wh__json_value(wh__json_parser *p, int depth) {
  wh__json_space(p);
  if (p->pos >= p->len) return wh__json_fail(p, "unexpected end of input");
  uint8_t c = p->s[p->pos];
  if (c == '"') return wh__json_string(p);
  if (c == 't') return wh__json_word(p, "true");
  if (c == 'f') return wh__json_word(p, "false");
  if (c == 'n') return wh__json_word(p, "null");
  if (c == '-' || wh__json_digit(c)) return wh__json_number(p);
  if (c != '{' && c != '[') return wh__json_fail(p, "an unexpected character");
  if (depth >= WH_JSON_MAX_DEPTH) return wh__json_fail(p, "nesting deeper than 64");
  uint8_t close = c == '{' ? '}' : ']';
  p->pos++;
  wh__json_space(p);
  if (p->pos < p->len && p->s[p->pos] == close) {
    p->pos++;
    return true;
  }
  for (;;) {
    if (close == '}') {
      wh__json_space(p);
      if (p->pos >= p->len || p->s[p->pos] != '"') return wh__json_fail(p, "an object key that is not a string");
      if (!wh__json_string(p)) return false;
      wh__json_space(p);
      if (p->pos >= p->len || p->s[p->pos++] != ':') return wh__json_fail(p, "a missing ':'");
    }
    if (!wh__json_value(p, depth + 1)) return false;
    wh__json_space(p);
    if (p->pos >= p->len) return wh__json_fail(p, "unexpected end of input");
    uint8_t next = p->s[p->pos++];
    if (next == close) return true;
    if (next != ',') return wh__json_fail(p, "a missing ','");
  }
}

/** Checks that `text` is one JSON value; on success *out is it (trimmed), else *error says why. */
static inline bool wh_json_parse(wh_str text, wh_json *out, const char **error) {
  wh__json_parser p = {text.ptr, 0, text.len, 0};
  wh__json_space(&p);
  uint32_t start = p.pos;
  bool ok = wh__json_value(&p, 0);
  uint32_t end = p.pos;
  wh__json_space(&p);
  if (ok && p.pos != p.len) ok = wh__json_fail(&p, "text after the value");
  if (!ok) {
    if (error) *error = p.error;
    return false;
  }
  out->text = wh_str_slice(text, start, end);
  return true;
}

#endif /* WASMHOOKS_JSON_CHECK_H */
