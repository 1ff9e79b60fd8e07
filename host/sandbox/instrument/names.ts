import type { RewriteInfo } from './module-info.js';
import { Reader } from './reader.js';
import { variantIndex } from './threaded.js';
import type { Writer } from './writer.js';

const OUR_NAMES = ['wasmhooks_refuel', 'wasmhooks_gate'].map((n) => new TextEncoder().encode(n));

// Subsections keyed by function index: 1 function names, 2 local names, 3 label names.
const FUNCTION_NAMES = 1;

/**
 * Rewrites the body of the `name` custom section (after its own name) with
 * function indices shifted, naming our import. Returns false if the section
 * is malformed; engines ignore a bad name section, so the caller drops it
 * rather than rejecting the module.
 */
export function rewriteNames(m: RewriteInfo, r: Reader, w: Writer): boolean {
  const mark = w.pos;
  try {
    while (!r.eof()) {
      const id = r.u8();
      const size = r.u32();
      const end = r.pos + size;
      if (end > r.limit) return rollback(w, mark);
      w.u8(id);
      if (id < 1 || id > 3) {
        w.uleb(size);
        w.copy(r.buf, r.pos, end);
        r.pos = end;
        continue;
      }
      const sub = new Reader(r.buf, r.pos, end);
      const entries: [idx: number, start: number, end: number][] = [];
      for (let i = sub.u32(); i > 0; i--) {
        const idx = sub.u32();
        const start = sub.pos;
        if (id === FUNCTION_NAMES) sub.name();
        else {
          for (let j = sub.u32(); j > 0; j--) {
            sub.u32();
            sub.name();
          }
        }
        entries.push([idx, start, sub.pos]);
      }
      // A threaded function's own index holds a thin wrapper (parameters only) and its body is its variant's:
      // local names move there (renumbered past the counter parameter), label names are dropped (one more block).
      const kept = id === 3 ? entries.filter(([idx]) => !isThreaded(m, idx)) : entries;
      const moved = id === FUNCTION_NAMES ? entries.filter(([idx]) => variantIndex(m, idx) >= 0) : id === 2 ? entries.filter(([idx]) => isThreaded(m, idx)) : [];
      const contentStart = w.openSize();
      let named = id !== FUNCTION_NAMES;
      w.uleb(kept.length + moved.length + (named ? 0 : m.added));
      for (const [idx, start, stop] of kept) {
        if (!named && idx >= m.funcImports) {
          writeRefuelName(m, w);
          named = true;
        }
        w.uleb(idx >= m.funcImports ? idx + m.added : idx);
        if (id === 2 && isThreaded(m, idx)) writeLocalNames(m, r.buf, start, stop, idx, false, w);
        else w.copy(r.buf, start, stop);
      }
      if (!named) writeRefuelName(m, w);
      for (const [idx, start, stop] of moved) {
        w.uleb(variantIndex(m, idx));
        if (id === 2) writeLocalNames(m, r.buf, start, stop, idx, true, w);
        else w.copy(r.buf, start, stop);
      }
      if (sub.pos !== end) return rollback(w, mark);
      w.closeSize(contentStart);
      r.pos = end;
    }
    return true;
  } catch {
    return rollback(w, mark);
  }
}

/** Names our imports (refuel, and the gate if added); the import wrappers stay unnamed. */
function writeRefuelName(m: RewriteInfo, w: Writer): void {
  for (let i = 0; i < m.added; i++) {
    w.uleb(m.funcImports + i);
    w.uleb(OUR_NAMES[i]!.length);
    w.bytes(OUR_NAMES[i]!);
  }
}

/** A function's local names (`count, (index, name)*` at `start`): its parameters' only, or all of them renumbered for its variant. */
function writeLocalNames(m: RewriteInfo, buf: Uint8Array, start: number, stop: number, func: number, variant: boolean, w: Writer): void {
  const params = m.params[func - m.funcImports] ?? 0;
  const r = new Reader(buf, start, stop);
  const names: [number, number, number][] = [];
  for (let k = r.u32(); k > 0; k--) {
    const local = r.u32();
    const at = r.pos;
    r.name();
    if (variant || local < params) names.push([variant && local >= params ? local + 1 : local, at, r.pos]);
  }
  w.uleb(names.length);
  for (const [local, at, end] of names) {
    w.uleb(local);
    w.copy(buf, at, end);
  }
}

function isThreaded(m: RewriteInfo, idx: number): boolean {
  const d = idx - m.funcImports;
  return d >= 0 && d < m.definedFunctions && m.threadedFn[d] === 1;
}

function rollback(w: Writer, mark: number): false {
  w.pos = mark;
  return false;
}
