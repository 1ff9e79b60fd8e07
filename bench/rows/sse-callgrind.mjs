// Instructions per event of one SSE server (sse-server.mjs) under callgrind (ninth session, bench/README.md):
// 200 raw-socket clients, WARM (3) warm-up bursts of 8,000 events, counters zeroed, then the counted bursts;
// every thread's instructions (V8's helpers too), whatever the machine's load. Usage:
//   node bench/rows/sse-callgrind.mjs <node|deno|bun> <ours|anchor> [bursts=2] [events=5000] [tag]
// The dump (callgrind_annotate it) is in the temp directory. Under valgrind Deno's time-driven work changes
// (see the README): read Deno's figures only beside a native-speed CPU measurement.
import { spawn, execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
const [runtime, kind, bursts = '2', events = '5000', tag = kind] = process.argv.slice(2);
const WT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const script = `${WT}/bench/rows/sse-server.mjs`;
const exe = { node: ['node', ['--no-warnings']], deno: [`${WT}/node_modules/.bin/deno`, ['run', '-A', '--quiet']], bun: [`${WT}/node_modules/.bin/bun`, []] }[runtime];
const limit = 8010;
const now = () => performance.timeOrigin + performance.now();
const out = `${tmpdir()}/sse-cg-${runtime}-${tag}.out`;
for (const f of readdirSync(tmpdir())) if (f.startsWith(`sse-cg-${runtime}-${tag}.out`)) rmSync(`${tmpdir()}/${f}`);
const p = spawn('valgrind', ['--tool=callgrind', '--separate-threads=yes', `--callgrind-out-file=${out}`, '--smc-check=all-non-file', exe[0], ...exe[1], script, kind, String(limit)], { stdio: ['pipe', 'pipe', 'ignore'] });
const q = []; let w;
createInterface({ input: p.stdout }).on('line', (l) => { let m; try { m = JSON.parse(l); } catch { return; } if (w) { const f = w; w = undefined; f(m); } else q.push(m); });
const next = () => q.length ? Promise.resolve(q.shift()) : new Promise((r) => (w = r));
const send = (m) => p.stdin.write(JSON.stringify(m) + '\n');
const { url } = await next();
const st = { bytes: 0, last: 0 };
const shared = Buffer.allocUnsafe(256 * 1024);
const { hostname, port, pathname } = new URL(url);
await Promise.all(Array.from({ length: 200 }, () => new Promise((res) => {
  let started = false;
  const s = connect({ host: hostname, port: Number(port), onread: { buffer: shared, callback(n) { st.bytes += n; st.last = now(); if (!started) { started = true; res(); } return true; } } });
  s.on('connect', () => s.write(`GET ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\naccept: text/event-stream\r\n\r\n`));
})));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function burst(n) {
  send({ cmd: 'burst', events: n, batch: 50, start: now() });
  await next();
  const t0 = now();
  while (true) { await sleep(200); if (now() - st.last > 1500 && now() - t0 > 1000) break; }
}
const warm = Number(process.env.WARM ?? 3);
for (let i = 0; i < warm; i++) await burst(8000);
// the valgrind pid is p.pid (valgrind execs the tool in place)
execFileSync('callgrind_control', ['-z', String(p.pid)], { stdio: 'ignore' });
const b0 = st.bytes;
for (let i = 0; i < Number(bursts); i++) await burst(Number(events));

execFileSync('callgrind_control', ['-d', String(p.pid)], { stdio: 'ignore' });
await sleep(2000);
p.kill('SIGKILL');
// One dump per thread (`<out>.<part>-<thread>`, session 40): thread 1 is the main thread, where the JavaScript runs.
let total = 0;
let main = 0;
for (const f of execFileSync('sh', ['-c', `ls ${out}.*`]).toString().trim().split('\n')) {
  const text = readFileSync(f, 'utf8');
  const m = text.match(/^summary: (\d+)/m) ?? text.match(/^totals: (\d+)/m);
  if (!m) continue;
  total += Number(m[1]);
  if (/^thread: 1$/m.test(text)) main += Number(m[1]);
}
const per = (n) => Math.round(n / (Number(bursts) * Number(events)));
console.log(`${runtime} ${tag} Ir/event ${per(total)} (main thread ${per(main)}, other threads ${per(total - main)}) bytes/client ${(st.bytes - b0) / 200}`);
