/**
 * `npm run bench:all`: the dispatch, deadline, fuel, cold-start and SSE rows on Node, Deno
 * and Bun, one after the other, merged into one table and `bench/results-all.json`.
 * Each runtime runs `bench/run.ts --only dispatch,deadline,fuel,cold,sse --json` in its own
 * process. `--node 22,24,26` adds those Node release lines (bench/nodes.ts fetches them
 * from the npm registry once) after the machine's own Node.
 *   npx tsx bench/all.ts [--quick] [--only cold,fuel] [--node 24]
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import process from 'node:process';
import { nodeBinary } from './nodes.js';
import type { Group, Row } from './rows/row.js';
import { FOOTER, table } from './table.js';

/** Groups that run on every runtime (the others need Node: child processes with --expose-gc, node:http). */
const ALL: readonly Group[] = ['dispatch', 'deadline', 'fuel', 'cold', 'sse'];
const argv = process.argv.slice(2);
const only = argv.indexOf('--only');
// `--only cold,sse` (a subset of ALL) runs fewer groups.
const GROUPS: readonly Group[] = only >= 0 ? ALL.filter((g) => (argv[only + 1] ?? '').split(',').includes(g)) : ALL;
const extra = argv.filter((a) => a === '--quick');
const nodeFlag = argv.indexOf('--node');
const nodeLines = nodeFlag >= 0 ? (argv[nodeFlag + 1] ?? '').split(',').filter(Boolean) : [];
const nodeRun = (bin: string) => [bin, '--expose-gc', '--import', 'tsx', 'bench/run.ts'];
const RUNS: { name: string; cmd: string[] }[] = [
  { name: 'node', cmd: nodeRun('node') },
  ...(await Promise.all(nodeLines.map(async (line) => ({ name: `node ${line}`, cmd: nodeRun(await nodeBinary(line)) })))),
  // Sloppy imports: the host's sources import './x.js' for './x.ts', as tsc wants.
  { name: 'deno', cmd: ['npx', 'deno', 'run', '-A', '--unstable-sloppy-imports', '--v8-flags=--expose-gc', 'bench/run.ts'] },
  { name: 'bun', cmd: ['npx', 'bun', 'run', 'bench/run.ts'] },
];

function runOne(cmd: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd[0]!, [...cmd.slice(1), '--only', GROUPS.join(','), '--json', '--no-write', ...extra], {
      cwd: new URL('..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

const rows: Row[] = [];
const failures: { runtime: string; error: string }[] = [];
for (const { name, cmd } of RUNS) {
  process.stderr.write(`== ${name}\n`);
  const { code, stdout } = await runOne(cmd);
  const last = stdout.trim().split('\n').at(-1) ?? '';
  try {
    const parsed = JSON.parse(last) as { rows: Row[]; failures: unknown[] };
    rows.push(...parsed.rows);
    if (code !== 0) failures.push({ runtime: name, error: `exit ${code}: ${JSON.stringify(parsed.failures)}` });
  } catch {
    failures.push({ runtime: name, error: `exit ${code}, no JSON result` });
  }
}
console.log(`${table(rows)}\n\n${FOOTER}`);
for (const f of failures) console.log(`! ${f.runtime}: ${f.error}`);
await writeFile(new URL('./results-all.json', import.meta.url), `${JSON.stringify({ date: new Date().toISOString(), rows, failures }, null, 2)}\n`);
process.exit(failures.length > 0 ? 1 : 0);
