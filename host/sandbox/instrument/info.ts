/**
 * Facts about the module gathered before anything is written: index spaces
 * (function imports, globals, types), parameter counts (to place a scratch
 * local after them) and which memories are 64-bit.
 */
import { checkInstanceCounts, checkTagType, constArithmetic, scanData } from './counts.js';
import { refuseExceptions } from './handlers.js';
import { planImports } from './hostcalls.js';
import { Reader } from './reader.js';
import { planMemories } from './memories.js';
import { planTables, skipConstExpr } from './tables.js';
import { Writer } from './writer.js';
import type { FuncType, RewriteInfo, Section } from './module-info.js';

export type { Section } from './module-info.js';

const TYPE = 1, IMPORT = 2, FUNCTION = 3, TABLE = 4, MEMORY = 5, GLOBAL = 6, EXPORT = 7, START = 8, DATA = 11, TAG = 13;

/** What `instrument` was asked for, as `readInfo` needs it. */
export interface Caps {
  maxMemoryPages: number;
  maxTableElements: number;
  allowExceptions: boolean;
  /** Imports whose host functions check for themselves (InstrumentOptions.selfChecked). */
  selfChecked: Readonly<Record<string, readonly string[]>>;
}

export function readInfo(wasm: Uint8Array, sections: Section[], caps: Caps): RewriteInfo {
  let funcImports = 0, globals = 0, exports = 0, passiveData = 0, tags = 0, allImports = 0, startFunction = -1;
  const consts = { constArithmetic: 0 };
  let types: FuncType[] = [];
  let funcTypes: number[] = [];
  const memoryMins: number[] = [];
  const imports: { module: string; name: string; type: number }[] = [];
  const tableMins: number[] = [];
  const tableTypes: Uint8Array[] = [];
  let dataLengths: number[] = [];
  for (const s of sections) {
    const r = new Reader(wasm, s.start, s.end);
    r.where = `section ${s.id}`;
    if (s.id === TYPE) types = readTypes(r);
    else if (s.id === FUNCTION) funcTypes = Array.from({ length: r.u32() }, () => r.u32());
    else if (s.id === MEMORY) for (let n = r.u32(); n > 0; n--) memoryMins.push(memoryMin(r));
    else if (s.id === TABLE) for (let n = r.u32(); n > 0; n--) tableMins.push(tableMin(r, tableTypes));
    else if (s.id === GLOBAL) globals += r.u32();
    else if (s.id === EXPORT) exports = r.u32();
    else if (s.id === START) startFunction = r.u32();
    else if (s.id === DATA) {
      const data = scanData(r);
      passiveData = data.passive;
      dataLengths = data.lengths;
      constArithmetic(consts, r, data.arithmetic);
    }
    else if (s.id === TAG) {
      if (!caps.allowExceptions) refuseExceptions(r, 'a tag section');
      for (let n = r.u32(); n > 0; n--, tags++) r.u8(), checkTagType(r, tags, types[r.u32()]);
    }
    else if (s.id === IMPORT) {
      const n = r.u32();
      allImports += n;
      for (let i = 0; i < n; i++) {
        const mod = r.name();
        const field = r.name();
        const kind = r.u8();
        if (kind === 0x00) {
          funcImports++;
          imports.push({ module: text(wasm, mod), name: text(wasm, field), type: r.u32() });
        } else if (kind === 0x01) tableMins.push(tableMin(r, tableTypes, false));
        else if (kind === 0x02) memoryMins.push(memoryMin(r));
        else if (kind === 0x03) globals++, r.skipValType(), r.u8();
        else if (kind === 0x04) {
          if (!caps.allowExceptions) refuseExceptions(r, 'an imported tag');
          r.u8(), checkTagType(r, tags++, types[r.u32()]);
        } else r.fail(`unknown import kind ${kind}`);
      }
    }
  }
  checkInstanceCounts({ imports: allImports, memories: memoryMins.length, tables: tableMins.length, globals, exports, 'passive data segments': passiveData, tags });
  const calls = planImports(imports, types, caps);
  return {
    funcImports,
    globals,
    startFunction,
    deferredStart: -1,
    refuelType: types.length,
    gateType: types.length + 1,
    added: calls.needsGate ? 2 : 1,
    definedFunctions: funcTypes.length,
    imports: calls.plans,
    importTypes: imports.map((i) => i.type),
    blockTypes: blockTypes(types, caps.allowExceptions),
    funcTypes,
    types,
    tables: planTables(tableMins, caps.maxTableElements),
    tableTypes,
    tablesSeen: 0,
    maxTableElements: caps.maxTableElements,
    allowExceptions: caps.allowExceptions,
    handlerGates: false,
    maxMemoryPages: caps.maxMemoryPages,
    memoryCaps: planMemories(memoryMins, caps.maxMemoryPages),
    memories: 0,
    functionsInstrumented: 0,
    exact: false,
    checksInserted: 0,
    params: funcTypes.map((t) => types[t]?.params.length ?? 0),
    tempLocal: -1,
    fuelLocal: -1,
    tempLocals: 0,
    tempUsed: 0,
    refTemps: [],
    localsFuel: 0,
    threaded: false,
    refuelSlow: -1,
    refuelSlowType: -1,
    variantType: new Int32Array(types.length).fill(-1),
    variantOf: new Int32Array(funcTypes.length).fill(-1),
    variants: 0,
    threadedFn: new Uint8Array(funcTypes.length),
    shiftLocals: -1,
    tailCalls: false,
    constArithmetic: consts.constArithmetic,
    dataLengths,
    elemLengths: [],
    ...checkTemplate(globals, funcImports),
  };
}


