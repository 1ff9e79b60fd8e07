/**
 * Branch hints for the fuel checks: a `metadata.code.branch_hint` custom
 * section (the WebAssembly branch-hinting proposal) that marks the `if` of
 * every check the walker writes as unlikely taken (it is taken only when the
 * counter runs out and `refuel` is called).
 *
 * Why: a check's cold arm calls `refuel`, and an engine that does not know
 * the arm is cold allocates registers as if the call were on the hot path.
 * In a large function with many live values (sql.js's bytecode interpreter,
 * `sqlite3VdbeExec`) that spills values across the whole loop. V8 with branch
 * hints (Deno 2.9's V8 15) moves such arms out of line; measured on sql.js,
 * 1.32× → 1.13× over the uninstrumented module (docs/sandbox-instrumentation.md,
 * "Branch hints"). Engines without the proposal (Node 20's V8 11.3, Bun's
 * JavaScriptCore) ignore the section. Hints never change what a module does.
 *
 * The section must come before the code section, so it is built after the
 * code is written and spliced in front of it (index.ts). Offsets are from the
 * start of each function body (its locals), in increasing order; functions in
 * increasing index order.
 */
import type { Writer } from './writer.js';

export const BRANCH_HINT_SECTION = 'metadata.code.branch_hint';

/** Offsets of the check `if`s in the body being written: absolute writer positions, and where the body's content starts. */
let current: number[] = [];
let recording = false;
/** Hints of finished bodies: function index, then its relative offsets. */
const done: { func: number; at: number[] }[] = [];

/** Forgets every hint (a new module, or the code section written again). */
export function resetHints(): void {
  done.length = 0;
  current = [];
  recording = false;
}

/** Starts recording the hints of one function body. */
export function beginHints(): void {
  current = [];
  recording = true;
}

/** Records that the `if` of a check is at writer position `pos` (only while a body is being recorded). */
export function hintUnlikely(pos: number): void {
  if (recording) current.push(pos);
}

/** Drops the hints of the body being written (it is written again). */
export function discardHints(): void {
  current = [];
}

/**
 * Ends the body of function `func` (-1: abandoned, its hints dropped) whose content (locals) started at writer
 * position `contentStart`; `shift` bytes were inserted before every hinted
 * instruction after they were recorded (a local declared late).
 */
export function endHints(func: number, contentStart: number, shift: number): void {
  recording = false;
  if (func >= 0 && current.length > 0) done.push({ func, at: current.map((p) => p - contentStart + shift) });
  current = [];
}

/** Writes the whole custom section (id, size, name, entries) at `w`'s position; writes nothing if there is no hint. */
export function writeHintSection(w: Writer): void {
  if (done.length === 0) return;
  done.sort((a, b) => a.func - b.func);
  w.u8(0);
  const start = w.openSize();
  const name = new TextEncoder().encode(BRANCH_HINT_SECTION);
  w.uleb(name.length);
  w.bytes(name);
  w.uleb(done.length);
  for (const { func, at } of done) {
    w.uleb(func);
    w.uleb(at.length);
    for (const offset of at) {
      w.uleb(offset);
      w.u8(1); // the hint's size
      w.u8(0); // unlikely
    }
  }
  w.closeSize(start);
}
