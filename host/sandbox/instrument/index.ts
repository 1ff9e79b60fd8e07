/**
 * The wasm instrumenter: rewrites a module so that it meters its own work
 * (fuel) and cannot grow its memory past a cap. See
 * docs/sandbox-instrumentation.md for the contract with the sandbox runtime.
 */
import { WasmhooksError } from '../../errors.js';
import { rewriteNames } from './names.js';
import { readInfo, type Section } from './info.js';
import { Reader, invalid } from './reader.js';
import { rewriteCode } from './code-section.js';
import {
  rewriteElements,
  rewriteExports,
  rewriteFunctions,
  rewriteGlobals,
  rewriteImports,
  rewriteMemories,
  rewriteStart,
  rewriteTables,
  rewriteTypes,
} from './sections.js';
import type { RewriteInfo } from './module-info.js';
import { writeFuelExport, writeFuelGlobal, writeRefuelImport, writeRefuelType } from './additions.js';
import { planRefuelSlow, writeRefuelSlowBody } from './fuel.js';
import { funcIndex, writeWrapperTypes, writeWrappers } from './hostcalls.js';
import { BRANCH_HINT_SECTION, resetHints, writeHintSection } from './hints.js';
import { planVariants, writeVariantFunctions } from './threaded.js';
import { DEFAULT_MAX_TABLE_ELEMENTS } from './tables.js';
import { Writer } from './writer.js';

export { FUEL_EXPORT, REFUEL_MODULE, REFUEL_NAME, START_FUNCTION_EXPORT } from './additions.js';
export { GATE_NAME, GateKind } from './hostcalls.js';

/** Options of `instrument`. */
export interface InstrumentOptions {
  /** Cap on every memory's maximum, in 64 KiB pages. */
  maxMemoryPages: number;
  /** Cap on the elements of all tables together (tables.ts). Default `DEFAULT_MAX_TABLE_ELEMENTS`. */
  maxTableElements?: number;
  /** Accept exception handling, with a gate at every handler entry (handlers.ts). Default false: refused. */
  allowExceptions?: boolean;
  /**
   * How fuel is charged. `'fast'` (the default): each straight-line block is
   * charged when entered (the block rule). `'exact'`: every instruction is
   * charged as it runs, several times slower: the reference the fast mode is
   * measured against.
   */
  metering?: 'fast' | 'exact';
  /**
   * Imports, by module, whose host functions make the gate's checks (stop,
   * abort, deadline) themselves before doing any work: their wrappers charge
   * fuel as usual but do not call the gate (one crossing into the host per
   * call instead of two). Only for an embedder whose functions do; the
   * sandbox's engine names its own (host/sandbox/engine-imports.ts
   * `SELF_CHECKED`). Default: none.
   */
  selfChecked?: Readonly<Record<string, readonly string[]>>;
  /**
   * Export the start function as `__wasmhooks_start_function` (START_FUNCTION_EXPORT) instead of
   * keeping the start section, for the host to call right after instantiation. An engine runs a start
   * function inside instantiation, before anyone holds the instance's fuel global: a `refuel` called
   * there cannot read how far the counter overdrew, and every charge larger than a slice (a table op, a
   * long fill, a host call's length) went unpaid (red42). Default false: the start section stays.
   */
  deferStart?: boolean;
}

/** The rewritten module and what was added to it. */
export interface InstrumentResult {
  bytes: Uint8Array<ArrayBuffer>;
  functionsInstrumented: number;
  checksInserted: number;
}

// Canonical order of the non-custom section ids (tags, 13, sit between memory and global; data count, 12, before code).
const ORDER = [1, 2, 3, 4, 5, 13, 6, 7, 8, 9, 12, 10, 11];
const RANK = new Int8Array(14).fill(-1);
ORDER.forEach((id, rank) => (RANK[id] = rank));
const TYPE = 1, IMPORT = 2, FUNCTION = 3, GLOBAL = 6, EXPORT = 7, START = 8, CODE = 10; // sections we may have to create (or drop: start)

/**
 * Instruments a wasm module: imports `wasmhooks:sandbox` `refuel: () -> i64`
 * as the last function import (defined functions shift by one), adds the
 * exported mutable i64 global `__wasmhooks_fuel` (starting at 0), inserts a
 * fuel check at every function entry and loop header, and caps every memory's
 * maximum at `maxMemoryPages`.
 *
 * Throws `WasmhooksError('INVALID_WASM')` on malformed input, naming the
 * section or function and the byte offset.
 *
 * @example
 * const { bytes } = instrument(wasm, { maxMemoryPages: 256 });
 * const fuel = { refuel: () => 1_000_000n };
 * await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': fuel });
 */
