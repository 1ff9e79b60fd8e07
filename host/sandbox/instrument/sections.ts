import {
  FUEL_EXPORT,
  REFUEL_MODULE,
  START_FUNCTION_EXPORT,
  writeFuelExport,
  writeFuelGlobal,
  writeRefuelImport,
  writeRefuelType,
} from './additions.js';
import { rewriteExpr } from './code.js';
import type { RewriteInfo } from './module-info.js';
import { funcIndex, writeWrapperTypes } from './hostcalls.js';
import { writeVariantFunctions } from './threaded.js';
import { capTableType } from './tables.js';
import { invalid, type Reader } from './reader.js';
import type { Writer } from './writer.js';

const utf8d = new TextDecoder('utf-8', { fatal: false });

function nameAt(r: Reader, range: [number, number]): string {
  return utf8d.decode(r.buf.subarray(range[0], range[1]));
}

/**
 * Copies a vector section's entries through `body`, then appends the entries
 * written by `append`, which returns how many; the count is patched after.
 */
function appendToVector(r: Reader, w: Writer, body: (count: number) => void, append: () => number): void {
  const count = r.u32();
  // The count goes in front, known only at the end: a padded 5-byte LEB128 (valid wasm).
  w.ensure(5);
  const at = w.pos;
  w.pos += 5;
  body(count);
  // append() may grow (move) the buffer: `w.buf` is read after it, or the count lands in the old one.
  const total = count + append();
  padLeb5(w.buf, at, total);
}

/** Writes `v` as a 5-byte (padded) unsigned LEB128 at `at`. */
function padLeb5(buf: Uint8Array, at: number, v: number): void {
  for (let i = 0; i < 4; i++) buf[at + i] = ((v >>> (7 * i)) & 0x7f) | 0x80;
  buf[at + 4] = (v >>> 28) & 0x0f;
}

export function rewriteTypes(m: RewriteInfo, r: Reader, w: Writer): void {
  appendToVector(
    r,
    w,
    () => {
      w.copy(r.buf, r.pos, r.limit);
      r.pos = r.limit;
    },
    () => writeRefuelType(m, w),
  );
}

/** The function section: the import wrappers' types after the module's own, then the variants' (threaded.ts). */
export function rewriteFunctions(m: RewriteInfo, r: Reader, w: Writer): void {
  appendToVector(
    r,
    w,
    () => {
      w.copy(r.buf, r.pos, r.limit);
      r.pos = r.limit;
    },
    () => {
      writeWrapperTypes(m, w);
      return m.funcImports + writeVariantFunctions(m, w);
    },
  );
}

/** Writes memory limits with the maximum capped; throws if the minimum is already above the cap. */
function capLimits(m: RewriteInfo, r: Reader, w: Writer, what: string): void {
  const { flags, min, max } = r.limits();
  const index = m.memories++;
  if (min > m.maxMemoryPages)
    invalid(
      `memory ${index}${what} starts at ${min} pages, above the cap of ${m.maxMemoryPages} pages (raise limits.maxMemoryPages)`,
    );
  w.u8(flags | 1);
  w.uleb(min);
  w.uleb(Math.min(max ?? Infinity, m.memoryCaps[index] ?? m.maxMemoryPages));
}

export function rewriteImports(m: RewriteInfo, r: Reader, w: Writer): void {
  appendToVector(
    r,
    w,
    (count) => {
      for (let i = 0; i < count; i++) {
        const start = r.pos;
        const mod = r.name();
        const field = r.name();
        if (nameAt(r, mod) === REFUEL_MODULE)
          r.fail(`import ${i} uses the reserved module "${REFUEL_MODULE}"; is this module already instrumented?`, start);
        const kind = r.u8();
        if (kind === 0x02) {
          w.copy(r.buf, start, r.pos);
          capLimits(m, r, w, ` (imported as "${nameAt(r, mod)}" "${nameAt(r, field)}")`);
          continue;
        }
        if (kind === 0x00 || kind === 0x04) {
          if (kind === 0x04) r.u8();
          r.skipLeb();
        } else if (kind === 0x01) {
          w.copy(r.buf, start, r.pos);
          capTableType(m, r, w);
          continue;
        } else if (kind === 0x03) {
          r.skipValType();
          r.u8();
        } else r.fail(`unknown import kind ${kind}`);
        w.copy(r.buf, start, r.pos);
      }
    },
    () => writeRefuelImport(m, w),
  );
}

export function rewriteTables(m: RewriteInfo, r: Reader, w: Writer): void {
  const count = r.u32();
  w.uleb(count);
  for (let i = 0; i < count; i++) {
    const start = r.pos;
    const withInit = r.buf[r.pos] === 0x40;
    if (withInit) r.skip(2);
    w.copy(r.buf, start, r.pos);
    capTableType(m, r, w);
    if (withInit) rewriteExpr(m, r, w, false);
  }
}

