/** LEB128 reading for the hot path: no allocation, no exceptions (callers bound-check `p` afterwards). */

/** End offset of the last `readLeb`, to avoid allocating a pair. */
export let lebEnd = 0;

/** Unsigned LEB128 at `p` (u32 range); sets `lebEnd`. Past the buffer's end, reads stop at `undefined`. */
export function readLeb(buf: Uint8Array, p: number): number {
  let v = 0;
  let mul = 1;
  for (let i = 0; i < 5; i++) {
    const b = buf[p++] ?? 0;
    v += (b & 0x7f) * mul;
    if ((b & 0x80) === 0) break;
    mul *= 128;
  }
  lebEnd = p;
  return v;
}

/** Skips one LEB128 starting at `p`, stopping at `end`; returns the position after it. */
export function skip(buf: Uint8Array, p: number, end: number): number {
  while (buf[p++]! & 0x80 && p < end);
  return p;
}

