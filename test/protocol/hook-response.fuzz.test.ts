/**
 * The hand-written HookResponse reader (host/protocol/hook-response.ts)
 * against the decoder it replaced on the hot path, protobufjs's generated
 * `HookResponse.decode`: on every response shape, on each of their
 * truncations and single-byte corruptions, on hand-made hostile bytes
 * (truncated and over-long varints, wrong wire types, oversized lengths,
 * unknown fields and groups, duplicate fields, invalid UTF-8) and on seeded
 * random bytes. Both must refuse the same bytes, and read the same fields
 * from the rest; `decodeHookResponse` must then answer as the protobufjs
 * path would (BAD_OUTPUT for every refusal: a guard fails closed).
 */
import { describe, expect, it } from 'vitest';
import { cat, eachVariant, ld, prng, utf8 } from './wire-bytes.js';
import { differential, randomFields } from './differential.js';
import { decodeHookResponse, hookResponseOf } from '../../host/protocol/codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { readHookResponse } from '../../host/protocol/hook-response.js';

const v1 = wasmhooks.v1;
const FIELDS = ['decision', 'reason', 'updatedInputJson', 'additionalContext', 'systemMessage', 'updatedOutputJson'] as const;

/** Defaults (protobufjs keeps them on the prototype) read as undefined. */
function normalized(m: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(FIELDS.map((f) => [f, m[f] || undefined]));
}

/** What decodeHookResponse answered before: protobufjs, then the same validation. */
function reference(bytes: Uint8Array) {
  let raw: wasmhooks.v1.HookResponse;
  try {
    raw = v1.HookResponse.decode(bytes);
  } catch {
    return { ok: false as const, failure: { code: 'BAD_OUTPUT' } };
  }
  return hookResponseOf(raw);
}

/** Both readers, then decodeHookResponse against the reference; every refusal is BAD_OUTPUT (a guard fails closed). */
const run = differential({
  protobufjs: (b) => normalized(v1.HookResponse.decode(b) as unknown as Record<string, unknown>),
  reader: (b) => normalized(readHookResponse(b) as unknown as Record<string, unknown>),
  decode: decodeHookResponse,
  reference,
  what: 'hook output',
  refusalCode: 'BAD_OUTPUT',
});
const agree = run.agree;

const enc = (m: wasmhooks.v1.IHookResponse) => v1.HookResponse.encode(m).finish();

/** Every response shape the protocol has, encoded by protobufjs. */
function shapes(): Uint8Array[] {
  const strings = ['', 'no', 'é ✓ 😀', 'x'.repeat(63), 'y'.repeat(64), 'z'.repeat(65), 'ä'.repeat(200), '\uFEFFbom'];
  const jsons = ['{"a":1}', '[1]', '"text"', '{bad', '{"deep":' + '['.repeat(70) + ']'.repeat(70) + '}', '{}', 'null'];
  const out: Uint8Array[] = [new Uint8Array()];
  for (const decision of [0, 1, 2, 3, 4, 5, 6, 7, 42, -1, 2 ** 31 - 1]) out.push(enc({ decision }));
  for (const s of strings) {
    out.push(enc({ reason: s }), enc({ additionalContext: s }), enc({ systemMessage: s }), enc({ decision: 3, reason: s, systemMessage: s }));
  }
  for (const j of jsons) out.push(enc({ updatedInputJson: j }), enc({ updatedOutputJson: j }), enc({ decision: 2, updatedInputJson: j, updatedOutputJson: j }));
  out.push(enc({ decision: 3, reason: 'r', updatedInputJson: '{"command":"ls"}', additionalContext: 'c', systemMessage: 's', updatedOutputJson: '"o"' }));
  return out;
}