export function rewriteMemories(m: RewriteInfo, r: Reader, w: Writer): void {
  const count = r.u32();
  w.uleb(count);
  for (let i = 0; i < count; i++) capLimits(m, r, w, '');
}

export function rewriteGlobals(m: RewriteInfo, r: Reader, w: Writer): void {
  appendToVector(
    r,
    w,
    (count) => {
      for (let i = 0; i < count; i++) {
        const start = r.pos;
        r.skipValType();
        r.u8();
        w.copy(r.buf, start, r.pos);
        rewriteExpr(m, r, w, false);
      }
    },
    () => {
      writeFuelGlobal(w);
      return 1;
    },
  );
}

export function rewriteExports(m: RewriteInfo, r: Reader, w: Writer): void {
  appendToVector(
    r,
    w,
    (count) => {
      for (let i = 0; i < count; i++) {
        const start = r.pos;
        const name = r.name();
        const exported = nameAt(r, name);
        if (exported === FUEL_EXPORT || exported === START_FUNCTION_EXPORT)
          r.fail(`export "${exported}" is reserved; is this module already instrumented?`, start);
        const kind = r.u8();
        const idx = r.u32();
        if (kind === 0x03 && idx >= m.globals) r.fail('exported global index out of range', start);
        w.copy(r.buf, start, name[1] + 1);
        w.uleb(kind === 0x00 ? funcIndex(m, idx, false) : idx);
      }
    },
    () => writeFuelExport(m, w),
  );
}

/** The start section (not written at all with `deferStart`: the function is exported instead, additions.ts). */
export function rewriteStart(m: RewriteInfo, r: Reader, w: Writer): void {
  w.uleb(funcIndex(m, r.u32(), false));
}

function rewriteFuncVec(m: RewriteInfo, r: Reader, w: Writer): void {
  const n = r.u32();
  w.uleb(n);
  for (let i = 0; i < n; i++) {
    w.uleb(funcIndex(m, r.u32(), false));
  }
}

function rewriteExprVec(m: RewriteInfo, r: Reader, w: Writer): void {
  const n = r.u32();
  w.uleb(n);
  for (let i = 0; i < n; i++) rewriteExpr(m, r, w, false);
}

/**
 * Element segments, all eight encodings (flags bit 0: passive/declarative, bit 1: explicit table or kind, bit 2: expressions).
 * Active and passive segments hold at most `maxTableElements` elements together: engines build every
 * one at each instantiation (50-140 ns an element), before any meter runs and on every rebuild after a
 * failure, so a 10 MB module of segments held the thread 0.5-1.4 s per instance, out of every limit.
 * Declarative segments are not built, but engines read them when they compile, on the caller's thread
 * (JavaScriptCore ~33 ns an element: 30M entries, a 30 MB module, held Bun's event loop 1.2 s, 60 MB
 * 2.7 s; Node 0.18-0.37 s, Deno 0.24-0.48 s; red38). They only declare functions for `ref.func`, each
 * once at most, so together they hold at most the module's functions.
 */
export function rewriteElements(m: RewriteInfo, r: Reader, w: Writer): void {
  const count = r.u32();
  w.uleb(count);
  let elements = 0;
  let declared = 0;
  const functions = m.funcImports + m.definedFunctions;
  for (let i = 0; i < count; i++) {
    const flags = r.u32();
    if (flags > 7) r.fail(`unknown element segment flags ${flags}`);
    w.uleb(flags);
    const active = (flags & 1) === 0;
    if (active && flags & 2) w.uleb(r.u32()); // table index
    if (active) rewriteExpr(m, r, w, false); // offset
    if (flags & 3) {
      const start = r.pos;
      if (flags & 4) r.skipValType();
      else if (r.u8() !== 0x00) r.fail('unknown element kind');
      w.copy(r.buf, start, r.pos);
    }
    if ((flags & 3) !== 3) {
      const at = r.pos;
      const n = r.u32();
      elements += n;
      r.pos = at;
      m.elemLengths[i] = (flags & 3) === 1 ? n : 0; // what a table.init may read: passive segments only
      if (elements > m.maxTableElements) {
        r.fail(`the module's element segments hold more than ${m.maxTableElements} elements (raise limits.maxTableElements): engines build them at every instantiation`);
      }
    } else {
      const at = r.pos;
      declared += r.u32();
      r.pos = at;
      if (declared > functions) {
        r.fail(`the module's declarative element segments hold more entries than its ${functions} functions (each function needs declaring once, and engines read every entry when they compile)`);
      }
    }
    if (flags & 4) rewriteExprVec(m, r, w);
    else rewriteFuncVec(m, r, w);
  }
}
