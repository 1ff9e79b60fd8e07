/**
 * Host calls: every function the module imports is charged fuel and, unless
 * the host's work for it is constant (Extism's accessors, `output_set`),
 * checked against the stop, the abort signal and the deadline before it runs:
 * by the gate, or by the host function itself where the embedder says it
 * checks (`selfChecked`: the sandbox engine's `alloc`).
 *
 * Each imported function gets a wrapper, a defined function of the same type
 * appended after the module's own: it calls the `gate` import (the check),
 * charges the call's fuel (a constant, plus the length operand or the block
 * length where the host's work grows with it), refuels if that overdraws,
 * then calls the import. Every reference to an import that could reach it
 * indirectly (ref.func, element segments, exports, the start function,
 * return_call) names the wrapper instead, so call_indirect and call_ref
 * cannot bypass it. A direct `call` to a constant-time accessor keeps the
 * import and gets the charge inline (no extra call on the hot path of a
 * plugin reading its input); a direct `call` to any other import calls the
 * wrapper.
 */
import type { FuncType, ImportPlan, RewriteInfo } from './module-info.js';
import { writeCheck, writeRefuelIfNegative } from './fuel.js';
import { beginHints, endHints } from './hints.js';
import { invalid } from './reader.js';
import { patchSleb5, type Writer } from './writer.js';
import { BULK_BYTES_PER_FUEL_LOG2 } from './opcodes.js';

/** The gate import: `wasmhooks:sandbox` `gate: (kind: i32, arg: i64) -> i32`, the extra fuel to charge. */
export const GATE_NAME = 'gate';

/** What a gate call is for; the host's side (sandbox/gate.ts) switches on it. */
export const enum GateKind {
  /** An exception handler is entered (handlers.ts): throw if the call was stopped. */
  Handler = 0,
  /** A host call: check stop, abort and deadline; no extra fuel. */
  Call = 1,
  /** A host call reading an Extism block at `arg`: the checks, and 1 fuel per byte of that block (HOST_BYTES_PER_FUEL_LOG2). */
  Block = 2,
  /**
   * A throw, rethrow or throw_ref is about to unwind (modules with exceptions allowed): the checks, and
   * the clock read that the next handler's gate charges the unwind by (see `THROW_FUEL`, opcodes.ts).
   */
  Throw = 3,
}

/** Fuel of a call to a constant-time Extism accessor (input_load_u64, store_u8, …). */
export const HOST_CALL_FUEL = 100;
/** Fuel of any other host call, before its length- or block-dependent part. */
export const GATED_CALL_FUEL = 1_000;
/** Length operands (alloc, output_set) and blocks pay what bulk memory pays per byte: one rate for moving bytes. */
export const HOST_BYTES_PER_FUEL_LOG2 = BULK_BYTES_PER_FUEL_LOG2;

const EXTISM = 'extism:host/env';
const CONSTANT_TIME = new Set([
  'input_load_u8', 'input_load_u64', 'load_u8', 'load_u64', 'store_u8', 'store_u64',
  'input_length', 'input_offset', 'length', 'length_unsafe', 'free', 'error_get', 'get_log_level', 'http_status_code',
]);
/** Extism functions whose work grows with a length operand: its parameter index. */
const LENGTH_PARAM: Record<string, number> = { alloc: 0, output_set: 1 };
/**
 * Extism functions whose host work is constant whatever their operands, so
 * not gated: `output_set` records which block is the output (the host reads
 * it once, after the call, under maxOutputBytes). Still charged through its
 * wrapper, length included: a plugin calling it in a loop pays at least
 * GATED_CALL_FUEL a call, ten times an accessor, and meets the deadline at
 * every refuel like any other code (test/sandbox/sandbox.hostcall-loop.test.ts).
 */
const CONSTANT_WORK = new Set(['output_set']);
/** Host functions that read blocks the plugin passes by address: those parameters. */
const BLOCK_PARAMS: Record<string, Record<string, number[]>> = {
  [EXTISM]: {
    config_get: [0], var_get: [0], var_set: [0, 1], error_set: [0], http_request: [0, 1],
    log_warn: [0], log_info: [0], log_debug: [0], log_error: [0], log_trace: [0],
  },
  'wasmhooks:host': { progress: [0] },
};

const I32 = 0x7f, I64 = 0x7e, F32 = 0x7d, F64 = 0x7c;

export function planImports(
  imports: { module: string; name: string; type: number }[],
  types: FuncType[],
  caps: { allowExceptions: boolean; selfChecked: Readonly<Record<string, readonly string[]>> },
): { plans: ImportPlan[]; needsGate: boolean } {
  const plans = imports.map(({ module, name, type }) => {
    const params = types[type]?.params ?? [];
    const extism = module === EXTISM;
    const length = extism ? (LENGTH_PARAM[name] ?? -1) : -1;
    const blockParams = BLOCK_PARAMS[module]?.[name] ?? [];
    // A float size or address reaches the host as a number it still takes (BigInt(6e7), cc.alloc(6e7)),
    // but the charge below reads integers only: an f64 alloc would make a 60 MiB block for flat fuel.
    for (const p of [length, ...blockParams]) {
      if (p >= 0 && (params[p] === F32 || params[p] === F64)) {
        invalid(`the module imports ${module} ${name} with a float parameter ${p}, where the Extism ABI has an integer (its cost could not be charged)`);
      }
    }
    const blocks = blockParams.filter((p) => params[p] === I64);
    const cheap = extism && CONSTANT_TIME.has(name);
    return {
      cheap,
      gated: !cheap && !(extism && CONSTANT_WORK.has(name)) && !(Object.hasOwn(caps.selfChecked, module) && caps.selfChecked[module]!.includes(name)),
      length: params[length] === I64 || params[length] === I32 ? length : -1,
      blocks,
      params: params.length,
    };
  });
  return { plans, needsGate: caps.allowExceptions || plans.some((p) => p.gated || p.blocks.length > 0) };
}