/** Every function type. GC type forms (rec groups, structs, arrays) are refused. */
function readTypes(r: Reader): FuncType[] {
  const out: FuncType[] = [];
  for (let n = r.u32(); n > 0; n--) {
    const form = r.u8();
    if (form !== 0x60) r.fail(`type form 0x${form.toString(16)} is not a function type (GC types are not supported)`, r.pos - 1);
    const params: number[] = [];
    for (let i = r.u32(); i > 0; i--) {
      params.push(r.buf[r.pos]!);
      r.skipValType();
    }
    const resultCount = r.u32();
    const start = r.pos;
    for (let i = 0; i < resultCount; i++) r.skipValType();
    out.push({ params, results: r.buf.slice(start, r.pos), resultCount });
  }
  return out;
}

/**
 * With exception handling allowed, each function body is wrapped in a block
 * (handlers.ts); a function type with several results needs a `[] -> results`
 * type for that block, appended after ours. Maps type index to that index.
 */
function blockTypes(types: FuncType[], allowExceptions: boolean): Map<number, number> {
  const out = new Map<number, number>();
  if (!allowExceptions) return out;
  types.forEach((t, i) => {
    if (t.resultCount > 1) out.set(i, types.length + 2 + out.size);
  });
  return out;
}

/** A memory's minimum, in pages. 64-bit memories are refused: their bulk operations take i64 lengths, which the sandbox does not meter. */
function memoryMin(r: Reader): number {
  const at = r.pos;
  const { flags, min } = r.limits();
  if (flags & 4) r.fail('64-bit memories (memory64) are not supported by the sandbox', at);
  return min;
}

/** A table's minimum; its element type is pushed on `types`. */
function tableMin(r: Reader, types: Uint8Array[], defined = true): number {
  const at = r.pos;
  const withInit = defined && r.buf[r.pos] === 0x40;
  if (withInit) r.skip(2);
  const typeAt = r.pos;
  r.skipValType();
  types.push(r.buf.slice(typeAt, r.pos));
  const { flags, min } = r.limits();
  if (flags & 4) r.fail('64-bit tables (table64) are not supported by the sandbox', at);
  if (withInit) skipConstExpr(r);
  return min;
}

const utf8d = new TextDecoder('utf-8', { fatal: false });
function text(buf: Uint8Array, range: [number, number]): string {
  return utf8d.decode(buf.subarray(range[0], range[1]));
}

/**
 * `global.get f; i64.const c; i64.sub; global.set f; global.get f; i64.const 0;
 * i64.lt_s; if; call $refuel; global.set f; end`, with c a padded 5-byte LEB128.
 */
function checkTemplate(fuel: number, refuel: number): { check: Uint8Array; checkPatch: number; checkIf: number } {
  const w = new Writer(32);
  w.u8(0x23), w.uleb(fuel);
  w.u8(0x42);
  const checkPatch = w.pos;
  w.bytes(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x00]));
  w.u8(0x7d);
  w.u8(0x24), w.uleb(fuel);
  w.u8(0x23), w.uleb(fuel);
  const checkIf = w.pos + 3;
  w.bytes(new Uint8Array([0x42, 0x00, 0x53, 0x04, 0x40]));
  w.u8(0x10), w.uleb(refuel);
  w.u8(0x24), w.uleb(fuel);
  w.u8(0x0b);
  return { check: w.result(), checkPatch, checkIf };
}
