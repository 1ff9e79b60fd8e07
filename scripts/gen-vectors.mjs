#!/usr/bin/env node
// Regenerates proto/testdata/vectors.json from proto/testdata/vectors.spec.mjs
// with protobufjs on hooks.proto, and checks that every vector is canonical:
// decoding its bytes gives back exactly its fields (so the spec holds no
// proto3 defaults) and re-encoding gives the same bytes.
// Usage: node scripts/gen-vectors.mjs [--check]   (--check: exit 1 if vectors.json is stale)
import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import spec from '../proto/testdata/vectors.spec.mjs';

const PROTO = fileURLToPath(new URL('../proto/wasmhooks/v1/hooks.proto', import.meta.url));
const OUT = fileURLToPath(new URL('../proto/testdata/vectors.json', import.meta.url));
const root = protobuf.loadSync(PROTO);
const hex = (bytes) => Buffer.from(bytes).toString('hex');

function build(v) {
  const type = root.lookupType(`wasmhooks.v1.${v.type}`);
  const problem = type.verify(type.fromObject(v.fields));
  if (problem) throw new Error(`${v.name}: ${problem}`);
  const canonical = hex(type.encode(type.fromObject(v.fields)).finish());
  const input = v.hex ? v.hex() : canonical;
  const decoded = type.decode(Buffer.from(input, 'hex'));
  const back = type.toObject(decoded, { enums: String });
  if (!isDeepStrictEqual(back, v.fields)) {
    throw new Error(`${v.name}: decoding gives ${JSON.stringify(back)}, not the spec's fields (a default value in the spec?)`);
  }
  if (hex(type.encode(decoded).finish()) !== canonical) throw new Error(`${v.name}: re-encoding is not canonical`);
  const out = { name: v.name, type: type.fullName.slice(1), hex: input };
  if (input !== canonical) out.canonicalHex = canonical;
  out.fields = v.fields;
  return out;
}

const names = new Set();
for (const v of spec) {
  if (names.has(v.name)) throw new Error(`duplicate vector name: ${v.name}`);
  names.add(v.name);
}
const text = `${JSON.stringify(spec.map(build), null, 2)}\n`;

if (process.argv.includes('--check')) {
  let current = '';
  try { current = readFileSync(OUT, 'utf8'); } catch { /* missing counts as stale */ }
  if (current !== text) {
    console.error('proto/testdata/vectors.json is stale: run node scripts/gen-vectors.mjs');
    process.exit(1);
  }
  console.log(`vectors.json is up to date (${spec.length} vectors)`);
} else {
  writeFileSync(OUT, text);
  console.log(`wrote ${spec.length} vectors to proto/testdata/vectors.json`);
}
