/**
 * What the instrumenter adds to every module: the `refuel` import and its
 * type, the `gate` import and its type (modules that import functions or may
 * catch exceptions), the fuel global and its export. The sandbox runtime
 * binds to exactly these names (see docs/sandbox-instrumentation.md).
 */
import type { ModuleInfo } from './code.js';
import { GATE_NAME, writeGateType, type ImportPlan } from './hostcalls.js';
import type { FuncType } from './info.js';
import type { Writer } from './writer.js';

/** The import and export names: the runtime's side of the contract. */
export const REFUEL_MODULE = 'wasmhooks:sandbox';
export const REFUEL_NAME = 'refuel';
export const FUEL_EXPORT = '__wasmhooks_fuel';

const utf8 = new TextEncoder();

export interface RewriteInfo extends ModuleInfo {
  /** Type index of our `() -> i64`. */
  refuelType: number;
  /** Type index of the gate's `(i32, i64) -> i32` (written only if `added` is 2). */
  gateType: number;
  /** Function imports we add: refuel, and the gate if needed. Defined functions shift by this. */
  added: number;
  /** Defined functions of the original module; the import wrappers come after them. */
  definedFunctions: number;
  /** Per original function import: how calls to it are charged (hostcalls.ts). */
  imports: ImportPlan[];
  importTypes: number[];
  types: FuncType[];
  funcTypes: number[];
  /** Type index → the index of the `[] -> results` type we add for it (multi-result types, with exceptions allowed). */
  blockTypes: Map<number, number>;
  /** Per table (imported first), its capped maximum; `tablesSeen` counts them while rewriting. */
  tables: number[];
  tablesSeen: number;
  maxTableElements: number;
  /** Exception handling may be used (the opt-in); refused otherwise. */
  allowExceptions: boolean;
  /** The function being rewritten gets gates where handlers may resume (handlers.ts). */
  handlerGates: boolean;
  maxMemoryPages: number;
  /** Memories seen so far (imported, then defined), for messages. */
  memories: number;
  functionsInstrumented: number;
  /** The exact-count reference mode (exact.ts) instead of the block rule. */
  exact: boolean;
}

function writeName(w: Writer, s: string): void {
  const b = utf8.encode(s);
  w.uleb(b.length);
  w.bytes(b);
}

/** Our types, appended to the type section; returns how many. */
export function writeRefuelType(m: RewriteInfo, w: Writer): number {
  w.bytes(new Uint8Array([0x60, 0x00, 0x01, 0x7e]));
  writeGateType(w);
  for (const [type] of m.blockTypes) {
    const t = m.types[type]!;
    w.u8(0x60), w.u8(0x00), w.uleb(t.resultCount), w.bytes(t.results);
  }
  return 2 + m.blockTypes.size;
}

/** Our imports, appended to the import section; returns how many. */
export function writeRefuelImport(m: RewriteInfo, w: Writer): number {
  writeName(w, REFUEL_MODULE);
  writeName(w, REFUEL_NAME);
  w.u8(0x00);
  w.uleb(m.refuelType);
  if (m.added < 2) return 1;
  writeName(w, REFUEL_MODULE);
  writeName(w, GATE_NAME);
  w.u8(0x00);
  w.uleb(m.gateType);
  return 2;
}

export function writeFuelGlobal(w: Writer): void {
  w.bytes(new Uint8Array([0x7e, 0x01, 0x42, 0x00, 0x0b])); // mut i64 = 0
}

export function writeFuelExport(m: RewriteInfo, w: Writer): void {
  writeName(w, FUEL_EXPORT);
  w.u8(0x03);
  w.uleb(m.globals);
}

