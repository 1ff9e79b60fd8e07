/**
 * Exception handling. The sandbox stops a call by throwing a JS exception out
 * of `refuel` or `gate`, and wasm exception handlers (`catch_all`,
 * `try_table`, legacy `catch`) can catch it. So modules that use exception
 * handling are refused unless the embedder opts in (`allowExceptions`); with
 * the opt-in, every place a handler can resume calls the gate, which throws
 * the stop again (the meter's stop is sticky): after `catch` and
 * `catch_all`, and, in functions with handlers, after every block's `end`
 * and at every loop header (the targets a `try_table` catch clause may
 * branch to), with the function body wrapped in one more block so that a
 * catch clause naming the body's label also lands on a gate.
 */
import type { RewriteInfo } from './module-info.js';
import { GateKind, writeGateCall } from './hostcalls.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

const NAMES: Record<number, string> = {
  0x06: 'try', 0x07: 'catch', 0x08: 'throw', 0x09: 'rethrow', 0x0a: 'throw_ref', 0x18: 'delegate', 0x19: 'catch_all', 0x1f: 'try_table',
};

/** Refuses exception-handling opcode `op` at `at` unless the module may use exceptions. */
export function exceptionOp(m: RewriteInfo, r: Reader, op: number, at: number): void {
  if (!m.allowExceptions) refuseExceptions(r, `\`${NAMES[op] ?? op}\``, at);
}

export function refuseExceptions(r: Reader, what: string, at = r.pos): never {
  return r.fail(
    `the module uses wasm exception handling (${what}), which the sandbox refuses by default because a handler could catch its stop; ` +
      'load it with allowExceptions: true to accept it (every handler then re-raises a stop)',
    at,
  );
}

/** A gate call where a handler may resume, in functions that have handlers. */
export function handlerGate(m: RewriteInfo, w: Writer): void {
  if (m.handlerGates) writeGateCall(m, w, GateKind.Handler);
}

/** `block <the function's result type>`: opens the block that wraps a body with handlers. */
export function openBodyBlock(m: RewriteInfo, w: Writer, func: number): void {
  const type = m.funcTypes[func]!;
  const t = m.types[type]!;
  w.u8(0x02);
  if (t.resultCount === 0) w.u8(0x40);
  else if (t.resultCount === 1) w.bytes(t.results);
  else w.uleb(m.blockTypes.get(type)!);
}

/** After the wrapped body's final `end` (which now closes the block): the gate, and the function's own `end`. */
export function closeBodyBlock(m: RewriteInfo, w: Writer): void {
  writeGateCall(m, w, GateKind.Handler);
  w.u8(0x0b);
}
