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
