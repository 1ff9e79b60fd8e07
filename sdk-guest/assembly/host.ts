// The Extism ABI as the SDK uses it: input, output, errors, progress, logs.

import { Host, LogLevel, Memory } from "@extism/as-pdk";
import { error_set } from "@extism/as-pdk/lib/env";

/** The bytes the host passed to the current call. */
export function readInput(): Uint8Array {
  return Host.input();
}

export function writeOutput(bytes: Uint8Array): void {
  Host.output(bytes);
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