/** Hand-made bytes a hostile or broken plugin could send. */
function hostile(): Uint8Array[] {
  const b = (...x: number[]) => Uint8Array.from(x);
  const groupNest = (depth: number) => cat(Array(depth).fill(0x3b), Array(depth).fill(0x3c)); // field 7 groups, nested
  return [
    // Truncated and over-long varints (decision), near the end and far from it.
    b(0x08), b(0x08, 0x80), b(0x08, 0x80, 0x80, 0x80), b(0x08, 0x80, 0x80, 0x80, 0x80), b(0x08, 0x80, 0x80, 0x80, 0x80, 0x01),
    b(0x08, 0xff, 0xff, 0xff, 0xff, 0x0f), b(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), b(0x08, ...Array(9).fill(0xff), 0x01),
    b(0x08, ...Array(10).fill(0xff), 0x01), b(0x08, ...Array(11).fill(0x80)), b(0x08, 0x82, 0x80, 0x80, 0x80, 0x00, 0x10),
    b(0x08, 0x82, 0x80, 0x80, 0x80, 0x10), b(0x08, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x12, 0x00),
    // Tags: truncated, five bytes, a fifth byte with high bits, field 0, wire types 3 to 7 at the top.
    b(0x80), b(0x80, 0x80, 0x80, 0x80), b(0x88, 0x80, 0x80, 0x80, 0x00, 0x02), b(0x88, 0x80, 0x80, 0x80, 0x10, 0x02),
    b(0x88, 0x80, 0x80, 0x80, 0x0f, 0x02), b(0x88, 0x80, 0x80, 0x80, 0x80, 0x02), b(0x00), b(0x00, 0x01), b(0x02, 0x00),
    b(0x0c), b(0x0e), b(0x0f), b(0x14), b(0x0b, 0x0c), b(0x0d, 1, 2, 3, 4), b(0x09, 1, 2, 3, 4, 5, 6, 7, 8), b(0x09, 1, 2, 3),
    // Known fields with the wrong wire type: skipped if well-formed.
    b(0x0a, 0x01, 0x02), b(0x0d, 1, 0, 0, 0), b(0x10, 0x05), b(0x11, 1, 2, 3, 4, 5, 6, 7, 8, 0x08, 0x02), b(0x15, 1, 2, 3, 4),
    b(0x13, 0x14), b(0x13, 0x08, 0x01, 0x14), b(0x13, 0x1c), b(0x13), b(0x13, 0x08),
    // Lengths: past the end, huge, five bytes, a fifth byte over 7, truncated.
    b(0x12, 0x05, 0x61), b(0x12, 0xff, 0xff, 0xff, 0xff, 0x07), b(0x12, 0xff, 0xff, 0xff, 0xff, 0x08), b(0x12, 0xff, 0xff, 0xff, 0xff, 0x0f),
    b(0x12, 0x81, 0x80, 0x80, 0x80, 0x00, 0x61), b(0x12, 0x80), b(0x12, 0x80, 0x80, 0x80, 0x80), b(0x12), b(0x3a, 0xff, 0xff, 0xff, 0xff, 0x07),
    b(0x12, 0x80, 0x80, 0x80, 0x80, 0x00), b(0x12, 0x80, 0x80, 0x80, 0x80, 0x00, 0x08, 0x02),
    // Unknown fields of every wire type, before and after known ones; big field numbers.
    cat([0x38, 0x96, 0x01], enc({ decision: 2 })), cat(enc({ decision: 2 }), [0x41, 1, 2, 3, 4, 5, 6, 7, 8]), cat([0x42, 0x02, 0x61, 0x62], enc({ reason: 'x' })),
    cat([0x45, 1, 2, 3, 4], enc({ decision: 3 })), cat([0xf8, 0xff, 0xff, 0xff, 0x0f, 0x01], enc({ decision: 2 })), b(0xfa, 0xff, 0xff, 0xff, 0x0f, 0x00),
    b(0x38, ...Array(30).fill(0x80), 0x01), b(0x38, ...Array(30).fill(0x80)),
    // Groups: empty, with content, nested to the recursion limit and past it, mismatched or missing ends.
    b(0x3b, 0x3c), b(0x3b, 0x08, 0x02, 0x12, 0x01, 0x61, 0x3c, 0x08, 0x03), b(0x3b, 0x44), b(0x3b, 0x08, 0x02), b(0x3b, 0x00, 0x3c),
    b(0x3b, 0x47, 0x3c), b(0x3b, 0x43, 0x44, 0x3c), b(0x3b, 0x43, 0x3c, 0x44), groupNest(99), groupNest(100), groupNest(101), groupNest(102), groupNest(150),
    // Duplicates: the last wins; an empty string or a zero decision clears the field.
    cat(enc({ decision: 2 }), enc({ decision: 3 })), cat(enc({ reason: 'a' }), enc({ reason: 'b' })), cat(enc({ reason: 'a' }), [0x12, 0x00]),
    cat(enc({ decision: 3 }), [0x08, 0x00]), cat(enc({ updatedInputJson: '{"a":1}' }), [0x1a, 0x00]), cat(enc({ decision: 3 }), [0x0a, 0x00]),
    // Invalid UTF-8: a lone continuation, overlong forms, surrogates, past U+10FFFF, truncated sequences, short and long strings.
    cat(ld(2, [0x80])), cat(ld(2, [0xc0, 0xaf])), cat(ld(2, [0xe0, 0x80, 0xaf])), cat(ld(2, [0xed, 0xa0, 0x80])), cat(ld(2, [0xf4, 0x90, 0x80, 0x80])),
    cat(ld(2, [0xe2, 0x9c])), cat(ld(2, [0x61, 0x62, 0xff])), cat(ld(5, [...utf8('a'.repeat(70)), 0xfe])), cat(ld(4, [...utf8('é'.repeat(40)), 0xc3])),
    cat(ld(3, [0xef, 0xbb, 0xbf, ...utf8('{"a":1}')])), cat(ld(6, [0xef, 0xbb, 0xbf])), cat(ld(2, [...utf8('x'.repeat(7)), 0xc3, 0xa9])),
  ];
}


describe('HookResponse reader against protobufjs', () => {
  it('agrees on every response shape, each of its truncations and each single-byte corruption', () => {
    const rnd = prng(1);
    for (const bytes of shapes()) eachVariant(bytes, rnd, agree);
  });

  it('agrees on hostile bytes: varints, tags, wire types, lengths, unknown fields, groups, duplicates, UTF-8', () => {
    for (const bytes of hostile()) {
      agree(bytes);
      for (let n = 0; n < bytes.length; n++) agree(bytes.subarray(0, n));
    }
  });

  it('agrees on seeded random bytes and random field sequences', () => {
    const rnd = prng(14);
    const interesting = [0x00, 0x01, 0x02, 0x07, 0x08, 0x0a, 0x10, 0x12, 0x1a, 0x22, 0x2a, 0x32, 0x3b, 0x3c, 0x7f, 0x80, 0xc3, 0xa9, 0xff];
    const byte = () => (rnd() < 0.5 ? interesting[Math.floor(rnd() * interesting.length)]! : Math.floor(rnd() * 256));
    for (let k = 0; k < 12_000; k++) agree(Uint8Array.from({ length: Math.floor(rnd() * 24) }, byte));
    // Sequences of well-formed and near-well-formed fields, with any field number and wire type.
    for (let k = 0; k < 10_000; k++) agree(Uint8Array.from(randomFields(rnd, byte, { most: 6, known: 0.8, body: 80, exact: 0.97 })));
  });

  it('covered both sides: many refusals and many accepted answers', () => {
    expect(run.checked).toBeGreaterThan(30_000);
    expect(run.refused).toBeGreaterThan(5_000);
    expect(run.checked - run.refused).toBeGreaterThan(5_000);
  });
});
