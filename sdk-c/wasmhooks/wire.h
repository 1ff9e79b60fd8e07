/*
 * wire.h: the protobuf wire primitives the generated codec (hooks.pb.h) is
 * built on: a bounded reader that fails with a message instead of trapping,
 * and size/put helpers for canonical encoding. Freestanding: no libc.
 */
#ifndef WASMHOOKS_WIRE_H
#define WASMHOOKS_WIRE_H

#include "text.h"

/* ---- protobuf wire --------------------------------------------------------- */

enum { WH_WIRE_VARINT = 0, WH_WIRE_I64 = 1, WH_WIRE_LEN = 2, WH_WIRE_I32 = 5 };

/** Why decoding stopped: the first error wins; its message ends "at byte N" (an offset in the whole input). */
typedef struct wh_wire_error {
  bool failed;
  wh_str message;
} wh_wire_error;

/** Reads `buf[pos..end)`; nested readers share their parent's error. */
typedef struct wh_reader {
  const uint8_t *buf;
  uint32_t pos, end;
  wh_wire_error *error;
} wh_reader;

static inline wh_reader wh_reader_of(const uint8_t *buf, uint32_t len, wh_wire_error *error) {
  error->failed = false;
  error->message = (wh_str){0, 0};
  return (wh_reader){buf, 0, len, error};
}

/** Records `b` + " at byte <pos>" as the error (the first one wins); returns false. */
static inline bool wh__fail_buf(wh_reader *r, wh_buf *b) {
  if (r->error->failed) return false;
  wh_buf_cstr(b, " at byte ");
  wh_buf_int(b, r->pos);
  r->error->failed = true;
  r->error->message = wh_buf_view(b);
  return false;
}

static inline bool wh__fail(wh_reader *r, const char *what) {
  wh_buf b = {0};
  wh_buf_cstr(&b, what);
  return wh__fail_buf(r, &b);
}

static inline bool wh__read_varint(wh_reader *r, uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (r->pos >= r->end) return wh__fail(r, "truncated varint");
    uint8_t byte = r->buf[r->pos++];
    if (shift < 64) v |= (uint64_t)(byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      *out = v;
      return true;
    }
  }
  return wh__fail(r, "varint longer than 10 bytes");
}

/** A length-delimited field's bounds, checked against the end of the enclosing message. */
static inline bool wh__read_len(wh_reader *r, uint32_t *len) {
  uint64_t n;
  if (!wh__read_varint(r, &n)) return false;
  if (n > r->end - r->pos) {
    wh_buf b = {0};
    wh_buf_cstr(&b, "length ");
    wh_buf_int(&b, (int64_t)n);
    wh_buf_cstr(&b, " runs past the end of the message");
    return wh__fail_buf(r, &b);
  }
  *len = (uint32_t)n;
  return true;
}

static inline bool wh__sub(wh_reader *r, wh_reader *sub) {
  uint32_t len;
  if (!wh__read_len(r, &len)) return false;
  *sub = (wh_reader){r->buf, r->pos, r->pos + len, r->error};
  r->pos += len;
  return true;
}

/**
 * Whether `len` bytes at `p` are well-formed UTF-8 (Unicode table 3-7: no overlong forms, no
 * surrogates, nothing past U+10FFFF, no cut sequence). proto3 string fields must be; protobufjs
 * (the host) refuses others, and a guard reading C0 AF as "/" would see another path.
 */
