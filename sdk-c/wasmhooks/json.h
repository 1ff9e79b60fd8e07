/*
 * json.h: reading the JSON a plugin receives (tool input, tool output) without
 * building a tree. A wh_json is the text of one value; lookups scan it. The
 * whole text is validated once (wh_json_parse, linear time, nesting capped),
 * so every later scan can assume well-formed input.
 */
#ifndef WASMHOOKS_JSON_H
#define WASMHOOKS_JSON_H

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

/* Scans below assume validated text. */

static inline uint32_t wh__json_skip(const uint8_t *s, uint32_t pos, uint32_t len) {
  int depth = 0;
  while (pos < len) {
    uint8_t c = s[pos++];
    if (c == '"') {
      for (;;) {
        pos = wh__json_quiet(s, pos, len);
        if (pos >= len || s[pos] == '"') break;
        pos += s[pos] == '\\' ? 2 : 1;
      }
      pos++;
    } else if (c == '{' || c == '[') {
      depth++;
    } else if (c == '}' || c == ']') {
      depth--;
    }
    if (depth == 0) {
      /* a scalar ends before the next delimiter */
      if (c != '"' && c != '}' && c != ']')
        while (pos < len && s[pos] != ',' && s[pos] != '}' && s[pos] != ']' && s[pos] != ' ' && s[pos] != '\n' && s[pos] != '\t' && s[pos] != '\r') pos++;
      return pos;
    }
  }
  return pos;
}

static inline uint32_t wh__json_ws(const uint8_t *s, uint32_t pos, uint32_t len) {
  while (pos < len && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\n' || s[pos] == '\r')) pos++;
  return pos;
}

static inline bool wh_json_present(wh_json v) { return v.text.ptr != 0; }
static inline char wh__json_first(wh_json v) { return v.text.len ? (char)v.text.ptr[0] : 0; }
static inline bool wh_json_is_object(wh_json v) { return wh__json_first(v) == '{'; }
static inline bool wh_json_is_array(wh_json v) { return wh__json_first(v) == '['; }
static inline bool wh_json_is_string(wh_json v) { return wh__json_first(v) == '"'; }
static inline bool wh_json_is_null(wh_json v) { return wh__json_first(v) == 'n'; }
static inline bool wh_json_is_true(wh_json v) { return wh__json_first(v) == 't'; }
static inline bool wh_json_is_number(wh_json v) { char c = wh__json_first(v); return c == '-' || (c >= '0' && c <= '9'); }

/**
 * A string value's text, escapes decoded (in the arena when it had any); empty when not a string.
 * Meant for validated values; on text that is not, it stays inside the value's bytes.
 */
static inline wh_str wh_json_string(wh_json v) {
  if (!wh_json_is_string(v) || v.text.len < 2) return (wh_str){0, 0};
  wh_str raw = wh_str_slice(v.text, 1, v.text.len - 1);
  uint32_t i = 0;
  while (i < raw.len && raw.ptr[i] != '\\') i++;
  if (i == raw.len) return raw;
  wh_buf b = {0};
  wh_buf_reserve(&b, raw.len);
  for (i = 0; i < raw.len; i++) {
    uint8_t c = raw.ptr[i];
    if (c != '\\') {
      wh_buf_byte(&b, c);
      continue;
    }
    if (i + 1 >= raw.len) break;
    c = raw.ptr[++i];
    if (c == 'u' && i + 4 >= raw.len) break;
    switch (c) {
      case 'b': wh_buf_byte(&b, '\b'); break;
      case 'f': wh_buf_byte(&b, '\f'); break;
      case 'n': wh_buf_byte(&b, '\n'); break;
      case 'r': wh_buf_byte(&b, '\r'); break;
      case 't': wh_buf_byte(&b, '\t'); break;
      case 'u': {
        uint32_t cp = 0;
        for (int k = 0; k < 4; k++) {
          uint8_t h = raw.ptr[++i];
          cp = cp * 16 + (uint32_t)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
        }
        /* A high surrogate followed by a low one is one code point; a lone surrogate becomes U+FFFD. */
        if (cp >= 0xd800 && cp < 0xdc00 && i + 6 < raw.len && raw.ptr[i + 1] == '\\' && raw.ptr[i + 2] == 'u') {
          uint32_t lo = 0;
          for (int k = 0; k < 4; k++) {
            uint8_t h = raw.ptr[i + 3 + k];
            lo = lo * 16 + (uint32_t)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
          }
          if (lo >= 0xdc00 && lo < 0xe000) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            i += 6;
          }
        }
        if (cp >= 0xd800 && cp < 0xe000) cp = 0xfffd;
        if (cp < 0x80) {
          wh_buf_byte(&b, (uint8_t)cp);
        } else if (cp < 0x800) {
          wh_buf_byte(&b, (uint8_t)(0xc0 | (cp >> 6)));
          wh_buf_byte(&b, (uint8_t)(0x80 | (cp & 0x3f)));
        } else if (cp < 0x10000) {
          wh_buf_byte(&b, (uint8_t)(0xe0 | (cp >> 12)));
          wh_buf_byte(&b, (uint8_t)(0x80 | ((cp >> 6) & 0x3f)));
          wh_buf_byte(&b, (uint8_t)(0x80 | (cp & 0x3f)));
        } else {
          wh_buf_byte(&b, (uint8_t)(0xf0 | (cp >> 18)));
          wh_buf_byte(&b, (uint8_t)(0x80 | ((cp >> 12) & 0x3f)));
          wh_buf_byte(&b, (uint8_t)(0x80 | ((cp >> 6) & 0x3f)));
          wh_buf_byte(&b, (uint8_t)(0x80 | (cp & 0x3f)));
        }
        break;
      }
      default: wh_buf_byte(&b, c); /* " \ / */
    }
  }
  return wh_buf_view(&b);
}

