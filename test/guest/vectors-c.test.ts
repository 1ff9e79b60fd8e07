// The shared test vectors (proto/testdata/vectors.json) through the C SDK's codec
// (sdk-c/wasmhooks/hooks.pb.h, inside test/fixtures/vector-echo-c): every vector
// decodes to its fields and re-encodes to the same canonical bytes, byte for byte,
// as the host codec and the AssemblyScript codec do (vectors.test.ts).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bytes, echoCodecSuite, framed, hostCodec, toHex, vectors } from './vectors.js';

it('sdk-c/wasmhooks/hooks.pb.h is what sdk-c/scripts/gen-codec.mjs makes from hooks.proto', () => {
  const repo = fileURLToPath(new URL('../..', import.meta.url));
  expect(execFileSync(process.execPath, ['sdk-c/scripts/gen-codec.mjs', '--check'], { cwd: repo, encoding: 'utf8' })).toContain('up to date');
});

describe('C codec (sdk-c, in vector-echo-c.wasm)', () => {
  const echo = echoCodecSuite('test/fixtures/vector-echo-c/build/vector-echo-c.wasm', 'vector-echo-c');

  it('bytes C encodes decode on the host to the same canonical bytes', async () => {
    for (const v of vectors) {
      const codec = hostCodec(v.type);
      const cBytes = await echo().callRaw('echo', framed(v.type, bytes(v.hex)));
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
        await echo().callRaw('echo', framed(v.type, Uint8Array.from(b)));
        outcomes.decoded++;
      } catch (error) {
        expect((error as Error).message, `${v.name}: ${Buffer.from(b).toString('hex')}`).toMatch(/^Plugin-originated error: vector-echo-c: not a valid \w+: .* at byte \d+$/);
        outcomes.refused++;
      }
    }
    expect(outcomes.decoded).toBeGreaterThan(100);
    expect(outcomes.refused).toBeGreaterThan(100);
  }, 120_000);
});
