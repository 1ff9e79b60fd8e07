// conf3: the four readers of the protocol — protobufjs (the host's generated code), the host's own
// readers (HookResponse, PluginInfo), the AssemblyScript SDK codec (codec-echo) and the C SDK codec
// (vector-echo-c) — fed the same bytes for every message of proto/, generated from the schema with
// hostile variants: unknown fields of every wire type, repeated non-repeated fields (the last wins;
// messages merge), two oneof arms, overlong and 10-byte varints, negative enums, uint32 past 2^32,
// bools other than 1, empty and absent submessages, known fields with the wrong wire type, invalid
// UTF-8, and each input cut at every byte.
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { readHookResponse } from '../../host/protocol/hook-response.js';
import { readPluginInfo } from '../../host/protocol/plugin-info.js';
import { encodeToolRequest } from '../../host/protocol/pb-codec.js';
import { echoCodecs } from './built.js';
import { framed, hostCodec, toHex, vectors, bytes as hexBytes } from './vectors.js';
import type { TestPlugin } from '../../sdk-guest/testkit/index.js';
import { prng, varint } from '../protocol/wire-bytes.js';
import { CANONICAL, NOT_UTF8, notUtf8Request } from './codec-cases.js';

const root = protobuf.loadSync(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url).pathname);
const types = (root.lookup('wasmhooks.v1') as protobuf.Namespace).nestedArray.filter((n): n is protobuf.Type => n instanceof protobuf.Type);

const VARINT_VALUES: bigint[] = [0n, 1n, 2n, 127n, 128n, 300n, 2n ** 31n - 1n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 5n, 2n ** 35n + 3n, 2n ** 63n, 2n ** 64n - 1n];
const STRINGS: number[][] = [[], [0x61], [...new TextEncoder().encode('é ✓ 😀')], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x61, 0xe2, 0x9c], [0xef, 0xbb, 0xbf, 0x7b, 0x7d]];

function bigVarint(v: bigint, pad = 0): number[] {
  const out: number[] = [];
  while (v > 127n) {
    out.push(Number(v & 127n) | 128);
    v >>= 7n;
  }
  out.push(Number(v));
  // Overlong: the last byte gets continuation bits and zero bytes follow.
  for (let i = 0; i < pad; i++) {
    out[out.length - 1]! |= 128;
    out.push(0);
  }
  return out;
}

const tag = (field: number, wt: number) => varint(field * 8 + wt);

/** One field's bytes: usually well-formed for its type, sometimes hostile. */
function fieldBytes(field: protobuf.Field, rnd: () => number, depth: number): number[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const resolved = field.resolve().resolvedType;
  if (rnd() < 0.06) {
    // The wrong wire type for this field.
    const wt = pick([0, 1, 2, 5].filter((w) => w !== (resolved instanceof protobuf.Type || field.type === 'string' ? 2 : 0)));
    return [...tag(field.id, wt), ...(wt === 0 ? [1] : wt === 1 ? [1, 2, 3, 4, 5, 6, 7, 8] : wt === 5 ? [1, 2, 3, 4] : [1, 0x61])];
  }
  if (resolved instanceof protobuf.Type) {
    const body = depth > 3 || rnd() < 0.2 ? [] : message(resolved, rnd, depth + 1);
    return [...tag(field.id, 2), ...varint(body.length), ...body];
  }
  if (field.type === 'string') {
    const s = rnd() < 0.7 ? [...new TextEncoder().encode(pick(['', 'x', 'Bash', '{"a":1}', 'ü😀']))] : pick(STRINGS);
    return [...tag(field.id, 2), ...varint(s.length), ...s];
  }
  // uint32, bool, enums: varints.
  const value = rnd() < 0.6 ? BigInt(Math.floor(rnd() * 20)) : pick(VARINT_VALUES);
  const enc = bigVarint(value, rnd() < 0.2 ? Math.floor(rnd() * 4) + 1 : 0);
  return [...tag(field.id, 0), ...enc.slice(0, Math.max(enc.length, 1))];
}

function unknownField(rnd: () => number): number[] {
  const id = [20, 99, 1000, 2 ** 29 - 1][Math.floor(rnd() * 4)]!;
  switch (Math.floor(rnd() * 4)) {
    case 0:
      return [...tag(id, 0), ...bigVarint(2n ** 64n - 1n)];
    case 1:
      return [...tag(id, 1), 1, 2, 3, 4, 5, 6, 7, 8];
    case 2:
      return [...tag(id, 2), 3, 0x61, 0x62, 0xff];
    default:
      return [...tag(id, 5), 0xde, 0xad, 0xbe, 0xef];
  }
}

/** A random message of `type`: fields in any order, some twice, unknown fields between them. */
function message(type: protobuf.Type, rnd: () => number, depth = 0): number[] {
  const out: number[] = [];
  const count = Math.floor(rnd() * (type.fieldsArray.length + 3));
  for (let i = 0; i < count; i++) {
    if (rnd() < 0.15) out.push(...unknownField(rnd));
    else out.push(...fieldBytes(type.fieldsArray[Math.floor(rnd() * type.fieldsArray.length)]!, rnd, depth));
  }
  return out;
}

type Outcome = string; // canonical hex, or "refused"