export function instrument(wasm: Uint8Array, options: InstrumentOptions): InstrumentResult {
  const cap = options.maxMemoryPages;
  if (!Number.isInteger(cap) || cap < 0 || cap > 65536)
    throw new WasmhooksError('INVALID_OPTIONS', `maxMemoryPages must be an integer in 0..65536, got ${cap}`);
  const maxTableElements = options.maxTableElements ?? DEFAULT_MAX_TABLE_ELEMENTS;
  if (!Number.isInteger(maxTableElements) || maxTableElements < 0 || maxTableElements > 10_000_000)
    throw new WasmhooksError('INVALID_OPTIONS', `maxTableElements must be an integer in 0..10000000, got ${maxTableElements}`);
  if (options.metering !== undefined && options.metering !== 'fast' && options.metering !== 'exact')
    throw new WasmhooksError('INVALID_OPTIONS', `metering must be 'fast' or 'exact', got ${String(options.metering)}`);
  const sections = scanSections(wasm);
  const m = readInfo(wasm, sections, {
    maxMemoryPages: cap,
    maxTableElements,
    allowExceptions: options.allowExceptions ?? false,
    selfChecked: options.selfChecked ?? {},
  });
  m.exact = options.metering === 'exact';
  if (options.deferStart && m.startFunction >= 0) m.deferredStart = funcIndex(m, m.startFunction, false);
  if (!m.exact) planVariants(m, m.types.length + 2 + m.blockTypes.size);
  planRefuelSlow(m, m.types.length + 2 + m.blockTypes.size + m.variantType.filter((t) => t >= 0).length);
  const present = new Set(sections.map((s) => s.id));
  // Import wrappers need a function and a code section even in a module that defines no function.
  // So does $refuel_slow, in fast mode.
  const wrappers = m.funcImports > 0 || m.refuelSlow >= 0 ? [FUNCTION, CODE] : [];
  const pending = [TYPE, IMPORT, ...wrappers, GLOBAL, EXPORT]
    .filter((id) => !present.has(id))
    .sort((a, b) => RANK[a]! - RANK[b]!);

  const w = scratchWriter(wasm.length + (wasm.length >> 3) + 256);
  const limit = MAX_GROWTH * wasm.length + GROWTH_SLACK;
  w.setLimit(
    limit,
    `the module would be more than ${limit} bytes once metered, over ${MAX_GROWTH} times its ${wasm.length} bytes and 1 MiB: ` +
      'it is mostly operations the meter must expand (bulk memory and table operations, branch tables naming many loops, tiny functions); real modules grow 1.3-2.2 times (4.9 metered exactly)',
  );
  w.copy(wasm, 0, 8);
  resetHints();
  const emit = (id: number, body: () => void): void => {
    w.u8(id);
    const start = w.openSize();
    body();
    w.closeSize(start);
  };
  const flushPending = (beforeRank: number): void => {
    while (pending.length > 0 && RANK[pending[0]!]! < beforeRank) emitSynthetic(pending.shift()!, m, emit, w);
  };

  for (const s of sections) {
    const r = new Reader(wasm, s.start, s.end);
    r.where = `section ${s.id}`;
    if (s.id === 0) {
      copyCustom(m, r, w, s);
      continue;
    }
    flushPending(RANK[s.id]!);
    // Deferred: the start function is exported (rewriteExports, or the synthetic export section) instead.
    if (s.id === START && m.deferredStart >= 0) continue;
    const sectionAt = w.pos;
    emit(s.id, () => {
      rewriteSection(s.id, m, r, w);
      if (r.pos !== s.end) r.fail('section size does not match its contents');
    });
    if (s.id === CODE) insertHints(w, sectionAt);
  }
  flushPending(ORDER.length);
  return { bytes: w.result(), functionsInstrumented: m.functionsInstrumented, checksInserted: m.checksInserted };
}

/**
 * The instrumented module holds at most MAX_GROWTH × the input + GROWTH_SLACK bytes (red42). Real modules
 * grow 1.3-2.2 times (sql.js 1.94, oniguruma 1.29, the first-party plugins 1.70-2.22) and 2.3-4.9 times in
 * exact metering; but a bulk memory op or a branch table naming many loops expands 15-40 times (chunks,
 * trampolines, checks), so a 400 KB module of memory.copy became 14.5 MB: 450 ms of the caller's thread in
 * an instrumentation meant to stay inline below 512 KiB (off-thread.ts: 10-65 ms per MB of input), and a
 * 64 MiB one would have asked a load's worker for 2.3 GB.
 */
const MAX_GROWTH = 8;
const GROWTH_SLACK = 1 << 20;

/**
 * One output buffer reused across calls: fresh pages are expensive (a 2 MB
 * allocation costs more than instrumenting 2 MB on some VMs), so only the
 * exact-size result is allocated per call. Extism reads `data.buffer`, so the
 * result must own its whole buffer; a view into this one would not do.
 */
let scratch: Writer | undefined;
const SCRATCH_KEEP = 32 << 20;

function scratchWriter(capacity: number): Writer {
  if (!scratch || scratch.buf.length > SCRATCH_KEEP) scratch = new Writer(capacity);
  scratch.pos = 0;
  scratch.setLimit(Infinity, ''); // the last call's limit is not this one's
  scratch.ensure(capacity);
  return scratch;
}

