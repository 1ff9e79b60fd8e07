// Instructions per event of the SSE hub alone (sse-hub.ts: our EventHub or the anchor's loop, 200 counting
// writers, no network) under callgrind, every thread (the collector's too). Usage:
//   node bench/rows/sse-hub-callgrind.mjs <node|deno|bun> <ours|anchor> [warm bursts=8] [counted bursts=4] [tag]
// sse-hub.ts is bundled first with esbuild (one .mjs, the same file for the three runtimes, no loader in the
// counted process). The dump (callgrind_annotate it) is in the temp directory, under the tag.
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { build } from 'esbuild';

const [runtime, kind, warm = '8', counted = '4', tag = kind] = process.argv.slice(2);
const WT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const bundle = `${tmpdir()}/sse-hub-${process.pid}.mjs`;
await build({ entryPoints: [`${WT}/bench/rows/sse-hub.ts`], bundle: true, format: 'esm', platform: 'node', target: 'es2022', outfile: bundle, logLevel: 'error' });
const exe = { node: ['node', ['--no-warnings']], deno: [`${WT}/node_modules/.bin/deno`, ['run', '-A', '--quiet']], bun: [`${WT}/node_modules/.bin/bun`, []] }[runtime];
if (!exe || (kind !== 'ours' && kind !== 'anchor')) throw new Error('usage: sse-hub-callgrind.mjs <node|deno|bun> <ours|anchor> [warm] [counted] [tag]');
const out = `${tmpdir()}/sse-hub-cg-${runtime}-${tag}.out`;
const name = out.split('/').pop();
const dumps = () => readdirSync(tmpdir()).filter((f) => f === name || f.startsWith(`${name}.`));
for (const f of dumps()) rmSync(`${tmpdir()}/${f}`);
const p = spawn('valgrind', ['--tool=callgrind', '--separate-threads=yes', `--callgrind-out-file=${out}`, '--smc-check=all-non-file', exe[0], ...exe[1], bundle, kind, warm, counted], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const lines = createInterface({ input: p.stdout })[Symbol.asyncIterator]();
const expect = async (word) => {
  for (;;) {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the counted process ended before '${word}'`);
    if (value.startsWith(word)) return value;
  }
};
await expect('warm');
// The valgrind process is the counted one (valgrind runs its tool in place).
execFileSync('callgrind_control', ['-z', String(p.pid)], { stdio: 'ignore' });
p.stdin.write('go\n');
const done = await expect('done');
execFileSync('callgrind_control', ['-d', String(p.pid)], { stdio: 'ignore' });
// Killed, not ended: the rest of the process (its exit) would be dumped too.
await new Promise((r) => setTimeout(r, 1000));
p.kill('SIGKILL');
await new Promise((r) => p.on('exit', r));
rmSync(bundle);
// One dump per thread (`<out>.<part>-<thread>`): thread 1 is the main thread, where the JavaScript runs.
let total = 0;
let main = 0;
for (const f of dumps()) {
  const text = readFileSync(`${tmpdir()}/${f}`, 'utf8');
  const m = text.match(/^summary: (\d+)/m) ?? text.match(/^totals: (\d+)/m);
  if (!m) continue;
  total += Number(m[1]);
  if (/^thread: 1$/m.test(text)) main += Number(m[1]);
}
const events = Number(counted) * 5000;
const per = (n) => Math.round(n / events);
console.log(`${runtime} ${tag} Ir/event ${per(total)} (main thread ${per(main)}, other threads ${per(total - main)}) bytes/client ${Number(done.split(' ')[1])}`);
