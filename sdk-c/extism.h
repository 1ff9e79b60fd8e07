/*
 * extism.h: the Extism plugin ABI for freestanding C (clang --target=wasm32,
 * no libc). Header-only, no dependencies beyond the compiler's own
 * <stdint.h>/<stddef.h>/<stdbool.h>.
 *
 * Extism keeps a plugin's input, output, vars and allocated blocks in host
 * memory, outside the module's linear memory: a plugin names a block by a
 * 64-bit handle (an "offset") and copies bytes in and out through imports of
 * the module "extism:host/env". This file declares those imports and a few
 * helpers that copy whole buffers. wasmhooks.h builds the hook protocol on it;
 * a plain Extism plugin (no protocol) can use this file alone.
 *
 * Build flags (see docs/abi.md):
 *   clang --target=wasm32 -nostdlib -ffreestanding -mbulk-memory -O2 \
 *         -Wl,--no-entry -o plugin.wasm plugin.c
 * -mbulk-memory turns the compiler's memcpy/memset into the wasm instructions
 * memory.copy/memory.fill, so no libc is needed.
 */
#ifndef WASMHOOKS_EXTISM_H
#define WASMHOOKS_EXTISM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXTISM_IMPORT(name) __attribute__((import_module("extism:host/env"), import_name(#name)))
/** Marks a function as a plugin export, callable by the host under `name`. */
#define EXTISM_EXPORT(name) __attribute__((export_name(#name)))

/** A block of host memory (0 means none). */
typedef uint64_t ExtismHandle;

EXTISM_IMPORT(input_length) extern uint64_t extism_input_length(void);
EXTISM_IMPORT(input_load_u8) extern uint8_t extism_input_load_u8(uint64_t at);
EXTISM_IMPORT(input_load_u64) extern uint64_t extism_input_load_u64(uint64_t at);
EXTISM_IMPORT(alloc) extern ExtismHandle extism_alloc(uint64_t length);
EXTISM_IMPORT(free) extern void extism_free(ExtismHandle block);
EXTISM_IMPORT(length) extern uint64_t extism_length(ExtismHandle block);
EXTISM_IMPORT(load_u8) extern uint8_t extism_load_u8(uint64_t at);
EXTISM_IMPORT(load_u64) extern uint64_t extism_load_u64(uint64_t at);
EXTISM_IMPORT(store_u8) extern void extism_store_u8(uint64_t at, uint8_t value);
EXTISM_IMPORT(store_u64) extern void extism_store_u64(uint64_t at, uint64_t value);
EXTISM_IMPORT(output_set) extern void extism_output_set(ExtismHandle block, uint64_t length);
EXTISM_IMPORT(error_set) extern void extism_error_set(ExtismHandle message);
EXTISM_IMPORT(config_get) extern ExtismHandle extism_config_get(ExtismHandle key);
EXTISM_IMPORT(var_get) extern ExtismHandle extism_var_get(ExtismHandle key);
EXTISM_IMPORT(var_set) extern void extism_var_set(ExtismHandle key, ExtismHandle value);
EXTISM_IMPORT(log_info) extern void extism_log_info(ExtismHandle message);
EXTISM_IMPORT(log_debug) extern void extism_log_debug(ExtismHandle message);
EXTISM_IMPORT(log_warn) extern void extism_log_warn(ExtismHandle message);
EXTISM_IMPORT(log_error) extern void extism_log_error(ExtismHandle message);

/* Copies are 8 bytes per host call, then byte by byte for the tail: each host
 * call is metered, so whole words keep a plugin's cost close to its work. */

/** Copies `length` bytes of the call's input, from `from`, into `dst`. */
static inline void extism_input_read(uint8_t *dst, uint64_t from, uint64_t length) {
  uint64_t i = 0;
  for (; i + 8 <= length; i += 8) {
    uint64_t word = extism_input_load_u64(from + i);
    __builtin_memcpy(dst + i, &word, 8);
  }
  for (; i < length; i++) dst[i] = extism_input_load_u8(from + i);
}

/** Copies `length` bytes of host block `block` into `dst`. */
static inline void extism_block_read(ExtismHandle block, uint8_t *dst, uint64_t length) {
  uint64_t i = 0;
  for (; i + 8 <= length; i += 8) {
    uint64_t word = extism_load_u64(block + i);
    __builtin_memcpy(dst + i, &word, 8);
  }
  for (; i < length; i++) dst[i] = extism_load_u8(block + i);
}

/** Copies `length` bytes from `src` into host block `block`. */
static inline void extism_block_write(ExtismHandle block, const uint8_t *src, uint64_t length) {
  uint64_t i = 0;
  for (; i + 8 <= length; i += 8) {
    uint64_t word;
    __builtin_memcpy(&word, src + i, 8);
    extism_store_u64(block + i, word);
  }
  for (; i < length; i++) extism_store_u8(block + i, src[i]);
}

/** A new host block holding a copy of `src` (0 when the host refuses the allocation). */
static inline ExtismHandle extism_block_from(const void *src, uint64_t length) {
  ExtismHandle block = extism_alloc(length);
  if (block != 0) extism_block_write(block, (const uint8_t *)src, length);
  return block;
}

static inline uint64_t extism_cstr_length(const char *s) {
  uint64_t n = 0;
  while (s[n]) n++;
  return n;
}

/** A new host block holding a NUL-terminated string (without the NUL). */
static inline ExtismHandle extism_block_cstr(const char *s) {
  return extism_block_from(s, extism_cstr_length(s));
}

/** Sets the call's output to a copy of `src`. */
static inline void extism_output(const void *src, uint64_t length) {
  ExtismHandle block = extism_block_from(src, length);
  extism_output_set(block, length);
}

/** Sets the call's error message; the export should then return non-zero. */
static inline void extism_error(const char *message) {
  extism_error_set(extism_block_cstr(message));
}

#endif /* WASMHOOKS_EXTISM_H */
