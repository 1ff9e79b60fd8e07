// The differential check both hand-written protocol readers (hook-response, plugin-info) get against
// protobufjs, and the random field sequences they are fed. `expect` runs only on a disagreement, so
// tens of thousands of cases stay fast.
import { expect } from 'vitest';
import type { Decoded } from '../../host/protocol/codec.js';
import { varint } from './wire-bytes.js';

type Read = { ok: true; fields: unknown } | { ok: false; error: string };

function read(decode: (b: Uint8Array) => unknown, bytes: Uint8Array): Read {
  try {
    return { ok: true, fields: decode(bytes) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

export interface Differential {
  /** protobufjs's decode and the hand-written reader, each normalised to plain data (throwing when they refuse). */
  protobufjs: (b: Uint8Array) => unknown;
  reader: (b: Uint8Array) => unknown;
  /** The host's decoder under test, and what it answered before: protobufjs, then the same validation. */
  decode: (b: Uint8Array) => Decoded<unknown>;
  reference: (b: Uint8Array) => Decoded<unknown> | { ok: false; failure: { code: string; message?: string } };
  /** How the decoder names the bytes in its refusal ("hook output", "describe output"). */
  what: string;
  /** The code every refusal must carry; the reference's own code when not given. */
  refusalCode?: string;
  /**
   * The refusal due when the reader's fields show a count past a repeated field's cap
   * (host/protocol/repeated-caps.ts), else undefined: entries past the cap are skipped unread, so
   * protobufjs may refuse their content where the reader does not; the answer must then be refused so.
   */
  overCap?: (fields: unknown) => { code: string; message?: string } | undefined;
}

/** `agree(bytes)` checks one input; `checked` and `refused` count what it saw (the coverage a test asserts). */
export function differential(d: Differential): { agree: (bytes: Uint8Array) => void; readonly checked: number; readonly refused: number } {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const counts = { checked: 0, refused: 0 };
  const agree = (bytes: Uint8Array): void => {
    const want = read(d.protobufjs, bytes);
    const got = read(d.reader, bytes);
    counts.checked++;
    if (!want.ok) counts.refused++;
    const hex = Buffer.from(bytes).toString('hex');
    const over = got.ok ? d.overCap?.(got.fields) : undefined;
    if (over !== undefined && !want.ok) {
      // Skipped entries that protobufjs refuses for their content: refused for the count instead.
      const decoded = d.decode(bytes);
      if (decoded.ok || decoded.failure.code !== over.code || (over.message !== undefined && decoded.failure.message !== over.message)) {
        expect({ hex, decoded }).toEqual({ hex, decoded: { ok: false, failure: over } });
      }
      return;
    }
    if (got.ok !== want.ok || (want.ok && got.ok && !same(got.fields, want.fields))) expect({ hex, got }).toEqual({ hex, got: want });
    const decoded = d.decode(bytes);
    const ref = d.reference(bytes);
    if (decoded.ok !== ref.ok || (decoded.ok && ref.ok && !same(decoded.value, ref.value))) expect({ hex, decoded }).toEqual({ hex, decoded: ref });
    if (!decoded.ok && !ref.ok) {
      const code = d.refusalCode ?? ref.failure.code;
      if (decoded.failure.code !== code) expect({ hex, failure: decoded.failure }).toMatchObject({ hex, failure: { code } });
      // A refused read says why; a refused answer (unknown decision, bad JSON, ...) is the reference's own message.
      const message = got.ok ? (ref.failure as { message?: string }).message : `${d.what} is not valid protobuf (${bytes.length} bytes): ${got.error}`;
      if (decoded.failure.message !== message) expect({ hex, message: decoded.failure.message }).toEqual({ hex, message });
    }
  };
  return {
    agree,
    get checked() {
      return counts.checked;
    },
    get refused() {
      return counts.refused;
    },
  };
}

export interface FieldShape {
  /** Fields in a sequence: 1 to `most`. */
  most: number;
  /** The chance a field number is one of 1–8 (else any up to 2^20). */
  known: number;
  /** Longest random length-delimited body. */
  body: number;
  /** The chance a length is exact (else off by one either way). */
  exact: number;
  /** When given and true for a depth (the chance drawn inside), a length-delimited body is itself a field sequence. */
  nested?: (depth: number) => boolean;
}

/**
 * A sequence of well-formed and near-well-formed fields, with any field number and wire type
 * (groups sometimes closed), drawn from `rnd`; `byte` draws one byte of a fixed-size field.
 */
export function randomFields(rnd: () => number, byte: () => number, shape: FieldShape, depth = 0): number[] {
  const parts: number[] = [];
  for (let f = Math.floor(rnd() * shape.most); f >= 0; f--) {
    const field = rnd() < shape.known ? 1 + Math.floor(rnd() * 8) : Math.floor(rnd() * 2 ** 20);
    const type = rnd() < 0.95 ? [0, 2, 2, 2, 2, 1, 5][Math.floor(rnd() * 7)]! : Math.floor(rnd() * 8);
    parts.push(...varint(field * 8 + type));
    if (type === 0) parts.push(...varint(Math.floor(rnd() * 2 ** (rnd() * 35))));
    if (type === 3) parts.push(...(rnd() < 0.7 ? varint(field * 8 + 4) : []));
    if (type === 1) parts.push(...Array.from({ length: 8 }, byte));
    if (type === 5) parts.push(...Array.from({ length: 4 }, byte));
    if (type === 2) {
      const body = shape.nested?.(depth)
        ? randomFields(rnd, byte, shape, depth + 1)
        : Array.from({ length: Math.floor(rnd() * shape.body) }, () => (rnd() < 0.9 ? 0x20 + Math.floor(rnd() * 95) : byte()));
      parts.push(...varint(rnd() < shape.exact ? body.length : body.length + Math.floor(rnd() * 3) - 1), ...body);
    }
  }
  return parts;
}
