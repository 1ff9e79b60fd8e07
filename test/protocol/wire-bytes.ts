// Byte builders and a seeded generator shared by the differential tests of the
// hand-written protocol readers (hook-response, plugin-info) against protobufjs.

/** mulberry32: the same numbers in [0, 1) on every run. */
export function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A protobuf varint of a non-negative integer (up to 2^53). */
export function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 127) {
    out.push((n % 128) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

export const cat = (...parts: (Uint8Array | number[])[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));
export const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];
/** A length-delimited field: tag, then a length and the bytes. */
export const ld = (field: number, body: number[]): number[] => [(field << 3) | 2, ...varint(body.length), ...body];

/** Calls `visit` on `bytes`, each of its truncations and each single-byte corruption (a few fixed values and one random). */
export function eachVariant(bytes: Uint8Array, rnd: () => number, visit: (b: Uint8Array) => void): void {
  visit(bytes);
  for (let n = 0; n < bytes.length; n++) visit(bytes.subarray(0, n));
  for (let i = 0; i < bytes.length; i++) {
    for (const v of [0x00, 0x07, 0x7f, 0x80, 0xff, Math.floor(rnd() * 256)]) {
      const copy = bytes.slice();
      copy[i] = v;
      visit(copy);
    }
  }
}
