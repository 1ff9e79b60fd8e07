/**
 * Facts about the module gathered before anything is written: index spaces
 * (function imports, globals, types), parameter counts (to place a scratch
 * local after them) and which memories are 64-bit.
 */
import type { RewriteInfo } from './additions.js';
import { Reader } from './reader.js';
import { Writer } from './writer.js';

export interface Section {
  id: number;
  start: number;
  end: number;
}

const TYPE = 1, IMPORT = 2, FUNCTION = 3, MEMORY = 5, GLOBAL = 6;

export function readInfo(wasm: Uint8Array, sections: Section[], maxMemoryPages: number): RewriteInfo {
  let funcImports = 0, globals = 0;
  let typeParams: number[] = [];
  let funcTypes: number[] = [];
  const memory64: number[] = [];
  for (const s of sections) {
    const r = new Reader(wasm, s.start, s.end);
    r.where = `section ${s.id}`;
    if (s.id === TYPE) typeParams = readTypeParams(r);
    else if (s.id === FUNCTION) funcTypes = Array.from({ length: r.u32() }, () => r.u32());
    else if (s.id === MEMORY) for (let n = r.u32(); n > 0; n--) memory64.push(r.limits().flags & 4 ? 1 : 0);
    else if (s.id === GLOBAL) globals += r.u32();
    else if (s.id === IMPORT) {
      const n = r.u32();
      for (let i = 0; i < n; i++) {
        r.name();
        r.name();
        const kind = r.u8();
        if (kind === 0x00) funcImports++, r.skipLeb();
        else if (kind === 0x01) r.skipValType(), r.limits();
        else if (kind === 0x02) memory64.push(r.limits().flags & 4 ? 1 : 0);
        else if (kind === 0x03) globals++, r.skipValType(), r.u8();
        else if (kind === 0x04) r.u8(), r.skipLeb();
        else r.fail(`unknown import kind ${kind}`);
      }
    }
  }
  return {
    funcImports,
    globals,
    refuelType: typeParams.length,
    maxMemoryPages,
    memories: 0,
    functionsInstrumented: 0,
    exact: false,
    checksInserted: 0,
    params: funcTypes.map((t) => typeParams[t] ?? 0),
    memory64: Uint8Array.from(memory64),
    tempLocal: -1,
    fuelLocal: -1,
    tempUsed: false,
    ...checkTemplate(globals, funcImports),
  };
}

/** Parameter count of each function type. GC type forms (rec groups, structs, arrays) are refused. */
function readTypeParams(r: Reader): number[] {
  const out: number[] = [];
  for (let n = r.u32(); n > 0; n--) {
    const form = r.u8();
    if (form !== 0x60) r.fail(`type form 0x${form.toString(16)} is not a function type (GC types are not supported)`, r.pos - 1);
    const params = r.u32();
    for (let i = 0; i < params; i++) r.skipValType();
    for (let i = r.u32(); i > 0; i--) r.skipValType();
    out.push(params);
  }
  return out;
}

/**
 * `global.get f; i64.const c; i64.sub; global.set f; global.get f; i64.const 0;
 * i64.lt_s; if; call $refuel; global.set f; end`, with c a padded 5-byte LEB128.
 */
function checkTemplate(fuel: number, refuel: number): { check: Uint8Array; checkPatch: number } {
  const w = new Writer(32);
  w.u8(0x23), w.uleb(fuel);
  w.u8(0x42);
  const checkPatch = w.pos;
  w.bytes(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x00]));
  w.u8(0x7d);
  w.u8(0x24), w.uleb(fuel);
  w.u8(0x23), w.uleb(fuel);
  w.bytes(new Uint8Array([0x42, 0x00, 0x53, 0x04, 0x40]));
  w.u8(0x10), w.uleb(refuel);
  w.u8(0x24), w.uleb(fuel);
  w.u8(0x0b);
  return { check: w.result(), checkPatch };
}
