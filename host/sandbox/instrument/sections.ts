import {
  FUEL_EXPORT,
  REFUEL_MODULE,
  writeFuelExport,
  writeFuelGlobal,
  writeRefuelImport,
  writeRefuelType,
} from './additions.js';
import { rewriteExpr } from './code.js';
import type { RewriteInfo } from './module-info.js';
import { closeBodyBlock, openBodyBlock } from './handlers.js';
import { funcIndex, writeWrapperTypes, writeWrappers } from './hostcalls.js';
import { capTableType } from './tables.js';
import { rewriteExprExact } from './exact.js';
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
  padLeb5(w.buf, at, count + append());
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

/** The function section: the wrappers' types after the module's own. */
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
      return m.funcImports;
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
  w.uleb(Math.min(max ?? Infinity, m.maxMemoryPages));
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
        if (nameAt(r, name) === FUEL_EXPORT) r.fail(`export "${FUEL_EXPORT}" is reserved; is this module already instrumented?`, start);
        const kind = r.u8();
        const idx = r.u32();
        if (kind === 0x03 && idx >= m.globals) r.fail('exported global index out of range', start);
        w.copy(r.buf, start, name[1] + 1);
        w.uleb(kind === 0x00 ? funcIndex(m, idx, false) : idx);
      }
    },
    () => {
      writeFuelExport(m, w);
      return 1;
    },
  );
}

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

/** Element segments, all eight encodings (flags bit 0: passive/declarative, bit 1: explicit table or kind, bit 2: expressions). */
export function rewriteElements(m: RewriteInfo, r: Reader, w: Writer): void {
  const count = r.u32();
  w.uleb(count);
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
    if (flags & 4) rewriteExprVec(m, r, w);
    else rewriteFuncVec(m, r, w);
  }
}

export function rewriteCode(m: RewriteInfo, r: Reader, w: Writer): void {
  const count = r.u32();
  w.uleb(count + m.funcImports);
  const sectionEnd = r.limit;
  for (let i = 0; i < count; i++) {
    r.where = `function ${m.funcImports + i} (code entry ${i})`;
    const size = r.u32();
    if (size > sectionEnd - r.pos) r.fail(`body size ${size} runs past the code section`);
    const bodyEnd = r.pos + size;
    r.limit = bodyEnd;
    const contentStart = w.openSize();
    const localsStart = r.pos;
    const groups = r.u32();
    let locals = m.params[i] ?? 0;
    for (let g = 0; g < groups; g++) {
      locals += r.u32();
      r.skipValType();
    }
    const localsOut = w.pos;
    const bodyIn = r.pos;
    const checks = m.checksInserted;
    // Engines cap locals at 50,000: the fuel counter (i64) and the bulk-length scratch (i32) must fit.
    m.fuelLocal = locals < 49_998 ? locals : -1;
    let bodyOut = writeLocals(m, r, w, localsStart, bodyIn, groups);
    m.tempLocal = locals < 49_998 ? locals + 1 : locals < 49_999 ? locals : -1;
    m.tempUsed = false;
    if (m.exact) {
      // The reference mode keeps the counter in the global, so every function may have handlers.
      m.fuelLocal = -1;
      m.tempLocal = locals < 49_999 ? locals : -1;
      w.pos = localsOut;
      bodyOut = writeLocals(m, r, w, localsStart, bodyIn, groups);
      m.handlerGates = m.allowExceptions;
      if (m.handlerGates) openBodyBlock(m, w, i);
      rewriteExprExact(m, r, w);
    } else {
      // Functions that keep the counter in the global from the start may have handlers too.
      m.handlerGates = m.allowExceptions && m.fuelLocal < 0;
      if (m.handlerGates) openBodyBlock(m, w, i);
    }
    if (!m.exact && !rewriteExpr(m, r, w, true)) {
      // An exception handler: a caught throw would leave the local stale, so this function uses the global.
      r.pos = bodyIn;
      w.pos = localsOut;
      m.checksInserted = checks;
      m.fuelLocal = -1;
      m.tempLocal = locals < 49_999 ? locals : -1;
      m.tempUsed = false;
      bodyOut = writeLocals(m, r, w, localsStart, bodyIn, groups);
      m.handlerGates = m.allowExceptions;
      if (m.handlerGates) openBodyBlock(m, w, i);
      rewriteExpr(m, r, w, true);
    }
    if (m.handlerGates) closeBodyBlock(m, w);
    m.handlerGates = false;
    if (r.pos !== bodyEnd) r.fail(`${bodyEnd - r.pos} bytes after the body's final end`);
    if (m.tempUsed) declareTempLocal(w, localsOut, bodyOut, m.fuelLocal >= 0 ? groups + 1 : groups);
    w.closeSize(contentStart);
    r.limit = sectionEnd;
    m.functionsInstrumented++;
  }
  r.where = 'code section';
  writeWrappers(m, w);
}

/** Copies the locals header, adding `1 × i64` for the fuel counter if there is a fuel local; returns where the body goes. */
function writeLocals(m: RewriteInfo, r: Reader, w: Writer, localsStart: number, bodyIn: number, groups: number): number {
  if (m.fuelLocal < 0) {
    w.copy(r.buf, localsStart, bodyIn);
    return w.pos;
  }
  w.uleb(groups + 1);
  w.copy(r.buf, lebEndAfter(r.buf, localsStart), bodyIn);
  w.u8(0x01);
  w.u8(0x7e);
  return w.pos;
}

/** The end of the LEB128 at `p` (already validated by the reader). */
function lebEndAfter(buf: Uint8Array, p: number): number {
  while (buf[p]! & 0x80) p++;
  return p + 1;
}

/** Rewrites the locals header at `localsOut` with one more group, `1 × i32`, moving the body right. */
function declareTempLocal(w: Writer, localsOut: number, bodyOut: number, groups: number): void {
  const oldCountLen = lebLength(groups);
  const delta = lebLength(groups + 1) - oldCountLen + 2;
  w.ensure(delta);
  const buf = w.buf;
  buf.copyWithin(bodyOut + delta, bodyOut, w.pos);
  buf.copyWithin(localsOut + oldCountLen + delta - 2, localsOut + oldCountLen, bodyOut);
  const end = w.pos + delta;
  w.pos = localsOut;
  w.uleb(groups + 1);
  w.pos = bodyOut + delta - 2;
  w.u8(0x01);
  w.u8(0x7f);
  w.pos = end;
}

function lebLength(v: number): number {
  let n = 1;
  while (v >= 0x80) (v = Math.floor(v / 0x80)), n++;
  return n;
}
