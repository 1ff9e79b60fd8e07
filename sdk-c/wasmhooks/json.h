/*
 * json.h: reading the JSON a plugin receives (tool input, tool output) without
 * building a tree. A wh_json is the text of one value; lookups scan it. The
 * whole text is validated once (wh_json_parse, linear time, nesting capped),
 * so every later scan can assume well-formed input.
 */
#ifndef WASMHOOKS_JSON_H
#define WASMHOOKS_JSON_H

#include "json-check.h"

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
