/**
 * The benchmark suite: every row, one table, `bench/results.json`.
 *
 *   npm run bench                              # all rows, this runtime (Node via tsx)
 *   npx tsx bench/run.ts --only dispatch,fuel  # some groups
 *   npx tsx bench/run.ts --quick --json        # fewer samples; JSON on stdout too
 *   npm run bench:all                          # dispatch rows on Node, Deno and Bun
 *
 * Every ratio is of two figures measured side by side in the same run; the
 * machine is shared, so absolute figures drift and the ratios are what count.
 */
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import process from 'node:process';
import { runtimeName } from './harness.js';
import { GROUPS, type Group, type Row, type RowsFn } from './rows/row.js';
import { FOOTER, table } from './table.js';

const LOADERS: Record<Group, () => Promise<{ run: RowsFn }>> = {
  dispatch: () => import('./rows/dispatch.js'),
  deadline: () => import('./rows/deadline.js'),
  fuel: () => import('./rows/fuel.js'),
  load: () => import('./rows/load.js'),
  cold: () => import('./rows/cold.js'),
  bus: () => import('./rows/bus.js'),
  loop: () => import('./rows/loop.js'),
  sse: () => import('./rows/sse.js'),
  store: () => import('./rows/store.js'),
  memory: () => import('./rows/memory.js'),
  guests: () => import('./rows/guests.js'),
  matcher: () => import('./rows/matcher.js'),
  anylang: () => import('./rows/anylang.js'),
};

interface Args {
  only: Group[];
  json: boolean;
  quick: boolean;
  out: string | undefined;
}

function usage(message: string): never {
  console.error(`bench: ${message}\nusage: bench/run.ts [--only ${GROUPS.join(',')}] [--quick] [--json] [--out FILE | --no-write]`);
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const args: Args = { only: [...GROUPS], json: false, quick: false, out: new URL('./results.json', import.meta.url).pathname };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') args.json = true;
    else if (a === '--quick') args.quick = true;
    else if (a === '--no-write') args.out = undefined;
    else if (a === '--out') args.out = argv[++i] ?? usage('--out needs a file');
    else if (a === '--only') {
      const list = (argv[++i] ?? usage('--only needs a list of groups')).split(',');
      const bad = list.filter((g) => !(GROUPS as readonly string[]).includes(g));
      if (bad.length > 0) usage(`unknown group ${bad.join(', ')}`);
      args.only = list as Group[];
    } else usage(`unknown argument ${a}`);
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (m: string) => (args.json ? process.stderr : process.stdout).write(`${m}\n`);
  const started = Date.now();
  const rows: Row[] = [];
  const failures: { group: Group; error: string }[] = [];
  for (const group of args.only) {
    const t = Date.now();
    log(`… ${group}`);
    try {
      rows.push(...(await (await LOADERS[group]()).run({ quick: args.quick })));
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push({ group, error: message });
      log(`! ${group} failed: ${message}`);
    }
    log(`  ${group} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const machine = { runtime: runtimeName(), cores: cpus().length, cpu: cpus()[0]?.model ?? '?', loadavg: loadavg() };
  const result = {
    date: new Date().toISOString(),
    command: `${runtimeName().split(' ')[0]} bench/run.ts ${process.argv.slice(2).join(' ')}`.trim(),
    machine,
    seconds: (Date.now() - started) / 1000,
    quick: args.quick,
    rows,
    failures,
  };
  log(`\n${table(rows)}\n\n${FOOTER}`);
  log(`${machine.runtime}, ${machine.cores} cores (${machine.cpu}), load ${machine.loadavg.map((x) => x.toFixed(1)).join(' ')}, ${result.seconds.toFixed(0)} s`);
  if (args.out) await writeFile(args.out, `${JSON.stringify(result, null, 2)}\n`);
  if (args.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  // Workers, sockets and plugin instances of the rows must not keep the process alive.
  process.exit(failures.length > 0 ? 1 : 0);
}

await main();
