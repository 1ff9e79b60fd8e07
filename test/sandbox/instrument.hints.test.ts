// Branch hints (host/sandbox/instrument/hints.ts): the instrumenter marks the `if`
// of every fuel check it writes as unlikely, in a `metadata.code.branch_hint`
// section in front of the code section. Engines trust the offsets, so each must
// land on one of our checks, in the function it names; a module's own hints point
// into code we rewrote and must not survive.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { assemble } from './instrument-helpers.js';

const HINTS = 'metadata.code.branch_hint';

function leb(buf: Uint8Array, p: number): [number, number] {
  let value = 0, shift = 0, byte: number;
  do {
    byte = buf[p++]!;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, p];
}

function skipLimits(buf: Uint8Array, p: number): number {
  const flags = buf[p++]!;
  p = leb(buf, p)[1];
  return flags & 1 ? leb(buf, p)[1] : p;
}

interface Parsed {
  /** Section ids in order, custom sections by name. */
  order: (number | string)[];
  hintSections: number;
  hints: { func: number; offsets: number[] }[];
  /** Each hint's size and value, as "size,value". */
  payloads: Set<string>;
  funcImports: number;
  /** Each defined function's body: start (its locals) and end. */
  bodies: [number, number][];
}

function parse(b: Uint8Array): Parsed {
  const out: Parsed = { order: [], hintSections: 0, hints: [], payloads: new Set(), funcImports: 0, bodies: [] };
  let p = 8;
  while (p < b.length) {
    const id = b[p]!;
    const [size, start] = leb(b, p + 1);
    const end = start + size;
    if (id === 0) {
      const [n, q] = leb(b, start);
      const name = new TextDecoder().decode(b.subarray(q, q + n));
      out.order.push(name);
      if (name === HINTS) {
        out.hintSections++;
        let [count, t] = leb(b, q + n);
        for (; count > 0; count--) {
          let func: number, k: number;
          [func, t] = leb(b, t);
          [k, t] = leb(b, t);
          const offsets: number[] = [];
          for (; k > 0; k--) {
            let at: number;
            [at, t] = leb(b, t);
            out.payloads.add(`${b[t]},${b[t + 1]}`);
            t += 2;
            offsets.push(at);
          }
          out.hints.push({ func, offsets });
        }
        expect(t, 'the hint section ends where its size says').toBe(end);
      }
    } else out.order.push(id);
    if (id === 2) {
      let [n, r] = leb(b, start);
      for (; n > 0; n--) {
        for (let s = 0; s < 2; s++) {
          const [len, after] = leb(b, r);
          r = after + len;
        }
        const kind = b[r++]!;
        if (kind === 0) out.funcImports++, (r = leb(b, r)[1]);
        else if (kind === 1) r = skipLimits(b, r + 1);
        else if (kind === 2) r = skipLimits(b, r);
        else if (kind === 3) r += 2;
        else r = leb(b, r + 1)[1]; // tag
      }
    }
    if (id === 10) {
      let [n, r] = leb(b, start);
      for (; n > 0; n--) {
        const [len, body] = leb(b, r);
        out.bodies.push([body, body + len]);
        r = body + len;
      }
    }
    p = end;
  }
  return out;
}

