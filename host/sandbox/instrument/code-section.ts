/**
 * The code section: each function body metered by the walker (code.ts, or
 * exact.ts in the reference mode), in the first form that fits it:
 *
 * 1. threaded (threaded.ts): the metered body becomes the function's variant,
 *    appended after the import wrappers, with the counter as its last
 *    parameter and result; its own index gets a thin wrapper;
 * 2. a fuel local loaded from the global at entry and written back at exits;
 * 3. the counter in the global throughout (bodies with exception handlers,
 *    which would resume with a stale local, or too many locals).
 *
 * Then the import wrappers (hostcalls.ts), the variants and, in fast mode,
 * `$refuel_slow` (fuel.ts), in that order.
 */
import { rewriteExpr } from './code.js';
import { rewriteExprExact } from './exact.js';
import { closeBodyBlock, openBodyBlock } from './handlers.js';
import { beginHints, discardHints, endHints, resetHints } from './hints.js';
import { writeRefuelSlowBody } from './fuel.js';
import { writeWrappers } from './hostcalls.js';
import { CHUNK_LOCALS } from './chunks.js';
import type { RewriteInfo } from './module-info.js';
import type { Reader } from './reader.js';
import { bodyBlockType, writeAdapter, writeThinWrapper } from './threaded.js';
import { Writer } from './writer.js';
import { localsFuel } from './opcodes.js';

/** Engines cap a function's locals (parameters included) at 50,000: the counter and the scratch local must fit. */
const MAX_LOCALS = 50_000;

/** The variants' bodies, written while the section is walked and appended at its end (reused across calls). */
let variants: Writer | undefined;

export function rewriteCode(m: RewriteInfo, r: Reader, w: Writer): void {
  const inStart = r.pos, outStart = w.pos, checks = m.checksInserted;
  if (!rewriteFunctions(m, r, w)) {
    // Tail calls: again, without threading (see RewriteInfo.tailCalls).
    r.pos = inStart;
    w.pos = outStart;
    m.checksInserted = checks;
    m.functionsInstrumented = 0;
    rewriteFunctions(m, r, w);
  }
  r.where = 'code section';
  writeWrappers(m, w);
  w.copy(variants!.buf, 0, variants!.pos);
  if (m.refuelSlow >= 0) writeRefuelSlowBody(m, w);
}

/** The bodies, then false if threading met a tail call (the caller starts over: `m.tailCalls` is now set). */
function rewriteFunctions(m: RewriteInfo, r: Reader, w: Writer): boolean {
  const threading = !m.tailCalls;
  resetHints();
  const count = r.u32();
  w.uleb(count + m.funcImports + m.variants + (m.refuelSlow >= 0 ? 1 : 0));
  const aux = (variants ??= new Writer(1 << 16));
  aux.pos = 0;
  aux.setLimit(w.limit, w.refusal); // the variants end up in `w`
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
    let units = 0;
    for (let g = 0; g < groups; g++) {
      const n = r.u32();
      locals += n;
      units += r.buf[r.pos] === 0x7b ? 2 * n : n; // v128: twice the bytes to zero
      r.skipValType();
    }
    m.localsFuel = localsFuel(units);
    const body = { localsStart, bodyIn: r.pos, groups, locals };
    const hasVariant = !m.exact && m.variantOf[i]! >= 0;
    if (hasVariant && threading && locals + 2 + CHUNK_LOCALS <= MAX_LOCALS && rewriteThreaded(m, r, aux, i, body)) {
      writeThinWrapper(m, w, i);
      m.threadedFn[i] = 1;
    } else {
      m.threadedFn[i] = 0;
      r.pos = body.bodyIn;
      rewriteMetered(m, r, w, i, body);
      if (hasVariant) {
        const at = aux.openSize();
        writeAdapter(m, aux, i);
        aux.closeSize(at);
      }
    }
    if (r.pos !== bodyEnd) r.fail(`${bodyEnd - r.pos} bytes after the body's final end`);
    w.closeSize(contentStart);
    r.limit = sectionEnd;
    m.functionsInstrumented++;
    if (threading && m.tailCalls) return false;
  }
  return true;
}

interface Body {
  localsStart: number;
  bodyIn: number;
  groups: number;
  /** Parameters and declared locals. */
  locals: number;
}

/**
 * Writes function `i` as its variant into `aux`: the same locals (the
 * counter is the new parameter after the function's own), the body wrapped
 * in a block of the function's result type followed by `local.get $f`, so
 * that every way out of the body (its end, a branch to its label) returns the
 * counter too. False, with `aux` as it was, if the body cannot thread it.
 */
