/**
 * Fuel accuracy rows: for each module of the corpus (test/fixtures/fuel-corpus.ts),
 * the fast block rule's fuel divided by the exact count on the same input
 * (target 1 ± 0.25), and the fuel a warm fast-mode run burns per µs of wall
 * time: how much CPU one unit of fuel buys on each kind of code. The spread
 * of that figure across the corpus is the last row.
 */
import { readFile } from 'node:fs/promises';
import * as corpus from '../../test/fixtures/fuel-corpus.js';
import { makeRow, type Row } from './row.js';
import { watFixture } from './wat.js';

async function samples(api: corpus.FuelApi): Promise<corpus.Sample[]> {
  const { guardRequest, heredoc } = await import('./fuel.js');
  const guard = new Uint8Array(await readFile(new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url)));
  return [
    ...(await corpus.countVowels(api)),
    ...(await corpus.firstParty(api)),
    await corpus.both(api, 'guard-shell', 'hook: 10 KB heredoc', guard, 'hook', guardRequest(heredoc(10_000))),
    ...(await corpus.hostile(api, (name) => watFixture(`hostile/${name}.wat`))),
    ...(await corpus.sqlJs(api)),
    ...(await corpus.oniguruma(api)),
  ];
}

export async function accuracyRows(api: corpus.FuelApi, runtime: string, _quick: boolean): Promise<Row[]> {
  const all = await samples(api);
  const rows: Row[] = all.map((s) =>
    makeRow('fuel', runtime, {
      what: `fuel accuracy: ${s.module}, ${s.what} (fast ÷ exact)`,
      ours: { value: corpus.ratio(s), unit: '×' },
      target: { op: 'within', value: 1, unit: '×', tolerance: 0.25 },
      note: `fast ${s.fast}, exact ${s.exact}`,
    }),
  );
  // Fuel per µs only where the run is long enough to time (≥ 1 ms) and ends normally.
  const timed = all.filter((s) => s.fastMs !== undefined && s.fastMs >= 1 && s.fast > 100_000);
  const perUs = timed.map((s) => ({ s, rate: s.fast / (s.fastMs! * 1000) }));
  for (const { s, rate } of perUs) {
    rows.push(
      makeRow('fuel', runtime, {
        what: `fuel per µs: ${s.module}, ${s.what}`,
        ours: { value: rate, unit: 'fuel/µs' },
        note: `${s.fast} fuel in ${s.fastMs!.toFixed(2)} ms wall (one warm run, fast mode)`,
      }),
    );
  }
  if (perUs.length > 1) {
    const rates = perUs.map((p) => p.rate).sort((a, b) => a - b);
    rows.push(
      makeRow('fuel', runtime, {
        what: 'fuel per µs: spread across the corpus (max ÷ min)',
        ours: { value: rates[rates.length - 1]! / rates[0]!, unit: '×' },
        note: `${rates[0]!.toFixed(0)} to ${rates[rates.length - 1]!.toFixed(0)} fuel/µs; median ${rates[rates.length >> 1]!.toFixed(0)}`,
      }),
    );
  }
  return rows;
}
