// Shared by the sandbox scenario files: the hostile WAT fixtures assembled
// with wabt (the same on Node, Deno and Bun), and small byte helpers.
import { readFile } from 'node:fs/promises';
import wabtInit from 'wabt';

export const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';

let wabt: ReturnType<typeof wabtInit> | undefined;

/** test/fixtures/hostile/<name>.wat as wasm bytes; `edit` may rewrite the source first. */
export async function hostile(name: string, edit?: (source: string) => string): Promise<Uint8Array> {
  const source = await readFile(new URL(`../fixtures/hostile/${name}.wat`, import.meta.url), 'utf8');
  const mod = (await (wabt ??= wabtInit())).parseWat(`${name}.wat`, edit ? edit(source) : source, { exceptions: true });
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

export const text = (s: string): Uint8Array => new TextEncoder().encode(s);
export const str = (b: Uint8Array): string => new TextDecoder().decode(b);

/** Occurrences of `i64.const <value>` written as a padded 5-byte LEB128 (how checks carry their cost). */
export function paddedConsts(bytes: Uint8Array, value: number): number {
  const p = [0x42, ...[0, 1, 2, 3].map((i) => ((value >>> (7 * i)) & 0x7f) | 0x80), Math.floor(value / 2 ** 28) & 0x3f];
  let count = 0;
  outer: for (let i = 0; i + p.length <= bytes.length; i++) {
    for (let j = 0; j < p.length; j++) if (bytes[i + j] !== p[j]) continue outer;
    count++;
  }
  return count;
}

/** A property whose first read answers `first` and every later read `then` (options read twice show it). */
export const flip = <T, U>(first: T, then: U): PropertyDescriptor => {
  let reads = 0;
  return { get: () => (reads++ === 0 ? first : then), enumerable: true, configurable: true };
};

/** The offset of the last occurrence of `pattern` in `bytes` (throws when there is none). */
export const lastOffsetOf = (bytes: Uint8Array, pattern: number[]): number => {
  outer: for (let i = bytes.length - pattern.length; i >= 0; i--) {
    for (let j = 0; j < pattern.length; j++) if (bytes[i + j] !== pattern[j]) continue outer;
    return i;
  }
  throw new Error('pattern not found');
};

/** One protobuf field: a varint (number) or length-delimited bytes (string or bytes). */
export function field(no: number, value: number | string | Uint8Array): number[] {
  const varint = (n: number) => {
    const out: number[] = [];
    for (; n > 0x7f; n >>>= 7) out.push((n & 0x7f) | 0x80);
    return [...out, n];
  };
  if (typeof value === 'number') return [no << 3, ...varint(value)];
  const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
  return [(no << 3) | 2, ...varint(bytes.length), ...bytes];
}
