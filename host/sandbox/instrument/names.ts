import type { RewriteInfo } from './module-info.js';
import { Reader } from './reader.js';
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
      const contentStart = w.openSize();
      const n = sub.u32();
      let named = id !== FUNCTION_NAMES;
      w.uleb(id === FUNCTION_NAMES ? n + m.added : n);
      for (let i = 0; i < n; i++) {
        const idx = sub.u32();
        if (!named && idx >= m.funcImports) {
          writeRefuelName(m, w);
          named = true;
        }
        w.uleb(idx >= m.funcImports ? idx + m.added : idx);
        const start = sub.pos;
        if (id === FUNCTION_NAMES) sub.name();
        else {
          const inner = sub.u32();
          for (let j = 0; j < inner; j++) {
            sub.u32();
            sub.name();
          }
        }
        w.copy(r.buf, start, sub.pos);
      }
      if (!named) writeRefuelName(m, w);
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

function rollback(w: Writer, mark: number): false {
  w.pos = mark;
  return false;
}
