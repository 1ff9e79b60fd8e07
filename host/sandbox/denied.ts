/**
 * Extism host functions the sandbox never grants (network: no grant exists
 * yet), rerouted in the bytes to a namespace of our own before compiling.
 * Providing them under Extism's namespace is not enough: where the runtime
 * has JSPI (Deno, Bun) Extism swaps in its own suspending `http_request`,
 * which fails differently per runtime and lets the call suspend. Rerouted,
 * every runtime calls our refusal, which is one TRAP with one message.
 */
import { importDesc } from './imports.js';
import { Reader } from './instrument/reader.js';

const EXTISM_ENV = 'extism:host/env';
/** Same length as `extism:host/env`, so the bytes are patched in place. */
export const DENIED_MODULE = 'wasmhooks:nonet';
export const NETWORK_IMPORTS: readonly string[] = ['http_request', 'http_status_code', 'http_headers'];

const IMPORT_SECTION = 2;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A copy of `wasm` whose network imports name `DENIED_MODULE`, or `wasm` itself when it has none. */
export function rerouteDenied(wasm: Uint8Array): Uint8Array {
  let offsets: number[];
  try {
    offsets = deniedImports(wasm);
  } catch {
    return wasm; // malformed: the instrumenter says why, with offsets
  }
  if (offsets.length === 0) return wasm;
  const patched = wasm.slice();
  const name = encoder.encode(DENIED_MODULE);
  for (const at of offsets) patched.set(name, at);
  return patched;
}

/** Offsets of the module-name bytes of every network import. */
function deniedImports(wasm: Uint8Array): number[] {
  const r = new Reader(wasm, 8, wasm.byteLength);
  const found: number[] = [];
  while (!r.eof()) {
    const id = r.u8();
    const size = r.u32();
    const end = r.pos + size;
    if (id !== IMPORT_SECTION) {
      r.skip(size);
      continue;
    }
    for (let count = r.u32(); count > 0; count--) {
      const moduleAt = r.pos;
      const module = name(r);
      const field = name(r);
      if (module === EXTISM_ENV && NETWORK_IMPORTS.includes(field)) found.push(moduleAt + leb(wasm, moduleAt));
      importDesc(r, r.u8());
    }
    if (r.pos !== end) r.fail('import section size mismatch');
    break;
  }
  return found;
}

function name(r: Reader): string {
  const length = r.u32();
  const start = r.pos;
  r.skip(length);
  return decoder.decode(r.buf.subarray(start, start + length));
}

/** Length of the LEB128 at `at`. */
function leb(buf: Uint8Array, at: number): number {
  let n = 1;
  while (buf[at + n - 1]! & 0x80) n++;
  return n;
}
