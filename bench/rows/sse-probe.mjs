// SSE probe of the ninth session (bench/README.md, "Ninth session"): 200 raw-socket clients per server stay
// connected across bursts (no connect or hang-up in the measurement), the servers (sse-server.mjs) burst in
// turn, never at once, and each one's CPU time per event is read (user and system ticks from /proc: Linux only).
// Usage: node bench/rows/sse-probe.mjs <node|deno|bun> [rounds=6] [events=5000] [kinds=ours,anchor]
//   kind `old`: ours from another checkout (SSE_OLD=<its root>, dist/ built there), to compare two trees.
//   STRACE=1: `strace -c -f` of each server over the first counted round (files in the temp directory).
//   PERF=1: `perf record -g` of both servers over the counted rounds, JIT frames named (--perf-basic-prof).
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
const [runtime, rounds = '6', events = '5000', kindsArg = 'ours,anchor'] = process.argv.slice(2);
const WT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const TMP = tmpdir();
const script = `${WT}/bench/rows/sse-server.mjs`;
const PB = !!process.env.PERF;
const exe = { node: ['node', ['--no-warnings', ...(PB ? ['--perf-basic-prof'] : [])]], deno: [`${WT}/node_modules/.bin/deno`, ['run', '-A', '--quiet', ...(PB ? ['--v8-flags=--perf-basic-prof'] : [])]], bun: [`${WT}/node_modules/.bin/bun`, []] }[runtime];
const limit = Number(events) + 10;
const now = () => performance.timeOrigin + performance.now();
function start(kind) {
  const p = spawn(exe[0], [...exe[1], kind === 'old' ? `${process.env.SSE_OLD}/bench/rows/sse-server.mjs` : script, kind === 'old' ? 'ours' : kind.replace(/\d$/, ''), String(limit)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const q = []; let w;
  createInterface({ input: p.stdout }).on('line', (l) => { let m; try { m = JSON.parse(l); } catch { return; } if (w) { const f = w; w = undefined; f(m); } else q.push(m); });
  return { kind, p, next: () => q.length ? Promise.resolve(q.shift()) : new Promise((r) => (w = r)), send: (m) => p.stdin.write(JSON.stringify(m) + '\n') };
}
const shared = Buffer.allocUnsafe(256 * 1024);
function clients(url, st) {
  const { hostname, port, pathname } = new URL(url);
  return Promise.all(Array.from({ length: 200 }, () => new Promise((res) => {
    let started = false;
    const s = connect({ host: hostname, port: Number(port), onread: { buffer: shared, callback(n) { st.bytes += n; st.reads++; st.last = now(); if (!started) { started = true; res(); } return true; } } });
    s.setNoDelay(true);
    s.on('connect', () => s.write(`GET ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\naccept: text/event-stream\r\n\r\n`));
  })));
}
const kinds = kindsArg.split(',');
const servers = [];
for (const k of kinds) { const s = start(k); s.url = (await s.next()).url; s.st = { bytes: 0, reads: 0, last: 0 }; await clients(s.url, s.st); servers.push(s); }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
import { readFileSync } from 'node:fs';
const stat = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return [Number(f[11]), Number(f[12])]; };
async function burst(s, n, strace) {
  await sleep(300);
  let tr;
  if (strace) { tr = spawn('strace', ['-c', '-f', '-p', String(s.p.pid), '-o', `${TMP}/sse-strace-${runtime}-${s.kind}.txt`], { stdio: 'ignore' }); await sleep(1500); }
  const b0 = s.st.bytes, r0 = s.st.reads; const p0 = stat(s.p.pid);
  s.send({ cmd: 'mark' });
  s.send({ cmd: 'burst', events: n, batch: 50, start: now() });
  await s.next();
  const t0 = now();
  while (true) { await sleep(100); if (now() - s.st.last > 200 && now() - t0 > 300) break; }
  s.send({ cmd: 'cpu' });
  const { cpuMs } = await s.next();
  const p1 = stat(s.p.pid); s.ut = (s.ut ?? 0) + p1[0] - p0[0]; s.sy = (s.sy ?? 0) + p1[1] - p0[1];
  if (tr) { tr.kill('SIGINT'); await new Promise((r) => tr.on('exit', r)); }
  return { us: (cpuMs * 1000) / n, bytes: (s.st.bytes - b0) / 200, reads: (s.st.reads - r0) / 200 };
}
// warm-up
for (let i = 0; i < 2; i++) for (const s of servers) await burst(s, 8000);
for (const s of servers) s.ut = s.sy = 0;
if (process.env.PERF) { const pr = spawn('perf', ['record', '-F', '499', '-g', '-o', `${TMP}/sse-perf-${runtime}.data`, '-p', servers.map((s) => s.p.pid).join(',')], { stdio: 'ignore' }); globalThis.pr = pr; await sleep(1000); }
const res = Object.fromEntries(kinds.map((k) => [k, []]));
for (let r = 0; r < Number(rounds); r++) {
  const order = r % 2 ? [...servers].reverse() : servers;
  for (const s of order) { const x = await burst(s, Number(events), process.env.STRACE && r === 0); res[s.kind].push(x); }
}
const med = (a) => { const b = [...a].sort((x, y) => x - y); return b.length % 2 ? b[b.length >> 1] : (b[b.length / 2 - 1] + b[b.length / 2]) / 2; };
for (const k of kinds) console.log(runtime, k, 'cpu µs/event median', med(res[k].map((x) => x.us)).toFixed(2), 'all', res[k].map((x) => x.us.toFixed(1)).join(' '), 'bytes/client', res[k][0].bytes, 'reads/client', res[k][0].reads);
if (kinds.length === 2) console.log('ratio', (med(res[kinds[0]].map((x) => x.us)) / med(res[kinds[1]].map((x) => x.us))).toFixed(3), 'per-round', res[kinds[0]].map((x, i) => (x.us / res[kinds[1]][i].us).toFixed(2)).join(' '));
for (const s of servers) console.log(s.kind, 'pid', s.p.pid, 'user ticks', s.ut, 'sys ticks', s.sy);
if (globalThis.pr) { globalThis.pr.kill('SIGINT'); await new Promise((r) => globalThis.pr.on('exit', r)); }
for (const s of servers) s.p.kill();
process.exit(0);
