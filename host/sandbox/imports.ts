/**
 * What a module imports (with the wasm types of function imports), read
 * from its bytes before anything compiles it, and the rewrites before
 * instrumentation: with WASI, its preview1 imports moved to a namespace
 * Extism does not treat specially; with WASI or without, its
 * `_initialize`/`_start`/`hs_init` exports renamed so that they run under
 * our meter, after we hold the instance's memory and fuel global.
 */
import { Reader } from './instrument/reader.js';
import { START_FUNCTION_EXPORT } from './instrument/additions.js';

export type ValType = 'i32' | 'i64' | 'f32' | 'f64' | 'v128' | 'ref';

export interface FunctionImport {
  module: string;
  name: string;
  params: ValType[];
  results: ValType[];
}

export const WASI_MODULE = 'wasi_snapshot_preview1';
/** Where preview1 imports are served from once redirected (see `redirectWasi`). */
export const WASI_REDIRECT = 'wasmhooks:wasi';
/** The renamed reactor and command entry points. */
export const INITIALIZE_EXPORT = '__wasmhooks_initialize';
export const START_EXPORT = '__wasmhooks_start';
export const HS_INIT_EXPORT = '__wasmhooks_hs_init';
/** Renamed exports, and the start function the instrumenter exports (deferStart), hidden from a module's export list. */
export const INTERNAL_EXPORTS: ReadonlySet<string> = new Set([INITIALIZE_EXPORT, START_EXPORT, HS_INIT_EXPORT, START_FUNCTION_EXPORT]);
const RENAMED: Record<string, string> = { _initialize: INITIALIZE_EXPORT, _start: START_EXPORT, hs_init: HS_INIT_EXPORT };

const TYPE = 1;
const IMPORT = 2;
const EXPORT = 7;

function valType(byte: number): ValType {
  switch (byte) {
    case 0x7f:
      return 'i32';
    case 0x7e:
      return 'i64';
    case 0x7d:
      return 'f32';
    case 0x7c:
      return 'f64';
    case 0x7b:
      return 'v128';
    default:
      return 'ref';
  }
}

interface Section {
  id: number;
  /** Start of the section's id byte, and of its body. */
  at: number;
  start: number;
  end: number;
}

function sections(bytes: Uint8Array): Section[] {
  const r = new Reader(bytes, 8, bytes.length);
  r.where = 'module';
  const out: Section[] = [];
  while (!r.eof()) {
    const at = r.pos;
    const id = r.u8();
    const size = r.uleb();
    const start = r.pos;
    if (start + size > bytes.length) r.fail(`section ${id} runs past the end`);
    out.push({ id, at, start, end: start + size });
    r.pos = start + size;
  }
  return out;
}

function name(r: Reader): string {
  const length = r.uleb();
  if (r.pos + length > r.limit) r.fail('name runs past its section');
  const text = new TextDecoder().decode(r.buf.subarray(r.pos, r.pos + length));
  r.pos += length;
  return text;
}

/**
 * Skips one import's description (after its kind byte), returning the type index of a function import.
 * A table's or a global's type goes through the Reader's value-type skip: `(ref null $t)` and `(ref $t)`
 * (typed function references) are followed by a heap type (red40: read as one byte, they threw the
 * rest of the section off, and a valid module was refused or its imports misread). denied.ts reads
 * imports with it too.
 */
export function importDesc(r: Reader, kind: number): number | null {
  switch (kind) {
    case 0:
      return r.uleb();
    case 1: // table: reference type, limits
      r.skipValType();
      r.limits();
      return null;
    case 2: // memory: limits
      r.limits();
      return null;
    case 3: // global: value type, mutability
      r.skipValType();
      r.u8();
      return null;
    case 4: // tag: attribute, type index
      r.u8();
      r.uleb();
      return null;
    default:
      return r.fail(`unknown import kind ${kind}`);
  }
}

/** A vector of value types (a function type's parameters or results), each by its first byte. */
function valTypes(r: Reader): ValType[] {
  const out: ValType[] = [];
  for (let n = r.uleb(); n > 0; n--) {
    const at = r.pos;
    r.skipValType();
    out.push(valType(r.buf[at]!));
  }
  return out;
}