/** Checks every hint of `wasm`'s instrumented form; returns how many landed in metered bodies (not import wrappers). */
function checkHints(bytes: Uint8Array, checksInserted: number, wrappers: [number, number]): number {
  const m = parse(bytes);
  expect(m.hintSections).toBe(1);
  expect([...m.payloads], 'each hint is one byte: 0, unlikely').toEqual(['1,0']);
  expect(m.order.indexOf(HINTS), 'the hints come before the code section').toBe(m.order.indexOf(10) - 1);
  let last = -1, inBodies = 0;
  for (const { func, offsets } of m.hints) {
    expect(func, 'functions in increasing order').toBeGreaterThan(last);
    last = func;
    const [start, end] = m.bodies[func - m.funcImports]!;
    let prev = -1;
    for (const at of offsets) {
      expect(at).toBeGreaterThan(prev);
      prev = at;
      const p = start + at;
      expect(p).toBeLessThan(end);
      // i64.const 0; i64.lt_s; if (empty block type): the check's test, as fuel.ts and the global-mode template write it.
      expect(Array.from(bytes.subarray(p - 3, p + 2)), `function ${func} offset ${at}`).toEqual([0x42, 0x00, 0x53, 0x04, 0x40]);
      if (func < wrappers[0] || func >= wrappers[1]) inBodies++;
    }
  }
  // Every check the walker wrote has its hint (the import wrappers' own checks are not counted in checksInserted).
  expect(inBodies).toBe(checksInserted);
  return inBodies;
}

const WAT = `(module
  (import "env" "log" (func $log (param i32)))
  (memory 1)
  (func $sum (export "sum") (param $n i32) (result i32) (local $i i32) (local $s i32)
    (loop $l
      (local.set $s (i32.add (local.get $s) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
    (call $log (local.get $s))
    (memory.fill (i32.const 0) (i32.const 7) (local.get $n))
    (local.get $s))
  (func (export "twice") (param $n i32) (result i32)
    (i32.add (call $sum (local.get $n)) (call $sum (local.get $n)))))`;

/** The function indices of the import wrappers: after the imports (ours included) and the defined functions. */
function wrapperRange(defined: number, imports: number, added: number): [number, number] {
  return [imports + added + defined, imports + added + defined + imports];
}

