// SSE fan-out on loopback: our server (hono + the event hub, served by
// @hono/node-server) against an anchor, a bare node:http server writing the
// same frames to every response. Clients run in a worker thread (their own
// event loop), parse frames and measure publish→delivery latency.
// Run: npx tsx bench/sse.ts [clients=200] [events=1000]
import { createServer as httpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import type { HostEvent } from '../host/events/types.js';
import { createServer } from '../host/server/app.js';
import { frame } from '../host/server/events.js';
import { realHost } from '../test/server/real-host.js';

const CLIENTS = Number(process.argv[2] ?? 200);
const EVENTS = Number(process.argv[3] ?? 1000);
const BATCH = 50;
const now = () => performance.timeOrigin + performance.now();

const clientCode = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, clients, events } = workerData;
const now = () => performance.timeOrigin + performance.now();
const latencies = []; let lost = 0; let connected = 0;
async function client() {
  const res = await fetch(url);
  const reader = res.body.getReader(); const dec = new TextDecoder();
  let buf = ''; let got = 0; let expect = 0;
  if (++connected === clients) parentPort.postMessage({ ready: true });
  while (got < events) {
    const { value, done } = await reader.read(); if (done) break;
    buf += dec.decode(value, { stream: true }); let i;
    while ((i = buf.indexOf('\\n\\n')) >= 0) {
      const block = buf.slice(0, i); buf = buf.slice(i + 2);
      const at = block.indexOf('data: '); if (at < 0) continue;
      const e = JSON.parse(block.slice(at + 6));
      if (e.type !== 'text.delta') continue;
      latencies.push(now() - e.time);
      if (e.seq !== expect) lost += e.seq - expect;
      expect = e.seq + 1; got++;
    }
  }
  lost += events - got;
  await reader.cancel().catch(() => {});
}
Promise.all(Array.from({ length: clients }, client)).then(() => parentPort.postMessage({ latencies, lost }));
`;

interface Result {
  seconds: number;
  lost: number;
  p50: number;
  p99: number;
}

/** `rate` undefined: publish as fast as the fan-out takes it (throughput); else events per second (latency). */
async function run(url: string, publish: (e: HostEvent) => void, rate?: number): Promise<Result> {
  const events = rate === undefined ? EVENTS : Math.min(EVENTS, rate * 10);
  const worker = new Worker(clientCode, { eval: true, workerData: { url, clients: CLIENTS, events } });
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  const ready = Promise.race([failed, new Promise<void>((resolve) => worker.once('message', () => resolve()))]);
  const finished = new Promise<{ latencies: number[]; lost: number }>((resolve) =>
    worker.on('message', (m: { latencies?: number[]; lost: number }) => m.latencies && resolve(m as never)),
  );
  await ready;
  await new Promise((r) => setTimeout(r, 200));
  const started = now();
  for (let n = 0; n < events; n++) {
    publish({ type: 'text.delta', text: 'some streamed words ', seq: n, sessionId: 'bench', time: now() });
    if (rate !== undefined) {
      const due = started + ((n + 1) * 1000) / rate;
      if (due > now()) await new Promise((r) => setTimeout(r, due - now()));
    } else if (n % BATCH === BATCH - 1) await new Promise((r) => setImmediate(r));
  }
  const { latencies, lost } = await Promise.race([finished, failed]);
  const seconds = (now() - started) / 1000;
  await worker.terminate();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return { seconds, lost, p50: pct(0.5), p99: pct(0.99) };
}

async function ours(rate?: number): Promise<Result> {
  const server = createServer(realHost(), { port: 0, replayBufferSize: EVENTS + 10, clientQueueLimit: EVENTS + 10 });
  const { url } = await server.listen();
  try {
    return await run(`${url}/event`, (e) => server.hub.publish(e), rate);
  } finally {
    await server.close();
  }
}

async function anchor(rate?: number): Promise<Result> {
  const responses = new Set<ServerResponse>();
  const server = httpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(': connected\n\n');
    responses.add(res);
    res.on('close', () => responses.delete(res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  let id = 0;
  try {
    return await run(`http://127.0.0.1:${port}/`, (e) => {
      const bytes = frame(++id, e);
      for (const res of responses) res.write(bytes);
    }, rate);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

// The machine is shared: interleave rounds and keep each side's best throughput and median latencies.
const RATE = 50;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const runs = { ours: [] as Result[], anchor: [] as Result[], oursPaced: [] as Result[], anchorPaced: [] as Result[] };
for (let round = 0; round < ROUNDS; round++) {
  runs.anchor.push(await anchor());
  runs.ours.push(await ours());
  runs.anchorPaced.push(await anchor(RATE));
  runs.oursPaced.push(await ours(RATE));
}
const best = (rs: Result[]) => rs.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
const median = (rs: Result[], f: (r: Result) => number) => rs.map(f).sort((a, b) => a - b)[Math.floor(rs.length / 2)] as number;
const o = best(runs.ours);
const a = best(runs.anchor);
const lost = (rs: Result[]) => rs.reduce((n, r) => n + r.lost, 0);
const row = (name: string, ours: number, anchor: number, digits: number) =>
  `| ${name} | ${ours.toFixed(digits)} | ${anchor.toFixed(digits)} | ${anchor === 0 ? '-' : (ours / anchor).toFixed(2)} |`;
console.log(`SSE fan-out on loopback, ${CLIENTS} clients × ${EVENTS} events, Node ${process.version}, best of ${ROUNDS} (latency: median of ${ROUNDS})`);
console.log('| measure | wasmhooks server | anchor: bare node:http | ratio |');
console.log('| --- | --- | --- | --- |');
console.log(row('max events/s, each delivered to every client', EVENTS / o.seconds, EVENTS / a.seconds, 0));
console.log(row('max deliveries/s (events × clients)', (EVENTS * CLIENTS) / o.seconds, (EVENTS * CLIENTS) / a.seconds, 0));
const p50 = (rs: Result[]) => median(rs, (r) => r.p50);
const p99 = (rs: Result[]) => median(rs, (r) => r.p99);
console.log(row(`p50 latency at ${RATE} events/s (${RATE * CLIENTS} deliveries/s), ms`, p50(runs.oursPaced), p50(runs.anchorPaced), 2));
console.log(row(`p99 latency at ${RATE} events/s (${RATE * CLIENTS} deliveries/s), ms`, p99(runs.oursPaced), p99(runs.anchorPaced), 2));
const all = (k: 'ours' | 'anchor') => lost(runs[k]) + lost(runs[`${k}Paced`]);
console.log(row(`events lost (all ${ROUNDS * 2} runs)`, all('ours'), all('anchor'), 0));
process.exit(0);
