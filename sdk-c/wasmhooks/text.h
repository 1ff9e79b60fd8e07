/*
 * text.h: memory and bytes for the C SDK. A per-call arena (reset at the
 * start of every export), byte strings that point into it or into the input,
 * a growable buffer, and writing JSON strings. Freestanding: no libc.
 */
#ifndef WASMHOOKS_TEXT_H
#define WASMHOOKS_TEXT_H

#include "../extism.h"

/* ---- the arena ------------------------------------------------------------
 * Everything the SDK allocates during a call lives here and is dropped when
 * the next call starts: no free(), no leaks across calls. State a plugin keeps
 * between calls must live in its own static variables, never in the arena.
 * It grows the module's memory page by page; past the host's memory cap,
 * memory.grow fails and the call traps, which the host reports as MEMORY_LIMIT. */

extern unsigned char __heap_base;
static uintptr_t wh__arena_top;

/** Drops everything allocated since the last reset (the exports call this first). */
static inline void wh_arena_reset(void) { wh__arena_top = (uintptr_t)&__heap_base; }

/** n bytes, 8-aligned, uninitialised, valid until the current call returns. */
static inline void *wh_alloc(uint32_t n) {
  if (!wh__arena_top) wh_arena_reset();
  uintptr_t at = (wh__arena_top + 7) & ~(uintptr_t)7;
  uintptr_t end = at + n;
  if (end < at) __builtin_trap();
  uintptr_t have = __builtin_wasm_memory_size(0) * 65536u;
  if (end > have) {
    uintptr_t pages = (end - have + 65535u) / 65536u;
    if (__builtin_wasm_memory_grow(0, pages) == (uintptr_t)-1) __builtin_trap();
  }
  wh__arena_top = end;
  return (void *)at;
}

static inline void *wh_alloc_zeroed(uint32_t n) {
  void *p = wh_alloc(n);
  __builtin_memset(p, 0, n);
  return p;
}

/* ---- byte strings ---------------------------------------------------------- */

/** UTF-8 (or any) bytes: a pointer and a length, not NUL-terminated. */
typedef struct wh_str {
  const uint8_t *ptr;
  uint32_t len;
} wh_str;

/** A wh_str of a C string literal or any NUL-terminated string. */
static inline wh_str wh_cstr(const char *s) { return (wh_str){(const uint8_t *)s, (uint32_t)extism_cstr_length(s)}; }
#define WH_STR(literal) ((wh_str){(const uint8_t *)(literal), (uint32_t)(sizeof(literal) - 1)})

/* memcmp has no wasm instruction (memcpy/memset do, with -mbulk-memory): compare by hand. */
static inline bool wh__mem_eq(const uint8_t *a, const uint8_t *b, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (a[i] != b[i]) return false;
  return true;
}
static inline bool wh_str_eq(wh_str a, wh_str b) { return a.len == b.len && wh__mem_eq(a.ptr, b.ptr, a.len); }
static inline bool wh_str_eq_cstr(wh_str a, const char *b) { return wh_str_eq(a, wh_cstr(b)); }
static inline bool wh_str_starts_with(wh_str s, const char *prefix) {
  wh_str p = wh_cstr(prefix);
  return s.len >= p.len && wh__mem_eq(s.ptr, p.ptr, p.len);
}
static inline bool wh_str_ends_with(wh_str s, const char *suffix) {
  wh_str p = wh_cstr(suffix);
  return s.len >= p.len && wh__mem_eq(s.ptr + s.len - p.len, p.ptr, p.len);
}
/** The first index of `needle` in `s`, or -1. Quadratic only in the needle's length. */
static inline int32_t wh_str_find(wh_str s, const char *needle) {
  wh_str n = wh_cstr(needle);
  if (n.len == 0) return 0;
  for (uint32_t i = 0; i + n.len <= s.len; i++)
    if (s.ptr[i] == n.ptr[0] && wh__mem_eq(s.ptr + i, n.ptr, n.len)) return (int32_t)i;
  return -1;
}
static inline bool wh_str_contains(wh_str s, const char *needle) { return wh_str_find(s, needle) >= 0; }
static inline wh_str wh_str_slice(wh_str s, uint32_t from, uint32_t to) {
  if (to > s.len) to = s.len;
  if (from > to) from = to;
  return (wh_str){s.ptr + from, to - from};
}
/** `s` without leading and trailing ASCII whitespace. */
static inline wh_str wh_str_trim(wh_str s) {
  uint32_t a = 0, b = s.len;
  while (a < b && (s.ptr[a] == ' ' || s.ptr[a] == '\t' || s.ptr[a] == '\n' || s.ptr[a] == '\r')) a++;
  while (b > a && (s.ptr[b - 1] == ' ' || s.ptr[b - 1] == '\t' || s.ptr[b - 1] == '\n' || s.ptr[b - 1] == '\r')) b--;
  return wh_str_slice(s, a, b);
}

