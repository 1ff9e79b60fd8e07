/**
 * Row group 6: SSE fan-out on loopback, 200 clients. Ours: createServer (hono
 * + the event hub, @hono/node-server) with a scripted-model host. Anchor: a
 * bare node:http server writing the same frames, batched as our hub batches
 * them (the frames published in one tick are joined and written once per
 * client, in a microtask): a fair anchor, not one write per event per client,
 * which would flatter us. Each figure is the median of 5 alternating runs
 * (each side first in every other pair), with the range beside it. Clients
 * run in a worker thread (their own event loop), parse frames and measure
 * publish→delivery latency. 500 events for throughput and 150 at 50
 * events/s for latency (200 and 50 with --quick), so the rows stay bounded
 * in time. Node only.
 */
import { createServer as httpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { createHost, scriptedModel, type HostEvent } from '../../host/index.js';
import { createServer } from '../../host/entries/server.js';
import { frame } from '../../host/server/events.js';
import { percentile, runtimeName } from '../harness.js';
import { makeRow, type RowsFn } from './row.js';

export const CLIENTS = 200;
const BATCH = 50;
export const RATE = 50;
/** A run that has not finished by then is stopped and reported as such. */
const RUN_LIMIT_MS = 30_000;
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

export interface Result {
  seconds: number;
  lost: number;
  p50: number;
  p99: number;
}

export async function fanOut(url: string, publish: (e: HostEvent) => void, events: number, rate?: number): Promise<Result> {
  const worker = new Worker(clientCode, { eval: true, workerData: { url, clients: CLIENTS, events } });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`SSE run did not finish within ${RUN_LIMIT_MS / 1000} s`)), RUN_LIMIT_MS);
  });
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  try {
    const ready = new Promise<void>((resolve) => worker.once('message', () => resolve()));
    const finished = new Promise<{ latencies: number[]; lost: number }>((resolve) =>
      worker.on('message', (m: { latencies?: number[]; lost: number }) => m.latencies && resolve(m as never)),
    );
    await Promise.race([ready, failed, limit]);
    await new Promise((r) => setTimeout(r, 200));
    const started = now();
    for (let n = 0; n < events; n++) {
      publish({ type: 'text.delta', text: 'some streamed words ', seq: n, sessionId: 'bench', time: now() });
      if (rate !== undefined) {
        const due = started + ((n + 1) * 1000) / rate;
        if (due > now()) await new Promise((r) => setTimeout(r, due - now()));
      } else if (n % BATCH === BATCH - 1) await new Promise((r) => setImmediate(r));
    }
    const { latencies, lost } = await Promise.race([finished, failed, limit]);
    const seconds = (now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return { seconds, lost, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}

async function ours(events: number, rate?: number): Promise<Result> {
  const host = createHost({ model: scriptedModel({ turns: [{ text: 'hi' }] }) });
  const server = createServer(host, { port: 0, replayBufferSize: events + 10, clientQueueLimit: events + 10 });
  const { url } = await server.listen();
  try {
    return await fanOut(`${url}/event`, (e) => server.hub.publish(e), events, rate);
  } finally {
    await server.close();
  }
}

async function anchor(events: number, rate?: number): Promise<Result> {
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
  let pending: Uint8Array[] = [];
  const flush = () => {
    const frames = pending;
    pending = [];
    const bytes = frames.length === 1 ? frames[0]! : Buffer.concat(frames);
    for (const res of responses) res.write(bytes);
  };
  try {
    const publish = (e: HostEvent) => {
      if (pending.push(frame(`anchor.${++id}`, e)) === 1) queueMicrotask(flush);
    };
    return await fanOut(`http://127.0.0.1:${port}/`, publish, events, rate);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[], digits: number) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  const events = quick ? 200 : 500;
  const paced = quick ? 50 : 150;
  const runs = quick ? 2 : 5;
  // Anchor and ours alternate, run after run, each going first in every other pair; each run is
  // a few seconds on loopback, long enough for a neighbour's burst, so the median counts and the range is shown.
  const a: Result[] = [];
  const o: Result[] = [];
  const aPaced: Result[] = [];
  const oPaced: Result[] = [];
  const pair = async (i: number, rate?: number) => {
    const n = rate === undefined ? events : paced;
    if (i % 2 === 0) return [await anchor(n, rate), await ours(n, rate)] as const;
    const mine = await ours(n, rate);
    return [await anchor(n, rate), mine] as const;
  };
  for (let i = 0; i < runs; i++) {
    const [x, y] = await pair(i);
    a.push(x);
    o.push(y);
  }
  for (let i = 0; i < runs; i++) {
    const [x, y] = await pair(i, RATE);
    aPaced.push(x);
    oPaced.push(y);
  }
  const rate = (r: Result) => events / r.seconds;
  const ratios = o.map((x, i) => rate(x) / rate(a[i]!));
  const p99Ratios = oPaced.map((x, i) => x.p99 / aPaced[i]!.p99);
  const lost = [...o, ...oPaced].reduce((n, r) => n + r.lost, 0);
  return [
    makeRow('sse', runtime, {
      what: `SSE events/s, each delivered to all ${CLIENTS} clients (${events} events, median of ${runs} runs)`,
      ours: { value: median(o.map(rate)), unit: 'events/s' },
      anchorName: 'bare node:http, same frames, batched per tick like the hub',
      anchor: { value: median(a.map(rate)), unit: 'events/s' },
      ratioOf: 'ours/anchor',
      target: { op: 'min', value: 1.0 },
      note: `per-run ratios ${range(ratios, 2)}× (ours ${range(o.map(rate), 0)}, anchor ${range(a.map(rate), 0)} events/s); events lost by our server: ${lost}; ratio < 1 means slower than the anchor`,
    }),
    makeRow('sse', runtime, {
      what: `SSE p99 delivery latency at ${RATE} events/s to ${CLIENTS} clients (median of ${runs} runs)`,
      ours: { value: median(oPaced.map((r) => r.p99)), unit: 'ms' },
      anchorName: 'bare node:http, batched per tick',
      anchor: { value: median(aPaced.map((r) => r.p99)), unit: 'ms' },
      target: { op: 'max', value: 1.1 },
      note: `per-run p99 ratios ${range(p99Ratios, 2)}×; p50 ${median(oPaced.map((r) => r.p50)).toFixed(2)} ms (anchor ${median(aPaced.map((r) => r.p50)).toFixed(2)} ms); ${paced} events per run`,
    }),
  ];
};