function viaProtobufjs(type: string, b: Uint8Array): Outcome {
  const codec = hostCodec(type);
  try {
    return toHex(codec.encode(codec.decode(b)).finish());
  } catch {
    return 'refused';
  }
}

async function viaEcho(plugin: TestPlugin, type: string, b: Uint8Array): Promise<Outcome> {
  try {
    return toHex(await plugin.callRaw('echo', framed(type, b)));
  } catch (error) {
    const m = (error as Error).message;
    if (!/not a valid/.test(m)) throw error;
    return 'refused';
  }
}

/** The host's own readers of what plugins send, re-encoded by protobufjs. */
const HOST_READERS: Record<string, (b: Uint8Array) => object> = { HookResponse: readHookResponse, PluginInfo: readPluginInfo };

function viaHostReader(type: string, b: Uint8Array): Outcome | undefined {
  const read = HOST_READERS[type];
  if (read === undefined) return undefined;
  try {
    return toHex(hostCodec(type).encode(read(b)).finish());
  } catch {
    return 'refused';
  }
}

describe('the protocol codecs against each other', () => {
  const echo = echoCodecs();

  /** Every input through every reader; the disagreements, a few per kind, with the counts. */
  async function disagreements(inputs: Array<[string, Uint8Array]>) {
    const seen = { accepted: 0, refused: 0, hostRead: 0 };
    const diffs: string[] = [];
    for (const [type, b] of inputs) {
      const p = viaProtobufjs(type, b);
      const outcomes: Record<string, Outcome | undefined> = { as: await viaEcho(echo.as, type, b), c: await viaEcho(echo.c, type, b), host: viaHostReader(type, b) };
      if (outcomes.host !== undefined) seen.hostRead++;
      if (p === 'refused') seen.refused++;
      else seen.accepted++;
      for (const [who, o] of Object.entries(outcomes)) {
        if (o !== undefined && o !== p && diffs.length < 12) diffs.push(`${type} ${toHex(b)}: protobufjs ${p}, ${who} ${o}`);
      }
    }
    return { seen, diffs };
  }

  it('agree on every vector cut at every byte', async () => {
    const inputs: Array<[string, Uint8Array]> = [];
    for (const v of vectors) {
      const b = hexBytes(v.hex);
      for (let n = 0; n <= b.length; n++) inputs.push([v.type, b.subarray(0, n)]);
    }
    const { seen, diffs } = await disagreements(inputs);
    expect(diffs).toEqual([]);
    expect(seen.refused).toBeGreaterThan(1000);
  }, 120_000);

  it('agree on messages generated from the schema with hostile fields, and on each one cut short', async () => {
    const rnd = prng(0xc0f3);
    const inputs: Array<[string, Uint8Array]> = [];
    for (const t of types) {
      for (let i = 0; i < 250; i++) {
        const b = Uint8Array.from(message(t, rnd));
        inputs.push([t.name, b]);
        if (b.length > 1) inputs.push([t.name, b.subarray(0, Math.floor(rnd() * b.length))]);
      }
    }
    const { seen, diffs } = await disagreements(inputs);
    expect(diffs).toEqual([]);
    // Both sides covered: many refusals (invalid UTF-8, cuts, 11-byte varints) and many accepted answers.
    expect(seen.accepted).toBeGreaterThan(2000);
    expect(seen.refused).toBeGreaterThan(1000);
    expect(seen.hostRead).toBeGreaterThan(800);
  }, 300_000);

  it.each(CANONICAL)('%s', async (_what, type, hex, canonical) => {
    const b = hexBytes(hex);
    expect(viaProtobufjs(type, b)).toBe(canonical);
    expect(await viaEcho(echo.as, type, b)).toBe(canonical);
    expect(await viaEcho(echo.c, type, b)).toBe(canonical);
  });

  it('the host writes a lone surrogate in a ToolRequest as U+FFFD (valid UTF-8 every codec reads), as in a HookRequest', async () => {
    const b = encodeToolRequest({ name: 'tool\ud800', inputJson: '{"a":"\udc00"}', context: { cwd: '/a\ud800\udc00b', sessionId: 'x\udbff' } });
    const want = toHex(encodeToolRequest({ name: 'tool\ufffd', inputJson: '{"a":"\ufffd"}', context: { cwd: '/a\ud800\udc00b', sessionId: 'x\ufffd' } }));
    expect(toHex(b)).toBe(want);
    expect(viaProtobufjs('ToolRequest', b)).toBe(want);
    expect(await viaEcho(echo.as, 'ToolRequest', b)).toBe(want);
    expect(await viaEcho(echo.c, 'ToolRequest', b)).toBe(want);
  });

  it.each(NOT_UTF8)('refuse a string with %s, as protobufjs does', async (_what, bad) => {
    const b = hexBytes(notUtf8Request(bad));
    expect(viaProtobufjs('ToolRequest', b)).toBe('refused');
    await expect(echo.as.callRaw('echo', framed('ToolRequest', b))).rejects.toThrow(/codec-echo: not a valid ToolRequest: string field is not valid UTF-8 at byte \d+/);
    await expect(echo.c.callRaw('echo', framed('ToolRequest', b))).rejects.toThrow(/vector-echo-c: not a valid ToolRequest: string field is not valid UTF-8/);
  });
});
