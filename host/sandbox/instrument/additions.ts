/**
 * What the instrumenter adds to every module: the `refuel` import and its
 * type, the fuel global and its export. The sandbox runtime binds to exactly
 * these names (see docs/sandbox-instrumentation.md).
 */
import type { ModuleInfo } from './code.js';
import type { Writer } from './writer.js';

/** The import and export names: the runtime's side of the contract. */
export const REFUEL_MODULE = 'wasmhooks:sandbox';
export const REFUEL_NAME = 'refuel';
export const FUEL_EXPORT = '__wasmhooks_fuel';

const utf8 = new TextEncoder();

export interface RewriteInfo extends ModuleInfo {
  /** Type index of our `() -> i64`. */
  refuelType: number;
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

export function writeRefuelType(w: Writer): void {
  w.bytes(new Uint8Array([0x60, 0x00, 0x01, 0x7e]));
}

export function writeRefuelImport(m: RewriteInfo, w: Writer): void {
  writeName(w, REFUEL_MODULE);
  writeName(w, REFUEL_NAME);
  w.u8(0x00);
  w.uleb(m.refuelType);
}

export function writeFuelGlobal(w: Writer): void {
  w.bytes(new Uint8Array([0x7e, 0x01, 0x42, 0x00, 0x0b])); // mut i64 = 0
}

export function writeFuelExport(m: RewriteInfo, w: Writer): void {
  writeName(w, FUEL_EXPORT);
  w.u8(0x03);
  w.uleb(m.globals);
}

