/**
 * Row group 2: what fuel metering costs on compute-heavy code.
 * - FNV-1a over 1 MiB × 4 rounds (test/fixtures/wat/hash.wat): the instrumented
 *   module against the original, both as bare WebAssembly instances.
 * - A plain Extism plugin end to end: the C `count_vowels` of
 *   test/fixtures/corpus/count-vowels.c over 256 KiB of text, through our
 *   sandbox (instrumented, fuel on) against raw Extism on the original bytes.
 */
import createPlugin from '@extism/extism';
import { createSandbox } from '../../host/index.js';
import { buildC } from '../../scripts/build-c.js';
import { corpus } from '../../test/fixtures/corpus.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { compare, runtimeName } from '../harness.js';
import { gateRows } from './gate.js';
import { fig, makeRow, type RowsFn } from './row.js';
import { watFixture } from './wat.js';

type HashExports = { fill: (n: number) => void; hash: (n: number, rounds: number) => number };

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  const original = await watFixture('wat/hash.wat');
  const { bytes: metered } = instrument(original, { maxMemoryPages: 256 });
  let refuels = 0;
  const imports = { 'wasmhooks:sandbox': { refuel: () => (refuels++, 10_000_000n) } };
  const plain = (await WebAssembly.instantiate(original)).instance.exports as unknown as HashExports;
  const fueled = (await WebAssembly.instantiate(metered as Uint8Array<ArrayBuffer>, imports)).instance.exports as unknown as HashExports;
  const BYTES = 1 << 20;
  plain.fill(BYTES);
  fueled.fill(BYTES);
  if (plain.hash(BYTES, 2) !== fueled.hash(BYTES, 2)) throw new Error('fuel bench: instrumented hash differs from the original');

  await buildC({ names: ['count-vowels'], log: () => {} });
  const code = await corpus('count-vowels');
  const text = new TextEncoder().encode('the quick brown fox jumps over the lazy dog. '.repeat(Math.ceil((256 << 10) / 45)));
  const raw = await createPlugin({ wasm: [{ data: code }] }, { useWasi: false });
  // The same plugin instrumented, in raw Extism with a refuel that always refills: fuel alone, no sandbox.
  const meteredCode = instrument(code, { maxMemoryPages: 65536 }).bytes;
  const rawMetered = await createPlugin(
    { wasm: [{ data: meteredCode }] },
    { useWasi: false, functions: { 'wasmhooks:sandbox': { refuel: () => 10_000_000n, gate: () => 0 } } },
  );
  const ours = await createSandbox(code, { limits: { timeoutMs: 10_000, fuel: 1e15, maxInputBytes: 1 << 20 } });
  const check = await ours.call('count_vowels', text);
  if (!check.ok) throw new Error(`fuel bench: count_vowels in the sandbox failed: ${check.failure.message}`);

  const opts = { samples: quick ? 20 : 100, warmup: 3, maxMs: quick ? 2_000 : 8_000 };
  const r = await compare(
    {
      plain: () => plain.hash(BYTES, 4),
      fueled: () => fueled.hash(BYTES, 4),
      raw: () => raw.call('count_vowels', text),
      rawMetered: () => rawMetered.call('count_vowels', text),
      ours: () => ours.call('count_vowels', text),
    },
    { ...opts, rounds: 10, clock: 'cpu' },
  );
  await Promise.all([raw.close(), rawMetered.close(), ours.close()]);
  const gate = await gateRows(runtime, quick);
  return [
    makeRow('fuel', runtime, {
      what: 'FNV-1a 1 MiB × 4 (hash.wat), instrumented vs original',
      ours: fig(r.fueled, 'ms', 'cpu'),
      anchorName: 'original module',
      anchor: fig(r.plain, 'ms', 'cpu'),
      target: { op: 'max', value: 1.2 },
    }),
    makeRow('fuel', runtime, {
      what: 'C count_vowels over 256 KiB (test corpus), raw Extism: instrumented vs original bytes',
      ours: fig(r.rawMetered, 'ms', 'cpu'),
      anchorName: 'raw Extism, original',
      anchor: fig(r.raw, 'ms', 'cpu'),
      target: { op: 'max', value: 1.2 },
      note: 'fuel alone in a real plugin: the same Extism host, a refuel import that always refills',
    }),
    makeRow('fuel', runtime, {
      what: 'C count_vowels over 256 KiB, our sandbox vs raw Extism on the instrumented bytes',
      ours: fig(r.ours, 'ms', 'cpu'),
      anchorName: 'raw Extism, instrumented',
      anchor: fig(r.rawMetered, 'ms', 'cpu'),
      note: 'the sandbox machinery alone (input copy, limits, deadline), fuel on both sides',
    }),
    makeRow('fuel', runtime, {
      what: 'C count_vowels over 256 KiB (test corpus), sandbox vs raw Extism',
      ours: fig(r.ours, 'ms', 'cpu'),
      anchorName: 'raw Extism',
      anchor: fig(r.raw, 'ms', 'cpu'),
      note: 'end to end: fuel and the sandbox machinery together',
    }),
    ...gate,
  ];
};
