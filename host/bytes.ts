/**
 * Joins byte chunks into one new array of `total` bytes (by default, their
 * whole length); chunks past `total` are cut. One helper for the worker
 * channel's parts, WASI's iovecs and the SSE hub's queue.
 */
export function concatBytes(parts: readonly Uint8Array[], total = byteLength(parts)): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    if (at >= total) break;
    out.set(part.length <= total - at ? part : part.subarray(0, total - at), at);
    at += part.length;
  }
  return out;
}

function byteLength(parts: readonly Uint8Array[]): number {
  let n = 0;
  for (const part of parts) n += part.length;
  return n;
}
