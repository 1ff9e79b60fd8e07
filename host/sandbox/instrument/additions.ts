/**
 * What the instrumenter adds to every module: the `refuel` import and its
 * type, the `gate` import and its type (modules that import functions or may
 * catch exceptions), the fuel global and its export. The sandbox runtime
 * binds to exactly these names (see docs/sandbox-instrumentation.md).
 */
import { GATE_NAME, writeGateType } from './hostcalls.js';
import type { RewriteInfo } from './module-info.js';
import { writeVariantTypes } from './threaded.js';
import type { Writer } from './writer.js';

/** The import and export names: the runtime's side of the contract. */
export const REFUEL_MODULE = 'wasmhooks:sandbox';
export const REFUEL_NAME = 'refuel';
export const FUEL_EXPORT = '__wasmhooks_fuel';
/**
 * With `deferStart` (InstrumentOptions), the module's start function, exported under this name instead
 * of run by the engine inside instantiation: the host calls it once it holds the instance, and so the
 * fuel global that its `refuel` reads (docs/sandbox-instrumentation.md, "The start function").
 */
export const START_FUNCTION_EXPORT = '__wasmhooks_start_function';

const utf8 = new TextEncoder();

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
  const variants = writeVariantTypes(m, w);
  if (m.refuelSlowType < 0) return 2 + m.blockTypes.size + variants;
  w.bytes(new Uint8Array([0x60, 0x01, 0x7e, 0x01, 0x7e])); // $refuel_slow: (i64) -> i64
  return 3 + m.blockTypes.size + variants;
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

/** Our exports, appended to the export section: the fuel global, and a deferred start function; returns how many. */
export function writeFuelExport(m: RewriteInfo, w: Writer): number {
  writeName(w, FUEL_EXPORT);
  w.u8(0x03);
  w.uleb(m.globals);
  if (m.deferredStart < 0) return 1;
  writeName(w, START_FUNCTION_EXPORT);
  w.u8(0x00);
  w.uleb(m.deferredStart);
  return 2;
}

