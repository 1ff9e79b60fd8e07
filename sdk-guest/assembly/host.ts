// The Extism ABI as the SDK uses it: input, output, errors, progress, logs.

import { Host, LogLevel, Memory } from "@extism/as-pdk";
import { alloc, error_set, input_length, input_load_u64, input_load_u8, output_set, store_u64, store_u8 } from "@extism/as-pdk/lib/env";

// Input and output cross the ABI eight bytes per host call; these loops do
// only that (as-pdk's own add a typed-array store and bounds checks per word).

/** The bytes the host passed to the current call. */
export function readInput(): Uint8Array {
  const n = input_length();
  const bytes = new Uint8Array(<i32>n);
  const dst = bytes.dataStart;
  const words = n & ~7;
  let i: u64 = 0;
  for (; i < words; i += 8) store<u64>(dst + <usize>i, input_load_u64(i));
  for (; i < n; i++) store<u8>(dst + <usize>i, input_load_u8(i));
  return bytes;
}

export function writeOutput(bytes: Uint8Array): void {
  const n = <u64>bytes.length;
  const offset = alloc(n);
  const src = bytes.dataStart;
  const words = n & ~7;
  let i: u64 = 0;
  for (; i < words; i += 8) store_u64(offset + i, load<u64>(src + <usize>i));
  for (; i < n; i++) store_u8(offset + i, load<u8>(src + <usize>i));
  output_set(offset, n);
}

/**
 * Fails the current call with `message`; the host sees "Plugin-originated error: <message>".
 * Returns the non-zero code the export should return.
 */
export function failCall(message: string): i32 {
  const mem = Memory.allocateString(message);
  error_set(mem.offset);
  return 1;
}

@external("wasmhooks:host", "progress")
declare function host_progress(offset: u64): void;

/**
 * Reports progress from inside a tool; the host turns it into a `tool.progress` event.
 * Text or JSON, UTF-8. Example: `progress('{"done":3,"total":10}')`.
 */
export function progress(message: string): void {
  const mem = Memory.allocateString(message);
  host_progress(mem.offset);
  mem.free();
}

/** Writes a line to the host's plugin log. */
export function log(message: string): void {
  Host.log(LogLevel.Info, message);
}
