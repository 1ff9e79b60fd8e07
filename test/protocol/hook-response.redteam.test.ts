// Red team of the hand-written HookResponse reader (host/protocol/hook-response.ts)
// against protobufjs's generated decoder: lengths at and past 2^31 and 2^32,
// varints of 10 and more bytes, negative int32 decisions, field numbers 0,
// 2^29 − 1 and past it, invalid UTF-8 (overlong, surrogates, past U+10FFFF),
// groups nested deep and long; then structured random messages built from
// those pieces. The two must refuse the same bytes and read the same fields;
// hostile bytes of a few MB decode in linear time.
import { describe, expect, it } from 'vitest';
import { prng, varint } from './wire-bytes.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { readHookResponse } from '../../host/protocol/hook-response.js';

const FIELDS = ['decision', 'reason', 'updatedInputJson', 'additionalContext', 'systemMessage', 'updatedOutputJson'] as const;
const read = (decode: () => Record<string, unknown>): string => {
  try {
    const m = decode();
    return JSON.stringify(FIELDS.map((f) => m[f] || null));
  } catch {
    return 'refused';
  }
};
const viaProtobufjs = (b: Uint8Array) => read(() => wasmhooks.v1.HookResponse.decode(b) as unknown as Record<string, unknown>);
const viaReader = (b: Uint8Array) => read(() => readHookResponse(b) as unknown as Record<string, unknown>);

/** A varint of `n` bytes whose last byte is `last`. */
const longVarint = (n: number, last: number, fill = 0xff) => [...Array<number>(n - 1).fill(fill), last];


const FIELD_NUMBERS = [0, 1, 2, 3, 4, 5, 6, 7, 15, 16, 2 ** 28, 2 ** 29 - 1, 2 ** 29, 2 ** 31 / 8 - 1];
const LENGTHS = [2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 35, 2 ** 53 - 1];
const UTF8 = [0x61, 0xc3, 0xa9, 0xc0, 0xaf, 0xe0, 0x80, 0xed, 0xa0, 0xbf, 0xf0, 0x9f, 0x98, 0x80, 0xf4, 0x90, 0xff, 0xef, 0xbb, 0x00];

function message(rnd: () => number): Uint8Array {
  const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)]!;
  const out: number[] = [];
  const fields = 1 + Math.floor(rnd() * 5);
  for (let k = 0; k < fields; k++) {
    const field = pick(FIELD_NUMBERS);
    const wire = pick([0, 0, 1, 2, 2, 2, 3, 4, 5, 6, 7]);
    out.push(...(rnd() < 0.15 ? longVarint(1 + Math.floor(rnd() * 6), pick([0, 1, 7, 8, 15, 16, 127])) : varint(field * 8 + wire)));
    if (wire === 0) out.push(...(rnd() < 0.5 ? longVarint(1 + Math.floor(rnd() * 12), pick([0, 1, 0x7f]), pick([0x80, 0xff])) : varint(Math.floor(rnd() * 2 ** 32))));
    if (wire === 1) out.push(...Array<number>(Math.floor(rnd() * 9)).fill(1));
    if (wire === 5) out.push(...Array<number>(Math.floor(rnd() * 5)).fill(1));
    if (wire === 2) {
      const body = Array.from({ length: Math.floor(rnd() * 10) }, () => pick(UTF8));
      out.push(...(rnd() < 0.15 ? varint(pick(LENGTHS)) : varint(body.length + (rnd() < 0.1 ? 1 : 0))), ...body);
    }
    if (wire === 3 && rnd() < 0.5) out.push(...varint(field * 8 + 4));
  }
  return Uint8Array.from(out);
}

describe('HookResponse reader against protobufjs, red team', () => {
  it('agrees on hand-made hostile bytes', () => {
    const b = (...x: number[]) => Uint8Array.from(x);
    const cases: Uint8Array[] = [
      ...LENGTHS.flatMap((n) => [b(0x12, ...varint(n), 0x61), b(0x3a, ...varint(n)), b(0x1a, ...varint(n), 0x7b, 0x7d)]),
      b(0x08, ...longVarint(10, 0x01)), b(0x08, ...longVarint(10, 0x7f)), b(0x08, ...longVarint(11, 0x01)), b(0x08, ...longVarint(20, 0x00, 0x80)),
      b(0x08, ...varint(2 ** 32 - 1)), b(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), // -1 as a 10-byte int32
      b(0x08, 0x80, 0x80, 0x80, 0x80, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x01), // INT32_MIN
      b(...varint(0 * 8 + 0), 0x01), b(...varint((2 ** 29 - 1) * 8 + 0), 0x01), b(...varint((2 ** 29 - 1) * 8 + 2), 0x00),
      b(...varint(2 ** 29 * 8), 0x01), b(...longVarint(6, 0x00, 0x88)), b(...varint((2 ** 29 - 1) * 8 + 3), ...varint((2 ** 29 - 1) * 8 + 4)),
      ...[[0xc0, 0x80], [0xe0, 0x9f, 0xbf], [0xed, 0xbf, 0xbf], [0xf4, 0x8f, 0xbf, 0xbf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xef, 0xbf, 0xbe]].map(
        (u) => b(0x12, u.length, ...u),
      ),
      b(0x2a, 0x00, 0x2a, 0x01, 0x61, 0x2a, 0x00), // set then cleared
    ];
    for (const bytes of cases) expect({ hex: Buffer.from(bytes).toString('hex'), got: viaReader(bytes) }).toEqual({ hex: Buffer.from(bytes).toString('hex'), got: viaProtobufjs(bytes) });
  });

  it('agrees on 30,000 structured random messages built from hostile pieces', () => {
    const rnd = prng(0x5eed);
    let refused = 0;
    for (let i = 0; i < 30_000; i++) {
      const bytes = message(rnd);
      const want = viaProtobufjs(bytes);
      if (want === 'refused') refused++;
      const got = viaReader(bytes);
      if (got !== want) expect({ hex: Buffer.from(bytes).toString('hex'), got }).toEqual({ hex: Buffer.from(bytes).toString('hex'), got: want });
    }
    expect(refused).toBeGreaterThan(1_000);
    expect(refused).toBeLessThan(30_000);
  });

  it('reads 4 MB of hostile bytes in linear time: empty groups, one long varint, unknown fields', () => {
    const size = 4 << 20;
    const groups = new Uint8Array(size);
    for (let i = 0; i < size; i += 2) (groups[i] = 0x3b), (groups[i + 1] = 0x3c);
    const varintRun = new Uint8Array(size).fill(0x80);
    varintRun[0] = 0x38;
    varintRun[size - 1] = 0;
    const unknown = new Uint8Array(size);
    for (let i = 0; i < size; i += 2) (unknown[i] = 0x38), (unknown[i + 1] = 0x01);
    for (const bytes of [groups, varintRun, unknown]) {
      const started = performance.now();
      expect(viaReader(bytes)).toBe(viaProtobufjs(bytes));
      expect(performance.now() - started).toBeLessThan(1_500);
    }
  });
});
