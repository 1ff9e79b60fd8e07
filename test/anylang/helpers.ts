// Test plugins in other languages: the C + wasi-libc guard (built by
// scripts/build-wasi-fixtures.mjs) and an Extism AssemblyScript PDK plugin.
import { readFile } from 'node:fs/promises';

async function bytes(url: URL, how: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(url));
  } catch (error) {
    throw new Error(`${url.pathname} is missing: ${how} (${String(error)})`);
  }
}

export const wasiGuard = () =>
  bytes(new URL('../fixtures/wasi/build/guard.wasm', import.meta.url), 'run npm run build:fixtures (needs clang, lld, wasi-libc)');
export const extismVowels = () =>
  bytes(new URL('../fixtures/extism-vowels/build/extism-vowels.wasm', import.meta.url), 'run npm run build:plugins');

export const text = (s: string) => new TextEncoder().encode(s);
export const str = (b: Uint8Array) => new TextDecoder().decode(b);