/**
 * The index a reference to function `idx` of the original module gets:
 * defined functions move past our imports; an import becomes its wrapper,
 * except as the target of a direct `call` to a constant-time accessor.
 */
export function funcIndex(m: RewriteInfo, idx: number, directCall: boolean): number {
  if (idx >= m.funcImports) {
    // One past the module's own functions would reach a wrapper (the engine would refuse it; so do we).
    if (idx >= m.funcImports + m.definedFunctions) invalid(`function index ${idx} out of range (the module has ${m.funcImports + m.definedFunctions})`);
    return idx + m.added;
  }
  if (directCall && m.imports[idx]!.cheap) return idx;
  return m.funcImports + m.added + m.definedFunctions + idx;
}

/** Function `idx` is an imported Extism constant-time accessor (charged inline, not gated). */
export function isAccessor(m: RewriteInfo, idx: number): boolean {
  return idx < m.funcImports && m.imports[idx]!.cheap;
}

/** Before a direct `call` to accessor `idx`: its inline charge. */
export function chargeDirectCall(m: RewriteInfo, w: Writer, idx: number): void {
  if (!isAccessor(m, idx)) return;
  // The check first: writing it may grow (move) the buffer, so `w.buf` is read after it.
  const at = writeCheck(m, w, false);
  patchSleb5(w.buf, at, HOST_CALL_FUEL);
  m.checksInserted++;
}

/** The gate import's type, `(i32, i64) -> i32`. */
export function writeGateType(w: Writer): void {
  w.bytes(new Uint8Array([0x60, 0x02, I32, I64, 0x01, I32]));
}

/** `i32.const kind; i64.const 0; call $gate; drop`: a gate call charging nothing. */
export function writeGateCall(m: RewriteInfo, w: Writer, kind: GateKind): void {
  w.u8(0x41), w.u8(kind);
  w.u8(0x42), w.u8(0x00);
  w.u8(0x10), w.uleb(m.funcImports + 1);
  w.u8(0x1a);
}

/** Appends one wrapper type index per imported function to the function section. */
export function writeWrapperTypes(m: RewriteInfo, w: Writer): void {
  for (const type of m.importTypes) w.uleb(type);
}

/** Appends the wrapper bodies to the code section. */
export function writeWrappers(m: RewriteInfo, w: Writer): void {
  m.imports.forEach((plan, i) => {
    const size = w.openSize();
    beginHints();
    w.u8(0x00); // no locals
    writeWrapperBody(m, w, plan, i);
    endHints(m.funcImports + m.added + m.definedFunctions + i, size, 0);
    w.closeSize(size);
  });
}

function writeWrapperBody(m: RewriteInfo, w: Writer, plan: ImportPlan, idx: number): void {
  const fuel = m.globals;
  const gate = m.funcImports + 1;
  if (plan.gated && plan.blocks.length === 0) writeGateCall(m, w, GateKind.Call);
  w.u8(0x23), w.uleb(fuel);
  w.u8(0x42), sleb(w, plan.cheap ? HOST_CALL_FUEL : GATED_CALL_FUEL);
  w.u8(0x7d); // i64.sub
  for (const p of plan.blocks) {
    w.u8(0x41), w.u8(GateKind.Block);
    w.u8(0x20), w.uleb(p);
    w.u8(0x10), w.uleb(gate);
    w.u8(0xad), w.u8(0x7d); // i64.extend_i32_u; i64.sub
  }
  if (plan.length >= 0) {
    const i32 = m.types[m.importTypes[idx]!]!.params[plan.length] === I32;
    const cap = m.maxMemoryPages * 65_536;
    // min(length, cap) >> HOST_BYTES_PER_FUEL_LOG2: a length past the cap is refused by the host at once, so it costs no more.
    const operand = (): void => {
      w.u8(0x20), w.uleb(plan.length);
      if (i32) w.u8(0xad);
    };
    operand(), w.u8(0x42), sleb(w, cap), operand(), w.u8(0x42), sleb(w, cap);
    w.u8(0x54), w.u8(0x1b); // i64.lt_u; select
    if (HOST_BYTES_PER_FUEL_LOG2 > 0) w.u8(0x42), w.u8(HOST_BYTES_PER_FUEL_LOG2), w.u8(0x88); // i64.shr_u
    w.u8(0x7d);
  }
  w.u8(0x24), w.uleb(fuel);
  w.u8(0x23), w.uleb(fuel);
  writeRefuelIfNegative({ ...m, fuelLocal: -1 }, w);
  for (let p = 0; p < plan.params; p++) w.u8(0x20), w.uleb(p);
  w.u8(0x10), w.uleb(idx);
  w.u8(0x0b);
}

/** Signed LEB128 of a non-negative integer below 2^53. */
function sleb(w: Writer, v: number): void {
  for (;;) {
    const byte = v % 0x80;
    v = Math.floor(v / 0x80);
    if (v === 0 && (byte & 0x40) === 0) return w.u8(byte);
    w.u8(byte | 0x80);
  }
}
