/**
 * The walker's handlers for calls and the ways out of a function: `call`,
 * `return_call`, `ref.func` (renumbered), `call_indirect`, `call_ref`,
 * `return`, `unreachable`, throws and indirect tail calls. Around each, the
 * fuel counter is kept where the code on the other side reads it: written
 * back to the global, handed to a variant and taken from its result
 * (threaded.ts), or returned by a variant. Each returns false when the
 * function cannot be written in the form being tried (the caller retries).
 */
import { pushCounter, writeBack } from './fuel.js';
import { exceptionOp } from './handlers.js';
import { GateKind, chargeDirectCall, funcIndex, isAccessor, writeGateCall } from './hostcalls.js';
import { lebEnd, readLeb, skip } from './leb.js';
import { THROW_FUEL } from './opcodes.js';
import { variantIndex } from './threaded.js';
import type { Walk } from './walk.js';

/** `call` (0x10), `return_call` (0x12), `ref.func` (0xd2). */
export function walkFunc(s: Walk, op: number): boolean {
  const { m, w, buf } = s;
  const idx = readLeb(buf, s.p);
  // Calls to imports sync too (most go through a wrapper that charges the global, hostcalls.ts),
  // except direct calls to Extism's accessors, which are charged inline and never run wasm.
  const accessor = op === 0x10 && isAccessor(m, idx);
  if (op === 0x12) {
    m.tailCalls = true;
    if (s.threaded) return false; // see RewriteInfo.tailCalls
  }
  // A direct call to a function with a variant hands it the counter and takes it back from its result.
  const variant = s.local && op === 0x10 ? variantIndex(m, idx) : -1;
  const sync = s.local && op !== 0xd2 && !accessor && variant < 0;
  if (s.instrument && accessor) {
    s.flush(s.at);
    chargeDirectCall(m, w, idx);
    s.unchecked = 0; // a check
  }
  if (sync || variant >= 0) {
    s.flush(s.at);
    if (sync) writeBack(m, w);
    else pushCounter(m, w);
  }
  const to = variant >= 0 ? variant : funcIndex(m, idx, op === 0x10);
  if (to !== idx) {
    s.flush(s.p);
    w.uleb(to);
    s.from = lebEnd;
  }
  s.p = lebEnd;
  // An accessor returns without running wasm and leaves the local current: its block goes on.
  if (op === 0x10 && s.instrument && !accessor) {
    s.flush(s.p);
    s.afterCall(variant >= 0);
  } else if (op === 0x12 && s.instrument) {
    s.escape(-1);
    s.next(-1);
    s.dead();
  }
  return true;
}

/** `unreachable`, `return`, `throw`, `rethrow`, `throw_ref`, `return_call_indirect`, `return_call_ref`. */
export function walkExit(s: Walk, op: number): boolean {
  const { m, w, buf } = s;
  if (op === 0x13 || op === 0x15) {
    m.tailCalls = true;
    if (s.threaded) return false; // see RewriteInfo.tailCalls
  }
  if (op >= 0x08 && op <= 0x0a) {
    exceptionOp(m, s.r, op, s.at); // throw, rethrow, throw_ref
    // Charged as what the engine spends on it (opcodes.ts THROW_FUEL), before the counter is written back.
    if (s.instrument) s.checkHere(THROW_FUEL), writeGateCall(m, w, GateKind.Throw);
  }
  if (s.local) {
    s.flush(s.at);
    if (s.threaded && op === 0x0f) pushCounter(m, w);
    else writeBack(m, w);
  }
  if (op === 0x08 || op === 0x09 || op === 0x15) s.p = skip(buf, s.p, s.end);
  else if (op === 0x13) s.p = skip(buf, skip(buf, s.p, s.end), s.end);
  if (s.instrument) {
    if (op !== 0x00) s.escape(-1); // a trap ends the call: it skips nothing that matters
    s.next(-1);
    s.dead();
  }
  return true;
}

/** `call_indirect` (0x11), `call_ref` (0x14): the callee reads the global. */
export function walkCallIndirect(s: Walk, op: number): void {
  if (s.local) {
    s.flush(s.at);
    writeBack(s.m, s.w);
  }
  s.p = skip(s.buf, s.p, s.end);
  if (op === 0x11) s.p = skip(s.buf, s.p, s.end);
  if (s.instrument) {
    s.flush(s.p);
    s.afterCall(false);
  }
}