describe('branch hints on the fuel checks', () => {
  it('mark every check of a small module, in both metering modes, and the module still runs', async () => {
    const wasm = await assemble(WAT);
    for (const metering of ['fast', 'exact'] as const) {
      const { bytes, checksInserted } = instrument(wasm, { maxMemoryPages: 1, metering });
      expect(WebAssembly.validate(bytes)).toBe(true);
      expect(checkHints(bytes, checksInserted, wrapperRange(2, 1, 2))).toBeGreaterThan(0);
      const logged: number[] = [];
      const { instance } = await WebAssembly.instantiate(bytes, {
        env: { log: (x: number) => logged.push(x) },
        'wasmhooks:sandbox': { refuel: () => 1_000_000n, gate: () => 0 },
      });
      expect((instance.exports.twice as (n: number) => number)(10)).toBe(90);
      expect(logged).toEqual([45, 45]);
    }
  });

  it('mark every check of sql.js (threaded variants, import wrappers, forced checks)', async () => {
    const wasm = new Uint8Array(await readFile(new URL('../../node_modules/sql.js/dist/sql-wasm.wasm', import.meta.url)));
    const { bytes, checksInserted } = instrument(wasm, { maxMemoryPages: 65536 });
    const m = parse(wasm);
    const added = 2; // refuel and the gate
    checkHints(bytes, checksInserted, wrapperRange(m.bodies.length, m.funcImports, added));
    expect(checksInserted).toBeGreaterThan(4_000);
  });

  it('mark the checks of a module with tail calls (its code section is written twice)', async () => {
    const wasm = await assemble(`(module
      (func $even (export "even") (param $n i64) (result i32)
        (if (result i32) (i64.eqz (local.get $n)) (then (i32.const 1))
          (else (return_call $odd (i64.sub (local.get $n) (i64.const 1))))))
      (func $odd (param $n i64) (result i32)
        (if (result i32) (i64.eqz (local.get $n)) (then (i32.const 0))
          (else (return_call $even (i64.sub (local.get $n) (i64.const 1)))))))`);
    const { bytes, checksInserted } = instrument(wasm, { maxMemoryPages: 1 });
    expect(WebAssembly.validate(bytes)).toBe(true);
    checkHints(bytes, checksInserted, [Infinity, Infinity]);
    const { instance } = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel: () => 1_000_000n } });
    expect((instance.exports.even as (n: bigint) => number)(1001n)).toBe(0);
  });

  it('mark the checks inside chunked bulk operations, wherever the counter lives, also when the locals header grows past 127 groups', async () => {
    // 126/127/128 groups of one local each (alternating types, so none merge): the fuel local's group and
    // the scratch locals' group push the group count's LEB128 from one byte to two (code-section.ts).
    const fn = (groups: number, body: string, extra = '') =>
      `(func (export "f${groups}") (param i32 i32 i32) ${Array.from({ length: groups }, (_, i) => `(local ${i % 2 ? 'i64' : 'i32'})`).join(' ')} ${body})${extra}`;
    const ops = (handlers: boolean) => {
      const op = `(memory.fill (local.get 0) (local.get 1) (local.get 2))
        (memory.copy (i32.add (local.get 0) (i32.const 5)) (local.get 0) (local.get 2))
        (memory.init $seg (local.get 0) (i32.const 3) (i32.sub (local.get 2) (i32.const 1048076)))`;
      return handlers ? `(try (do ${op}) (catch_all))` : op;
    };
    const seg = 'abcdefghijklmnop'.repeat((1 << 20) / 16 + 100);
    for (const shape of ['threaded', 'tail', 'handlers', 'exact', 'exact handlers']) {
      const handlers = shape.includes('handlers');
      const funcs = [126, 127, 128].map((g) => fn(g, ops(handlers))).join('\n');
      const tail = shape === 'tail' ? '(func $t1 (return_call $t2)) (func $t2)' : '';
      const wasm = await assemble(`(module (memory (export "memory") 48) (data $seg "${seg}") ${funcs} ${tail})`);
      const metering = shape.startsWith('exact') ? 'exact' : 'fast';
      const { bytes, checksInserted } = instrument(wasm, { maxMemoryPages: 48, metering, allowExceptions: handlers });
      expect(WebAssembly.validate(bytes), shape).toBe(true);
      checkHints(bytes, checksInserted, [Infinity, Infinity]);
      const want = (await WebAssembly.instantiate(wasm)).instance;
      const got = (await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel: () => 1_500_000n, gate: () => 0 } })).instance;
      for (const g of [126, 127, 128]) {
        const args = [1000 + g, 0x41 + g, (2 << 20) + 333];
        (want.exports[`f${g}`] as (...a: number[]) => void)(...args);
        (got.exports[`f${g}`] as (...a: number[]) => void)(...args);
      }
      const a = new Uint8Array((want.exports.memory as WebAssembly.Memory).buffer);
      const b = new Uint8Array((got.exports.memory as WebAssembly.Memory).buffer);
      expect(b.findIndex((x, i) => x !== a[i]), shape).toBe(-1);
    }
  });

  it("drop a module's own hint section: its offsets point into code that was rewritten (hostile: hints on our checks' positions)", async () => {
    const wasm = await assemble(WAT);
    // Hints claiming "likely" at offsets 1..40 of every function: after instrumentation these would
    // name our checks (telling the engine refuel is the hot path) or no branch at all.
    const name = new TextEncoder().encode(HINTS);
    const entries: number[] = [2];
    for (const func of [1, 2]) {
      entries.push(func, 40);
      for (let at = 1; at <= 40; at++) entries.push(at, 1, 1);
    }
    const content = [name.length, ...name, ...entries];
    const section = [0, ...ulebBytes(content.length), ...content];
    const hostile = new Uint8Array([...wasm.subarray(0, 8), ...section, ...wasm.subarray(8)]);
    expect(parse(hostile).hintSections).toBe(1);
    const { bytes, checksInserted } = instrument(hostile, { maxMemoryPages: 1 });
    expect(WebAssembly.validate(bytes)).toBe(true);
    checkHints(bytes, checksInserted, wrapperRange(2, 1, 2)); // exactly one section: ours
  });
});

function ulebBytes(v: number): number[] {
  const out: number[] = [];
  do {
    let byte = v & 0x7f;
    v = Math.floor(v / 128);
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}