function types(bytes: Uint8Array, s: Section | undefined): Array<{ params: ValType[]; results: ValType[] }> {
  if (!s) return [];
  const r = new Reader(bytes, s.start, s.end);
  r.where = 'type section';
  const out: Array<{ params: ValType[]; results: ValType[] }> = [];
  for (let n = r.uleb(); n > 0; n--) {
    if (r.u8() !== 0x60) {
      // A GC-proposal type (struct, array, rec group): not a plain function type.
      out.push({ params: [], results: [] });
      r.pos = s.end;
      break;
    }
    const params = valTypes(r);
    out.push({ params, results: valTypes(r) });
  }
  return out;
}

/** The function imports of a module, with their signatures. Throws INVALID_WASM on malformed bytes. */
export function functionImports(bytes: Uint8Array): FunctionImport[] {
  const all = sections(bytes);
  const sigs = types(bytes, all.find((s) => s.id === TYPE));
  const s = all.find((x) => x.id === IMPORT);
  if (!s) return [];
  const r = new Reader(bytes, s.start, s.end);
  r.where = 'import section';
  const out: FunctionImport[] = [];
  for (let n = r.uleb(); n > 0; n--) {
    const module = name(r);
    const field = name(r);
    const index = importDesc(r, r.u8());
    if (index === null) continue;
    const sig = sigs[index] ?? { params: [], results: [] };
    out.push({ module, name: field, params: sig.params, results: sig.results });
  }
  return out;
}

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

const encodeName = (text: string): number[] => {
  const utf8 = [...new TextEncoder().encode(text)];
  return [...leb(utf8.length), ...utf8];
};

/** Re-emits a section of `name kind …` entries with some names replaced. */
function renamed(bytes: Uint8Array, s: Section, twoNames: boolean, rename: (first: string) => string): number[] {
  const r = new Reader(bytes, s.start, s.end);
  r.where = twoNames ? 'import section' : 'export section';
  const body: number[] = [];
  const count = r.uleb();
  body.push(...leb(count));
  for (let n = count; n > 0; n--) {
    const first = name(r);
    body.push(...encodeName(rename(first)));
    const from = r.pos;
    if (twoNames) {
      name(r);
      importDesc(r, r.u8());
    } else {
      r.u8();
      r.uleb();
    }
    body.push(...bytes.subarray(from, r.pos));
  }
  if (r.pos !== s.end) r.fail('trailing bytes');
  return [s.id, ...leb(body.length), ...body];
}

/**
 * Moves `wasi_snapshot_preview1` imports to `wasmhooks:wasi` and renames
 * `_initialize`, `_start` and `hs_init`: Extism insists on its own WASI for
 * the former, and runs the latter at instantiation, before the host can see
 * the memory the WASI calls of a libc's constructors write to. `_start` (a
 * command's `main`) is not run at all, as Extism does not run it for WASI
 * modules either.
 */
export function redirectWasi(bytes: Uint8Array): Uint8Array {
  return rewriteNames(bytes, sections(bytes), true);
}

/**
 * Renames `_initialize`, `_start` and `hs_init` in a module without WASI, which Extism would otherwise run
 * inside its instantiation, where no meter can read the fuel counter (red42: every charge larger than a
 * slice went unpaid there); GuestImports.start runs the one Extism would, under the meter. The same bytes
 * when the module exports none of them.
 */
export function renameEntryPoints(bytes: Uint8Array): Uint8Array {
  const all = sections(bytes);
  const s = all.find((x) => x.id === EXPORT);
  if (!s) return bytes;
  const r = new Reader(bytes, s.start, s.end);
  r.where = 'export section';
  let found = false;
  for (let n = r.uleb(); n > 0 && !found; n--) {
    found = Object.hasOwn(RENAMED, name(r));
    r.u8();
    r.uleb();
  }
  return found ? rewriteNames(bytes, all, false) : bytes;
}

/** The module with its entry points renamed (RENAMED), and with `wasi` its preview1 imports redirected. */
function rewriteNames(bytes: Uint8Array, all: Section[], wasi: boolean): Uint8Array {
  const parts: Array<Uint8Array | number[]> = [bytes.subarray(0, 8)];
  for (const s of all) {
    if (s.id === IMPORT && wasi) parts.push(renamed(bytes, s, true, (m) => (m === WASI_MODULE ? WASI_REDIRECT : m)));
    else if (s.id === EXPORT) {
      parts.push(
        renamed(bytes, s, false, (e) => (Object.hasOwn(RENAMED, e) ? RENAMED[e]! : e)),
      );
    } else parts.push(bytes.subarray(s.at, s.end));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
