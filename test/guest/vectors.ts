// The shared test vectors (proto/testdata/vectors.json) and what both guest codecs'
// suites run on them: the AssemblyScript one (codec-echo, vectors.test.ts) and the
// C one (vector-echo-c, vectors-c.test.ts). Each echo plugin takes
// "<MessageType>\n" + bytes on two exports: `echo` (decode, re-encode) and
// `fields` (decode, proto3 JSON of what was decoded).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { loadForTest, type TestPlugin } from '../../sdk-guest/testkit/index.js';
import { builtWasm } from './built.js';

export interface Vector {
  name: string;
  type: string;
  hex: string;
  canonicalHex?: string;
  fields: Record<string, unknown>;
}

export const vectors: Vector[] = JSON.parse(readFileSync(new URL('../../proto/testdata/vectors.json', import.meta.url), 'utf8'));
export const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
export const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const shortName = (type: string) => type.replace(/^wasmhooks\.v1\./, '');
/** An echo plugin's input: the message type's name, a newline, the bytes. */
export const framed = (type: string, payload: Uint8Array) => Uint8Array.from([...Buffer.from(`${shortName(type)}\n`), ...payload]);

interface StaticCodec {
  decode(b: Uint8Array): object;
  encode(m: object): { finish(): Uint8Array };
}
/** The host's protobufjs static codec of a vector's type. */
export const hostCodec = (type: string) => (wasmhooks.v1 as unknown as Record<string, StaticCodec>)[shortName(type)]!;

/** Malformed input a guest codec must refuse with a message, never a trap: [what, type, hex]. */
const MALFORMED: Array<[string, string, string]> = [
  ['a truncated varint', 'HookRequest', '08'],
  ['a length past the end', 'HookRequest', '6205'],
  ['a truncated nested message', 'HookRequest', '6206' + '0a0a42'],
  ['wire type 3 (groups)', 'PluginInfo', '0b'],
  ['field number 0', 'HookResponse', '0001'],
  ['a string field that is not UTF-8 (an overlong "/")', 'ToolRequest', '0a02c0af'],
  ['an eleven-byte varint', 'HookResponse', '08' + 'ff'.repeat(10) + '01'],
  ['a length of 2^32 + 1 (must not wrap)', 'PluginInfo', '0a' + '8180808010'],
];

/**
 * Call inside a describe: loads the echo plugin at `wasm` (repo-relative) and adds the tests
 * both guest codecs pass: every vector re-encodes to its canonical bytes and decodes to its
 * fields, and malformed input fails the call (named `name` in the message) without a trap.
 * Returns the plugin, for the suite's own tests.
 */
export function echoCodecSuite(wasm: string, name: string): () => TestPlugin {
  let echo: TestPlugin;
  beforeAll(async () => {
    echo = await loadForTest(builtWasm(wasm));
  });
  afterAll(() => echo?.close());

  it.each(vectors.map((v) => [v.name, v] as const))('%s', async (_name, v) => {
    const reencoded = await echo.callRaw('echo', framed(v.type, bytes(v.hex)));
    expect(toHex(reencoded)).toBe(v.canonicalHex ?? v.hex);
    const json = new TextDecoder().decode(await echo.callRaw('fields', framed(v.type, bytes(v.hex))));
    expect(JSON.parse(json)).toEqual(v.fields);
  });

  it.each(MALFORMED)('fails the call (no trap) on %s', async (_what, type, hex) => {
    await expect(echo.callRaw('echo', framed(type, bytes(hex)))).rejects.toThrow(new RegExp(`Plugin-originated error: ${name}: not a valid ${type}: .* at byte \\d+`));
    // The instance is still usable after a failed call.
    expect(toHex(await echo.callRaw('echo', framed('ToolResponse', bytes('0a0178'))))).toBe('0a0178');
  });

  return () => echo;
}
