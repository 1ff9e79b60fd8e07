/**
 * What the host-call gate costs (host/sandbox/instrument/hostcalls.ts), per
 * host call, in bare WebAssembly instances: a loop calling an import that the
 * sandbox gates (a wrapper charging fuel, then the real `gate` host function
 * checking stop, abort and the deadline), and a loop calling an Extism
 * constant-time accessor (charged inline, no gate); each against the same
 * loop uninstrumented. Part of the `fuel` group.
 */
import { gateImport } from '../../host/sandbox/gate.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { Meter } from '../../host/sandbox/meter.js';
import { compare, type Stats } from '../harness.js';
import { fig, makeRow, type Row } from './row.js';
import { watFixture } from './wat.js';

type Exports = { gated: (n: number) => number; cheap: (n: number) => bigint };
const CALLS = 100_000;

export async function gateRows(runtime: string, quick: boolean): Promise<Row[]> {
  const original = await watFixture('wat/hostcalls.wat');
  const { bytes } = instrument(original, { maxMemoryPages: 1 });
  const host = { env: { host: (x: number) => x & 1 }, 'extism:host/env': { input_length: () => 1n } };
  const meter = new Meter({ deadline: Number.POSITIVE_INFINITY, timeoutMs: 0, fuel: Number.POSITIVE_INFINITY, signal: undefined }, 1e9, null);
  // Extism binds host functions to its call context; the gate reads it only for block lengths.
  const gate = gateImport(() => meter).bind(null, null as never);
  const plain = (await WebAssembly.instantiate(original, host)).instance.exports as unknown as Exports;
  const gated = (await WebAssembly.instantiate(bytes, { ...host, 'wasmhooks:sandbox': { refuel: () => 1_000_000_000n, gate } }))
    .instance.exports as unknown as Exports;
  if (plain.gated(10) !== gated.gated(10)) throw new Error('gate bench: instrumented result differs');
  const r = await compare(
    {
      plain: () => plain.gated(CALLS),
      gated: () => gated.gated(CALLS),
      plainCheap: () => plain.cheap(CALLS),
      cheap: () => gated.cheap(CALLS),
    },
    { samples: quick ? 20 : 60, warmup: 3, maxMs: quick ? 1_500 : 4_000, rounds: 10 },
  );
  const perCall = (s: Stats): Stats => ({ ...s, median: s.median / CALLS, p99: s.p99 / CALLS });
  return [
    makeRow('fuel', runtime, {
      what: 'host call through the gate (wrapper + fuel + gate: stop, abort, deadline), per call',
      ours: fig(perCall(r.gated), 'ns'),
      anchorName: 'the same import called uninstrumented',
      anchor: fig(perCall(r.plain), 'ns'),
      note: `${CALLS} calls of a trivial JS import per sample; the difference is the gate's cost per host call`,
    }),
    makeRow('fuel', runtime, {
      what: 'Extism constant-time accessor (input_length), charged inline, per call',
      ours: fig(perCall(r.cheap), 'ns'),
      anchorName: 'the same import called uninstrumented',
      anchor: fig(perCall(r.plainCheap), 'ns'),
    }),
  ];
}