/* ---- a growable buffer (in the arena) ------------------------------------- */

typedef struct wh_buf {
  uint8_t *ptr;
  uint32_t len, cap;
} wh_buf;

static inline void wh_buf_reserve(wh_buf *b, uint32_t more) {
  if (b->len + more <= b->cap) return;
  // The buffer at the arena's top grows in place; otherwise it moves.
  if (b->ptr && (uintptr_t)(b->ptr + b->cap) == wh__arena_top) {
    uint32_t extra = b->len + more - b->cap + 64;
    wh_alloc(extra);
    b->cap = (uint32_t)(wh__arena_top - (uintptr_t)b->ptr);
    return;
  }
  uint32_t cap = b->cap ? b->cap * 2 : 64;
  while (cap < b->len + more) cap *= 2;
  uint8_t *p = (uint8_t *)wh_alloc(cap);
  if (b->len) __builtin_memcpy(p, b->ptr, b->len);
  b->ptr = p;
  b->cap = cap;
}
static inline void wh_buf_bytes(wh_buf *b, const void *src, uint32_t n) {
  if (!n) return;
  wh_buf_reserve(b, n);
  __builtin_memcpy(b->ptr + b->len, src, n);
  b->len += n;
}
static inline void wh_buf_byte(wh_buf *b, uint8_t c) { wh_buf_bytes(b, &c, 1); }
static inline void wh_buf_str(wh_buf *b, wh_str s) { wh_buf_bytes(b, s.ptr, s.len); }
static inline void wh_buf_cstr(wh_buf *b, const char *s) { wh_buf_str(b, wh_cstr(s)); }
static inline void wh_buf_int(wh_buf *b, int64_t v) {
  char digits[20];
  int n = 0;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  do {
    digits[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0) wh_buf_byte(b, '-');
  while (n) wh_buf_byte(b, (uint8_t)digits[--n]);
}
/** The buffer's bytes as a string (still in the arena). */
static inline wh_str wh_buf_view(const wh_buf *b) { return (wh_str){b->ptr, b->len}; }

/* Concatenation for messages: wh_concat(3, WH_STR("a"), s, WH_STR("b")). */
static inline wh_str wh_concat(int n, ...) {
  __builtin_va_list ap;
  __builtin_va_start(ap, n);
  wh_buf b = {0};
  for (int i = 0; i < n; i++) wh_buf_str(&b, __builtin_va_arg(ap, wh_str));
  __builtin_va_end(ap);
  return wh_buf_view(&b);
}

/** Appends `s` as a JSON string literal (quotes, escapes; bytes >= 0x80 pass through as UTF-8). */
static inline void wh_json_write_string(wh_buf *b, wh_str s) {
  static const char hex[] = "0123456789abcdef";
  wh_buf_reserve(b, s.len + 2);
  wh_buf_byte(b, '"');
  for (uint32_t i = 0; i < s.len; i++) {
    uint8_t c = s.ptr[i];
    if (c == '"' || c == '\\') {
      wh_buf_byte(b, '\\');
      wh_buf_byte(b, c);
    } else if (c == '\n') {
      wh_buf_cstr(b, "\\n");
    } else if (c == '\r') {
      wh_buf_cstr(b, "\\r");
    } else if (c == '\t') {
      wh_buf_cstr(b, "\\t");
    } else if (c < 0x20) {
      uint8_t esc[6] = {'\\', 'u', '0', '0', (uint8_t)hex[c >> 4], (uint8_t)hex[c & 15]};
      wh_buf_bytes(b, esc, 6);
    } else {
      wh_buf_byte(b, c);
    }
  }
  wh_buf_byte(b, '"');
}

static inline void wh__json_key(wh_buf *b, bool *first, const char *key) {
  if (!*first) wh_buf_byte(b, ',');
  *first = false;
  wh_buf_byte(b, '"');
  wh_buf_cstr(b, key);
  wh_buf_cstr(b, "\":");
}

#endif /* WASMHOOKS_TEXT_H */
