// The shared test vectors (proto/testdata/vectors.json) through the C SDK's codec
// (sdk-c/wasmhooks/hooks.pb.h, inside test/fixtures/vector-echo-c): every vector
// decodes to its fields and re-encodes to the same canonical bytes, byte for byte,
// as the host codec and the AssemblyScript codec do (vectors.test.ts).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const shortName = (type: string) => type.replace(/^wasmhooks\.v1\./, '');
const framed = (type: string, payload: Uint8Array) => Uint8Array.from([...Buffer.from(`${shortName(type)}\n`), ...payload]);

it('sdk-c/wasmhooks/hooks.pb.h is what sdk-c/scripts/gen-codec.mjs makes from hooks.proto', () => {
  const repo = fileURLToPath(new URL('../..', import.meta.url));
  expect(execFileSync(process.execPath, ['sdk-c/scripts/gen-codec.mjs', '--check'], { cwd: repo, encoding: 'utf8' })).toContain('up to date');
});

describe('C codec (sdk-c, in vector-echo-c.wasm)', () => {
  let echo: TestPlugin;
  beforeAll(async () => {
    echo = await loadForTest(builtWasm('test/fixtures/vector-echo-c/build/vector-echo-c.wasm'));
  });
  afterAll(() => echo?.close());

  it.each(vectors.map((v) => [v.name, v] as const))('%s', async (_name, v) => {
    const reencoded = await echo.callRaw('echo', framed(v.type, bytes(v.hex)));
    expect(toHex(reencoded)).toBe(v.canonicalHex ?? v.hex);
    const json = new TextDecoder().decode(await echo.callRaw('fields', framed(v.type, bytes(v.hex))));
    expect(JSON.parse(json)).toEqual(v.fields);
  });

  it('bytes C encodes decode on the host to the same canonical bytes', async () => {
    type Codec = { decode(b: Uint8Array): object; encode(m: object): { finish(): Uint8Array } };
    for (const v of vectors) {
      const codec = (wasmhooks.v1 as unknown as Record<string, Codec>)[shortName(v.type)]!;
      const cBytes = await echo.callRaw('echo', framed(v.type, bytes(v.hex)));
      expect(toHex(codec.encode(codec.decode(cBytes)).finish()), v.name).toBe(v.canonicalHex ?? v.hex);
    }
  });

  it('never traps on mangled vectors: 3000 seeded truncations, bit flips and splices either decode or fail with a message', async () => {
    let seed = 0x5eed;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    const outcomes = { decoded: 0, refused: 0 };
    for (let i = 0; i < 3000; i++) {
      const v = vectors[rand(vectors.length)]!;
      const b = [...bytes(v.hex).slice(0, 4096)];
      const op = rand(3);
      if (op === 0) b.length = rand(b.length + 1);
      else if (op === 1 && b.length) for (let k = 0; k <= rand(4); k++) b[rand(b.length)]! ^= 1 << rand(8);
      else b.splice(rand(b.length + 1), 0, ...Array.from({ length: 1 + rand(6) }, () => rand(256)));
      try {
        await echo.callRaw('echo', framed(v.type, Uint8Array.from(b)));
        outcomes.decoded++;
      } catch (error) {
        expect((error as Error).message, `${v.name}: ${Buffer.from(b).toString('hex')}`).toMatch(/^Plugin-originated error: vector-echo-c: not a valid \w+: .* at byte \d+$/);
        outcomes.refused++;
      }
    }
    expect(outcomes.decoded).toBeGreaterThan(100);
    expect(outcomes.refused).toBeGreaterThan(100);
  }, 120_000);

  it.each([
    ['a truncated varint', 'HookRequest', '08'],
    ['a length past the end', 'HookRequest', '6205'],
    ['a truncated nested message', 'HookRequest', '6206' + '0a0a42'],
    ['wire type 3 (groups)', 'PluginInfo', '0b'],
    ['field number 0', 'HookResponse', '0001'],
    ['a string field sent as a varint', 'PluginInfo', '0801'],
    ['an eleven-byte varint', 'HookResponse', '08' + 'ff'.repeat(10) + '01'],
    ['a length of 2^32 + 1 (must not wrap)', 'PluginInfo', '0a' + '8180808010'],
  ])('fails the call (no trap) on %s', async (_what, type, hex) => {
    await expect(echo.callRaw('echo', framed(type, bytes(hex)))).rejects.toThrow(new RegExp(`Plugin-originated error: vector-echo-c: not a valid ${type}: .* at byte \\d+`));
    // The instance is still usable after a failed call.
    expect(toHex(await echo.callRaw('echo', framed('ToolResponse', bytes('0a0178'))))).toBe('0a0178');
  });
});
