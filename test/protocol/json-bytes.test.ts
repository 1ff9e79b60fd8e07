/**
 * writeJson (host/protocol/json-bytes.ts) against what it replaces:
 * TextEncoder over JSON.stringify. Byte for byte on plain data of every
 * kind (escapes, lone and paired surrogates, numbers at their edges, holes,
 * skipped keys, key order), on random values, and a decline (never a
 * different answer) for everything that is not plain data.
 */
import { describe, expect, it } from 'vitest';
import { DECLINED, FULL, writeJson, writeUtf8 } from '../../host/protocol/json-bytes.js';

const utf8 = new TextEncoder();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function ours(value: unknown, room = 1 << 16): Uint8Array | number {
  const buf = new Uint8Array(room);
  const end = writeJson(value, buf, 3);
  return end < 0 ? end : buf.subarray(3, end);
}

function same(value: unknown): void {
  const got = ours(value);
  expect(got, JSON.stringify(value)).toBeInstanceOf(Uint8Array);
  expect(hex(got as Uint8Array)).toBe(hex(utf8.encode(JSON.stringify(value))));
}

/** Every UTF-16 unit class that JSON.stringify and UTF-8 treat differently. */
const UNITS = ['a', ' ', '"', '\\', '/', '\b', '\t', '\n', '\f', '\r', '\u0000', '\u001f', '\u007f', '\u0080', 'é', '\u07ff', '\u0800', '✓', '\u2028', '\u2029', '\uffff', '😀', '\ud800', '\udbff', '\udc00', '\udfff'];

function randomString(rand: () => number): string {
  let s = '';
  const n = Math.floor(rand() * 12);
  for (let i = 0; i < n; i++) s += UNITS[Math.floor(rand() * UNITS.length)];
  return s;
}

function randomValue(rand: () => number, depth: number): unknown {
  const pick = Math.floor(rand() * (depth > 4 ? 6 : 9));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return [0, -0, 1, -1, 7, 10, 99, 2 ** 31 - 1, -(2 ** 31) + 1, 2 ** 31, -(2 ** 31), 2 ** 53, 1e21, 1.5, -0.1, 1e-7, NaN, Infinity, -Infinity][Math.floor(rand() * 19)];
    case 3:
    case 4:
      return randomString(rand);
    case 5:
      return undefined;
    case 6:
    case 7: {
      const o: Record<string, unknown> = {};
      const n = Math.floor(rand() * 5);
      for (let i = 0; i < n; i++) o[rand() < 0.2 ? String(Math.floor(rand() * 20)) : randomString(rand)] = randomValue(rand, depth + 1);
      return o;
    }
    default: {
      const a: unknown[] = [];
      const n = Math.floor(rand() * 5);
      for (let i = 0; i < n; i++) a.push(randomValue(rand, depth + 1));
      return a;
    }
  }
}

describe('writeJson', () => {
  it('writes what TextEncoder writes for JSON.stringify, on plain data of every kind', () => {
    same({ command: 'ls -la src' });
    same({});
    same([]);
    same(null);
    same(true);
    same(false);
    same(0);
    same(-0);
    for (const n of [1, -1, 2 ** 31 - 1, -(2 ** 31) + 1, 2 ** 31, -(2 ** 31), 2 ** 53, 1e21, 1e-7, 0.1 + 0.2, -1.5e300, NaN, Infinity, -Infinity]) same(n);
    for (const u of UNITS) {
      same(u);
      same({ [u]: u });
    }
    same('😀\ud800😀\udc00x');
    same({ b: 1, a: 2, 10: 3, 2: 4, '-1': 5, '01': 6 });
    same({ skip: undefined, fn: () => 1, sym: Symbol('s'), kept: 1 });
    same([undefined, () => 1, Symbol('s'), 1]);
    // eslint-disable-next-line no-sparse-arrays
    same([1, , 3]);
    same(Object.assign(Object.create(null) as object, { a: 1 }));
    same({ nested: { deeper: [{ x: [[[]]] }] } });
    same({ long: 'x'.repeat(5_000) });
  });

  it('agrees with JSON.stringify on 5,000 random values', () => {
    let seed = 42;
    const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 5_000; i++) {
      const value = randomValue(rand, 0);
      if (value === undefined) continue;
      same(value);
    }
  });

  it('declines what is not plain data (the caller then uses JSON.stringify)', () => {
    class Point {
      x = 1;
    }
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    for (const value of [
      undefined,
      () => 1,
      Symbol('s'),
      10n,
      { n: 10n },
      new Date(0),
      { when: new Date(0) },
      new Point(),
      new Map([[1, 2]]),
      Object.assign(new String('boxed')),
      { toJSON: () => 'custom' },
      Object.assign([1], { toJSON: () => 'custom' }),
      new (class extends Array {})(),
      cycle,
      deep,
    ]) {
      expect(ours(value)).toBe(DECLINED);
    }
  });

  it('says FULL, never writes past the end, when the buffer has no room', () => {
    const value = { command: 'ls -la ✓ '.repeat(20), n: [1, 2, 3] };
    const need = utf8.encode(JSON.stringify(value)).length;
    for (let room = 3; room < need + 3; room += 7) {
      const buf = new Uint8Array(room + 8).fill(0xaa);
      const end = writeJson(value, buf.subarray(0, room), 0);
      expect(end).toBe(FULL);
      expect(hex(buf.subarray(room))).toBe('aa'.repeat(8));
    }
    // With room for the worst case (6 bytes per UTF-16 unit of a string), it writes.
    const got = ours(value, 6 * need + 3);
    expect(hex(got as Uint8Array)).toBe(hex(utf8.encode(JSON.stringify(value))));
  });
});

describe('writeUtf8', () => {
  it('writes what TextEncoder writes, lone surrogates as U+FFFD', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const strings = [...UNITS, '😀\ud800😀\udc00x', '\udbff\udfff', '\udfff\udbff', 'x'.repeat(300)];
    for (let i = 0; i < 2_000; i++) strings.push(randomString(rand));
    for (const s of strings) {
      const buf = new Uint8Array(3 * s.length + 4);
      const end = writeUtf8(s, buf, 2);
      expect(hex(buf.subarray(2, end)), JSON.stringify(s)).toBe(hex(utf8.encode(s)));
    }
  });
});
