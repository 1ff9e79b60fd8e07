// The shared test vectors (proto/testdata/vectors.json): the host codec
// (protobufjs static code in host/protocol/gen) and the guest codec (the SDK's
// AssemblyScript codec, inside test/fixtures/codec-echo) must both decode every
// vector to its fields and re-encode it to the same canonical bytes.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { loadForTest, type TestPlugin } from '../../sdk-guest/testkit/index.js';
import { builtWasm } from './built.js';

interface Vector {
  name: string;
  type: string;
  hex: string;
  canonicalHex?: string;
  fields: Record<string, unknown>;
}

const vectors: Vector[] = JSON.parse(readFileSync(new URL('../../proto/testdata/vectors.json', import.meta.url), 'utf8'));
const reflection = protobuf.loadSync(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url).pathname);
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const shortName = (type: string) => type.replace(/^wasmhooks\.v1\./, '');

interface StaticCodec {
  decode(b: Uint8Array): object;
  encode(m: object): { finish(): Uint8Array };
}
const hostCodec = (type: string) => (wasmhooks.v1 as unknown as Record<string, StaticCodec>)[shortName(type)]!;

// proto3 JSON of a decoded static message: only the fields present on the wire,
// enums by name (numbers when unknown), camelCase names.
function fieldsOf(message: Record<string, unknown>, type: protobuf.Type): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    if (!Object.hasOwn(message, field.name)) continue;
    const value = message[field.name];
    if (Array.isArray(value) && value.length === 0) continue;
    const convert = (v: unknown): unknown => {
      const rt = field.resolve().resolvedType;
      if (rt instanceof protobuf.Enum) return rt.valuesById[v as number] ?? v;
      if (rt instanceof protobuf.Type) return fieldsOf(v as Record<string, unknown>, rt);
      return v;
    };
    out[field.name] = Array.isArray(value) ? value.map(convert) : convert(value);
  }
  return out;
}

it('has vectors for every message type of the protocol', () => {
  const all = reflection.lookup('wasmhooks.v1') as protobuf.Namespace;
  const messageTypes = all.nestedArray.filter((n) => n instanceof protobuf.Type).map((t) => `wasmhooks.v1.${t.name}`);
  expect(new Set(vectors.map((v) => v.type))).toEqual(new Set(messageTypes));
  expect(vectors.length).toBeGreaterThanOrEqual(20);
});

describe('host codec (protobufjs static code)', () => {
  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const codec = hostCodec(v.type);
    const decoded = codec.decode(bytes(v.hex));
    expect(fieldsOf(decoded as Record<string, unknown>, reflection.lookupType(v.type))).toEqual(v.fields);
    expect(toHex(codec.encode(decoded).finish())).toBe(v.canonicalHex ?? v.hex);
  });
});

describe('guest codec (AssemblyScript, in codec-echo.wasm)', () => {
  let echo: TestPlugin;
  beforeAll(async () => {
    echo = await loadForTest(builtWasm('test/fixtures/codec-echo/build/codec-echo.wasm'));
  });
  afterAll(() => echo?.close());

  const framed = (type: string, payload: Uint8Array) =>
    Uint8Array.from([...Buffer.from(`${shortName(type)}\n`), ...payload]);

  it.each(vectors.map((v) => [v.name, v] as const))('%s', async (_name, v) => {
    const reencoded = await echo.callRaw('echo', framed(v.type, bytes(v.hex)));
    expect(toHex(reencoded)).toBe(v.canonicalHex ?? v.hex);
    const json = new TextDecoder().decode(await echo.callRaw('fields', framed(v.type, bytes(v.hex))));
    expect(JSON.parse(json)).toEqual(v.fields);
  });

  it('bytes the guest encodes decode on the host to the same fields', async () => {
    for (const v of vectors) {
      const guestBytes = await echo.callRaw('echo', framed(v.type, bytes(v.hex)));
      const decoded = hostCodec(v.type).decode(guestBytes) as Record<string, unknown>;
      expect(fieldsOf(decoded, reflection.lookupType(v.type)), v.name).toEqual(v.fields);
    }
  });

  it.each([
    ['a truncated varint', 'HookRequest', '08'],
    ['a length past the end', 'HookRequest', '6205'],
    ['a truncated nested message', 'HookRequest', '6206' + '0a0a42'],
    ['wire type 3 (groups)', 'PluginInfo', '0b'],
    ['field number 0', 'HookResponse', '0001'],
    ['a string field sent as a varint', 'PluginInfo', '0801'],
    ['an eleven-byte varint', 'HookResponse', '08' + 'ff'.repeat(10) + '01'],
  ])('fails the call (no trap) on %s', async (_what, type, hex) => {
    await expect(echo.callRaw('echo', framed(type, bytes(hex)))).rejects.toThrow(new RegExp(`Plugin-originated error: codec-echo: not a valid ${type}: .* at byte \\d+`));
    // The instance is still usable after a failed call.
    expect(toHex(await echo.callRaw('echo', framed('ToolResponse', bytes('0a0178'))))).toBe('0a0178');
  });
});
