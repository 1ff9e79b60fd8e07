// The shared test vectors (proto/testdata/vectors.json): the host codec
// (protobufjs static code in host/protocol/gen) and the guest codec (the SDK's
// AssemblyScript codec, inside test/fixtures/codec-echo) must both decode every
// vector to its fields and re-encode it to the same canonical bytes.
import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { bytes, echoCodecSuite, framed, hostCodec, toHex, vectors } from './vectors.js';

const reflection = protobuf.loadSync(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url).pathname);

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
  const echo = echoCodecSuite('test/fixtures/codec-echo/build/codec-echo.wasm', 'codec-echo');

  it('bytes the guest encodes decode on the host to the same fields', async () => {
    for (const v of vectors) {
      const guestBytes = await echo().callRaw('echo', framed(v.type, bytes(v.hex)));
      const decoded = hostCodec(v.type).decode(guestBytes) as Record<string, unknown>;
      expect(fieldsOf(decoded, reflection.lookupType(v.type)), v.name).toEqual(v.fields);
    }
  });
});
