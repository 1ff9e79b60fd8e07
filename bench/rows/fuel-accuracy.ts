/**
 * Fuel accuracy rows: for each module of the corpus (test/fixtures/fuel-corpus.ts),
 * the fast block rule's fuel divided by the exact count on the same input
 * (target 1 ± 0.25). Fuel per µs (how much CPU one unit buys on each kind
 * of code) is in fuel.ts, from the medians of the overhead rows.
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
  const rows: Row[] = all.map((s) => {
    // A trap discards the counter held in locals and parameters since its last write-back to the global (a host or
    // indirect call, a refuel): at most the slice in hand (docs/sandbox-instrumentation.md, "Consequences for the
    // runtime"). Such rows are shown without a target.
    const trapped = /TRAP|STACK_OVERFLOW/.test(s.what);
    return makeRow('fuel', runtime, {
      what: `fuel accuracy: ${s.module}, ${s.what} (fast ÷ exact)`,
      ours: { value: corpus.ratio(s), unit: '×' },
      ...(trapped ? {} : { target: { op: 'within', value: 1, unit: '×', tolerance: 0.25 } as const }),
      note: `fast ${s.fast}, exact ${s.exact}${trapped ? '; trapped: the charges since the last write-back to the global are lost' : ''}`,
    });
  });
  return rows;
}