static inline bool wh__utf8_valid(const uint8_t *p, uint32_t len) {
  uint32_t i = 0;
  while (i < len) {
    // Eight ASCII bytes per step (most text is): a byte loop made this check cost plugins ~45% more
    // fuel on a 1 MB ASCII input than the rest of their decode and work together (rv16).
    while (len - i >= 8) {
      uint64_t w;
      __builtin_memcpy(&w, p + i, 8);
      if (w & 0x8080808080808080ull) break;
      i += 8;
    }
    if (i == len) break;
    if (p[i] < 0x80) { i++; continue; }
    // A run of other characters, each checked by the value it decodes to (its top bits suffice):
    // in its length's range (no overlong form), no surrogate, at most U+10FFFF; and 10xxxxxx
    // continuation bytes. Lead bytes 80-C1 and F5-FF are never valid.
    do {
      uint32_t c = p[i], left = len - i;
      if (left >= 4) {
        // One load for the whole sequence; w's low byte is the lead.
        uint32_t w;
        __builtin_memcpy(&w, p + i, 4);
        if (c < 0xE0) {
          if (c < 0xC2 || (w & 0xC000) != 0x8000) return false;
          i += 2;
        } else if (c < 0xF0) {
          uint32_t top = (c & 15) << 12 | (w >> 2 & 0xFC0);
          if ((w & 0xC0C000) != 0x808000 || top < 0x800 || (top & 0xF800) == 0xD800) return false;
          i += 3;
        } else {
          uint32_t top = (c & 7) << 18 | (w << 4 & 0x3F000);
          if (c > 0xF4 || (w & 0xC0C0C000) != 0x80808000 || top - 0x10000 > 0xFFFFF) return false;
          i += 4;
        }
      } else if (c < 0xE0) {
        if (c < 0xC2 || left < 2 || (p[i + 1] & 0xC0) != 0x80) return false;
        i += 2;
      } else if (c < 0xF0) {
        if (left < 3 || ((p[i + 1] & 0xC0) | (p[i + 2] & 0xC0) << 8) != 0x8080) return false;
        uint32_t top = (c & 15) << 12 | (p[i + 1] & 63) << 6;
        if (top < 0x800 || (top & 0xF800) == 0xD800) return false;
        i += 3;
      } else {
        return false; /* a four-byte lead with fewer than four bytes left, or not a lead */
      }
    } while (i < len && p[i] >= 0x80);
  }
  return true;
}

/** A string field, pointing into the input (no copy). */
static inline bool wh__read_str(wh_reader *r, wh_str *out) {
  uint32_t len;
  if (!wh__read_len(r, &len)) return false;
  if (!wh__utf8_valid(r->buf + r->pos, len)) return wh__fail(r, "string field is not valid UTF-8");
  *out = (wh_str){r->buf + r->pos, len};
  r->pos += len;
  return true;
}

static inline bool wh__skip(wh_reader *r, uint32_t wt) {
  uint64_t ignored;
  uint32_t len, width;
  switch (wt) {
    case WH_WIRE_VARINT: return wh__read_varint(r, &ignored);
    case WH_WIRE_LEN:
      if (!wh__read_len(r, &len)) return false;
      r->pos += len;
      return true;
    case WH_WIRE_I64: width = 8; break;
    case WH_WIRE_I32: width = 4; break;
    default: {
      wh_buf b = {0};
      wh_buf_cstr(&b, "unsupported wire type ");
      wh_buf_int(&b, wt);
      return wh__fail_buf(r, &b);
    }
  }
  if (r->end - r->pos < width) return wh__fail(r, "truncated field");
  r->pos += width;
  return true;
}

/** Appends one element to an arena array whose capacity is the next power of two of its count. */
static inline void *wh__push(void **items, uint32_t *count, uint32_t size) {
  uint32_t n = *count;
  if ((n & (n - 1)) == 0) {
    uint64_t bytes = (uint64_t)(n ? n * 2ull : 1ull) * size;
    if (bytes > UINT32_MAX) __builtin_trap();
    uint8_t *grown = (uint8_t *)wh_alloc((uint32_t)bytes);
    if (n) __builtin_memcpy(grown, *items, n * size);
    *items = grown;
  }
  uint8_t *slot = (uint8_t *)*items + n * size;
  __builtin_memset(slot, 0, size);
  *count = n + 1;
  return slot;
}

static inline uint32_t wh__varint_size(uint64_t v) {
  uint32_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    n++;
  }
  return n;
}
static inline uint32_t wh__tag_size(uint32_t field) { return wh__varint_size((uint64_t)field << 3); }
static inline uint8_t *wh__put_varint(uint8_t *p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  *p++ = (uint8_t)v;
  return p;
}
static inline uint8_t *wh__put_tag(uint8_t *p, uint32_t field, uint32_t wt) { return wh__put_varint(p, ((uint64_t)field << 3) | wt); }
static inline uint8_t *wh__put_str(uint8_t *p, uint32_t field, wh_str s) {
  p = wh__put_tag(p, field, WH_WIRE_LEN);
  p = wh__put_varint(p, s.len);
  if (s.len) __builtin_memcpy(p, s.ptr, s.len);
  return p + s.len;
}

#endif /* WASMHOOKS_WIRE_H */