/** The value of `key` in an object (the last one when repeated, as JSON.parse does); absent otherwise. */
static inline wh_json wh_json_get(wh_json obj, const char *key) {
  wh_json found = {{0, 0}};
  if (!wh_json_is_object(obj)) return found;
  const uint8_t *s = obj.text.ptr;
  uint32_t len = obj.text.len, pos = wh__json_ws(s, 1, len);
  wh_str want = wh_cstr(key);
  while (pos < len && s[pos] == '"') {
    uint32_t key_end = wh__json_skip(s, pos, len);
    wh_json k = {{s + pos, key_end - pos}};
    pos = wh__json_ws(s, key_end, len) + 1; /* past ':' */
    pos = wh__json_ws(s, pos, len);
    uint32_t value_end = wh__json_skip(s, pos, len);
    if (wh_str_eq(wh_json_string(k), want)) found.text = (wh_str){s + pos, value_end - pos};
    pos = wh__json_ws(s, value_end, len);
    if (pos < len && s[pos] == ',') pos = wh__json_ws(s, pos + 1, len);
  }
  return found;
}

/** The elements of an array, in order: `for (wh_json it = wh_json_first(a); wh_json_present(it); it = wh_json_next(a, it))`. */
static inline wh_json wh_json_next(wh_json array, wh_json after) {
  wh_json none = {{0, 0}};
  if (!wh_json_is_array(array)) return none;
  const uint8_t *s = array.text.ptr;
  uint32_t len = array.text.len;
  uint32_t pos = after.text.ptr ? (uint32_t)(after.text.ptr - s) + after.text.len : 1;
  pos = wh__json_ws(s, pos, len);
  if (after.text.ptr) {
    if (pos >= len || s[pos] != ',') return none;
    pos = wh__json_ws(s, pos + 1, len);
  }
  if (pos >= len || s[pos] == ']') return none;
  uint32_t end = wh__json_skip(s, pos, len);
  return (wh_json){{s + pos, end - pos}};
}
static inline wh_json wh_json_first(wh_json array) { return wh_json_next(array, (wh_json){{0, 0}}); }

/** The string at `key`, or empty when absent or not a string. */
static inline wh_str wh_json_get_string(wh_json obj, const char *key) { return wh_json_string(wh_json_get(obj, key)); }

/** The integer at `key` (a JSON number without fraction or exponent, in int64 range), or `fallback`. */
static inline int64_t wh_json_get_int(wh_json obj, const char *key, int64_t fallback) {
  wh_json v = wh_json_get(obj, key);
  if (!wh_json_is_number(v)) return fallback;
  bool negative = v.text.ptr[0] == '-';
  uint64_t n = 0;
  for (uint32_t i = negative; i < v.text.len; i++) {
    uint8_t c = v.text.ptr[i];
    if (!wh__json_digit(c) || n > (UINT64_MAX / 10) - 1) return fallback;
    n = n * 10 + (c - '0');
  }
  if (n > (uint64_t)INT64_MAX) return fallback;
  return negative ? -(int64_t)n : (int64_t)n;
}

/** The boolean at `key`, or `fallback` when absent or not a boolean. */
static inline bool wh_json_get_bool(wh_json obj, const char *key, bool fallback) {
  wh_json v = wh_json_get(obj, key);
  char c = wh__json_first(v);
  return c == 't' ? true : c == 'f' ? false : fallback;
}

#endif /* WASMHOOKS_JSON_H */