function rewriteSection(id: number, m: RewriteInfo, r: Reader, w: Writer): void {
  switch (id) {
    case 1: return rewriteTypes(m, r, w);
    case 3: return rewriteFunctions(m, r, w);
    case 2: return rewriteImports(m, r, w);
    case 4: return rewriteTables(m, r, w);
    case 5: return rewriteMemories(m, r, w);
    case 6: return rewriteGlobals(m, r, w);
    case 7: return rewriteExports(m, r, w);
    case 8: return rewriteStart(m, r, w);
    case 9: return rewriteElements(m, r, w);
    case 10: return rewriteCode(m, r, w);
    default: // function, tag, data count, data: nothing to change
      w.copy(r.buf, r.pos, r.limit);
      r.pos = r.limit;
  }
}

function emitSynthetic(id: number, m: RewriteInfo, emit: (id: number, body: () => void) => void, w: Writer): void {
  emit(id, () => {
    const at = w.pos;
    w.u8(0); // the count, patched below (always < 128 here: ours, or one wrapper per import)
    let count = 1;
    if (id === TYPE) count = writeRefuelType(m, w);
    else if (id === IMPORT) count = writeRefuelImport(m, w);
    else if (id === FUNCTION) writeWrapperTypes(m, w), (count = m.funcImports + writeVariantFunctions(m, w));
    else if (id === CODE) (count = writeSyntheticCode(m, w));
    else if (id === GLOBAL) writeFuelGlobal(w);
    else count = writeFuelExport(m, w);
    if (count >= 128) {
      w.ensure(4);
      w.buf.copyWithin(at + 5, at + 1, w.pos);
      w.pos += 4;
      for (let i = 0; i < 4; i++) w.buf[at + i] = ((count >>> (7 * i)) & 0x7f) | 0x80;
      w.buf[at + 4] = count >>> 28;
    } else w.buf[at] = count;
  });
}

/** A code section for a module without one: the import wrappers and $refuel_slow; returns how many bodies. */
function writeSyntheticCode(m: RewriteInfo, w: Writer): number {
  writeWrappers(m, w);
  if (m.refuelSlow < 0) return m.funcImports;
  writeRefuelSlowBody(m, w);
  return m.funcImports + 1;
}

/** Puts the branch hints of the code just written (hints.ts) in front of the code section at `codeAt`, where engines read them. */
function insertHints(w: Writer, codeAt: number): void {
  const end = w.pos;
  writeHintSection(w);
  const length = w.pos - end;
  if (length === 0) return;
  const hints = w.buf.slice(end, w.pos);
  w.buf.copyWithin(codeAt + length, codeAt, end);
  w.buf.set(hints, codeAt);
}

const NAME = new TextEncoder().encode('name');
const HINTS = new TextEncoder().encode(BRANCH_HINT_SECTION);

function sameName(buf: Uint8Array, [from, to]: [number, number], name: Uint8Array): boolean {
  if (to - from !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (buf[from + i] !== name[i]) return false;
  return true;
}

function copyCustom(m: RewriteInfo, r: Reader, w: Writer, s: Section): void {
  const name = r.name();
  // The module's own branch hints point into code we rewrite: stale, so dropped (ours replace them).
  if (sameName(r.buf, name, HINTS)) return;
  const isName = sameName(r.buf, name, NAME);
  if (!isName) {
    w.u8(0);
    w.uleb(s.end - s.start);
    w.copy(r.buf, s.start, s.end);
    return;
  }
  const mark = w.pos;
  w.u8(0);
  const start = w.openSize();
  w.copy(r.buf, s.start, r.pos);
  if (rewriteNames(m, r, w)) w.closeSize(start);
  else w.pos = mark; // malformed names: dropped, as engines would ignore them
}

/** Section boundaries, checked for size and order before anything is written. */
function scanSections(wasm: Uint8Array): Section[] {
  if (wasm.length < 8) invalid(`module is ${wasm.length} bytes, shorter than the 8-byte header`);
  if (wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) invalid('bad magic number (not a wasm module)');
  if (wasm[4] !== 1 || wasm[5] !== 0 || wasm[6] !== 0 || wasm[7] !== 0)
    invalid(`unsupported wasm version or layer ${Array.from(wasm.subarray(4, 8)).join(',')} (components are not supported)`);
  const r = new Reader(wasm, 8, wasm.length);
  const out: Section[] = [];
  let lastRank = -1;
  while (!r.eof()) {
    const at = r.pos;
    const id = r.u8();
    r.where = `section ${id}`;
    const size = r.u32();
    if (size > r.limit - r.pos) r.fail(`size ${size} runs past the end of the module (${r.limit - r.pos} bytes left)`, at);
    if (id !== 0) {
      const rank = RANK[id] ?? -1;
      if (rank < 0) r.fail('unknown section id', at);
      if (rank <= lastRank) r.fail('section out of order or repeated', at);
      lastRank = rank;
    } else if (size === 0) r.fail('custom section without a name', at);
    out.push({ id, start: r.pos, end: r.pos + size });
    r.pos += size;
  }
  return out;
}