function rewriteThreaded(m: RewriteInfo, r: Reader, aux: Writer, i: number, body: Body): boolean {
  const start = aux.pos;
  const checks = m.checksInserted;
  const params = m.params[i] ?? 0;
  const contentStart = aux.openSize();
  aux.copy(r.buf, body.localsStart, body.bodyIn);
  const bodyOut = aux.pos;
  beginHints();
  m.threaded = true;
  m.shiftLocals = params;
  m.fuelLocal = params;
  scratch(m, body.locals + 1);
  m.handlerGates = false;
  aux.u8(0x02), aux.u8(bodyBlockType(m, i));
  const ok = rewriteExpr(m, r, aux, true);
  m.threaded = false;
  m.shiftLocals = -1;
  if (!ok) {
    aux.pos = start;
    m.checksInserted = checks;
    endHints(-1, 0, 0);
    return false;
  }
  aux.u8(0x20), aux.uleb(params); // local.get $f: the counter, the last result
  aux.u8(0x0b);
  const shift = m.tempUsed ? declareTempLocals(m, aux, contentStart, bodyOut, body.groups, m.tempUsed) : 0;
  endHints(2 * m.funcImports + m.added + m.definedFunctions + m.variantOf[i]!, contentStart, shift);
  aux.closeSize(contentStart);
  return true;
}

/** Writes function `i` at its own index with the counter in a local loaded at entry, or in the global. */
function rewriteMetered(m: RewriteInfo, r: Reader, w: Writer, i: number, { localsStart, bodyIn, groups, locals }: Body): void {
  const localsOut = w.pos;
  beginHints();
  const checks = m.checksInserted;
  // The counter gets a local only where the scratch locals still fit after it (a long bulk op needs them all).
  m.fuelLocal = locals + 2 + CHUNK_LOCALS <= MAX_LOCALS ? locals : -1;
  let bodyOut = writeLocals(m, r, w, localsStart, bodyIn, groups);
  scratch(m, m.fuelLocal >= 0 ? locals + 1 : locals);
  if (m.exact) {
    // The reference mode keeps the counter in the global, so every function may have handlers.
    m.fuelLocal = -1;
    scratch(m, locals);
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
    discardHints();
    r.pos = bodyIn;
    w.pos = localsOut;
    m.checksInserted = checks;
    m.fuelLocal = -1;
    scratch(m, locals);
    bodyOut = writeLocals(m, r, w, localsStart, bodyIn, groups);
    m.handlerGates = m.allowExceptions;
    if (m.handlerGates) openBodyBlock(m, w, i);
    rewriteExpr(m, r, w, true);
  }
  if (m.handlerGates) closeBodyBlock(m, w);
  m.handlerGates = false;
  const shift = m.tempUsed ? declareTempLocals(m, w, localsOut, bodyOut, m.fuelLocal >= 0 ? groups + 1 : groups, m.tempUsed) : 0;
  endHints(m.funcImports + m.added + i, localsOut, shift);
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

/**
 * The scratch locals from index `first` on: as many as the function has room for (chunks.ts needs
 * `CHUNK_LOCALS`, a split table.fill one reference-typed more), one at least or none (`tempLocal` -1).
 * One local below the engines' limit stays free, as before.
 */
function scratch(m: RewriteInfo, first: number): void {
  m.tempLocals = Math.max(0, MAX_LOCALS - 1 - first);
  m.tempLocal = m.tempLocals > 0 ? first : -1;
  m.tempUsed = 0;
  m.refTemps = [];
}

/**
 * Rewrites the locals header at `localsOut` with the scratch locals declared after the function's own:
 * `count × i32`, then one local of each of `m.refTemps`' types (only with `count` = CHUNK_LOCALS, whose
 * indices they follow). Moves the body right; returns by how many bytes.
 */
function declareTempLocals(m: RewriteInfo, w: Writer, localsOut: number, bodyOut: number, groups: number, count: number): number {
  const added = new Writer(16);
  added.u8(count), added.u8(0x7f); // at most CHUNK_LOCALS: one LEB byte
  for (const type of m.refTemps) added.u8(1), added.bytes(type);
  const newGroups = groups + 1 + m.refTemps.length;
  const oldCountLen = lebLength(groups);
  const delta = lebLength(newGroups) - oldCountLen + added.pos;
  w.ensure(delta);
  const buf = w.buf;
  buf.copyWithin(bodyOut + delta, bodyOut, w.pos);
  buf.copyWithin(localsOut + oldCountLen + delta - added.pos, localsOut + oldCountLen, bodyOut);
  const end = w.pos + delta;
  w.pos = localsOut;
  w.uleb(newGroups);
  w.pos = bodyOut + delta - added.pos;
  w.copy(added.buf, 0, added.pos);
  w.pos = end;
  return delta;
}

function lebLength(v: number): number {
  let n = 1;
  while (v >= 0x80) (v = Math.floor(v / 0x80)), n++;
  return n;
}
