/**
 * The SSE row's per-event work without the network (session 40): in one
 * process, the same bursts as sse-server.mjs (5,000 events in batches of 50,
 * a macrotask between) published into our `EventHub` (its memory log, the
 * row's replay window and queue limit) and into the anchor's encode-join-
 * write loop (sse-server.mjs's, line for line), each fanning out to 200
 * clients whose writer only counts the bytes (as Bun's direct controller
 * answers: the bytes taken). What differs is the JavaScript per event and
 * per tick, and the garbage it leaves: the work the network row's servers
 * share (the runtime's HTTP server, the sockets, the kernel's copies) is not
 * in it.
 *
 * As a row (`sse` group, `hubRow`): the two kinds take turns, 16 rounds after
 * 8 uncounted ones, each a sample of 4 bursts; CPU time per event of this
 * process, median and range.
 * As a program (bench/rows/sse-hub-callgrind.mjs runs it under callgrind):
 *   <runtime> sse-hub.mjs <ours|anchor> [warm bursts=8] [counted bursts=4]
 * warms up, prints `warm`, waits for a line on stdin (the counters are
 * zeroed meanwhile), runs the counted bursts, prints `done <bytes per client>`
 * and waits for its end.
 */
import { setImmediate } from 'node:timers';
import { createInterface } from 'node:readline';
import { EventHub } from '../../host/server/hub.js';
import type { DirectSink } from '../../host/runtime/serve-types.js';
import type { HostEvent } from '../../host/index.js';
import type { RowInput } from './row.js';

export const HUB_CLIENTS = 200;
const EVENTS = 5000;
const BATCH = 50;
const LIMIT = EVENTS + 10;

const now = () => performance.timeOrigin + performance.now();
const event = (seq: number): HostEvent => ({ type: 'text.delta', text: 'some streamed words ', seq, sessionId: 'bench', time: now() });

/** Takes every write whole, as Bun's direct controller does while a connection's buffer has room. */
class Counter {
  bytes = 0;
  write(bytes: Uint8Array): number {
    this.bytes += bytes.length;
    return bytes.length;
  }
}

export type Kind = 'ours' | 'anchor';

interface Fanout {
  publish(seq: number): void;
  counters: Counter[];
  close(): Promise<void>;
}

/** Our hub, its clients attached as the direct adapters attach them (`openDirect`), reading `/event`. */
async function ours(): Promise<Fanout> {
  const hub = new EventHub({ replayBufferSize: LIMIT, clientQueueLimit: LIMIT, clientQueueBytes: 8 * 1024 * 1024, heartbeatMs: 15_000, retryMs: 1000 });
  const counters: Counter[] = [];
  for (let i = 0; i < HUB_CLIENTS; i++) {
    const counter = new Counter();
    counters.push(counter);
    const sink: DirectSink = { writer: counter, write: (bytes) => (counter.write(bytes), true), end: () => {}, destroy: () => {} };
    hub.openDirect({ format: 'plain' })(sink);
  }
  // The clients' starts (server.connected) are written in a microtask.
  await new Promise((r) => setTimeout(r, 0));
  return { publish: (seq) => hub.publish(event(seq)), counters, close: () => hub.close(0) };
}

/** sse-server.mjs's anchor: frames of a tick joined, one write per client, in a microtask. */
function anchor(): Fanout {
  const encoder = new TextEncoder();
  const EPOCH = Array.from(crypto.getRandomValues(new Uint8Array(10)), (b) => (b % 36).toString(36)).join('');
  const counters = Array.from({ length: HUB_CLIENTS }, () => new Counter());
  const clients = new Set(counters);
  let id = 0;
  let pending: Uint8Array[] = [];
  const flush = () => {
    const frames = pending;
    pending = [];
    let bytes = frames[0] as Uint8Array;
    if (frames.length > 1) {
      bytes = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
      let at = 0;
      for (const f of frames) bytes.set(f, at), (at += f.length);
    }
    for (const c of clients) {
      try {
        c.write(bytes);
      } catch {
        clients.delete(c);
      }
    }
  };
  const publish = (seq: number) => {
    if (pending.push(encoder.encode(`id: ${EPOCH}.${++id}\ndata: ${JSON.stringify(event(seq))}\n\n`)) === 1) queueMicrotask(flush);
  };
  return { publish, counters, close: async () => {} };
}

export function fanout(kind: Kind): Promise<Fanout> {
  return kind === 'ours' ? ours() : Promise.resolve(anchor());
}

/** One burst as sse-server.mjs publishes it; resolves once its last tick was written. */
export async function burst(f: Fanout, events = EVENTS): Promise<void> {
  for (let n = 0; n < events; n++) {
    f.publish(n);
    if (n % BATCH === BATCH - 1) await new Promise((r) => setImmediate(r));
  }
  await new Promise((r) => setImmediate(r));
}

/** CPU time per event (µs) over `bursts` bursts (one lasts a few ms: a sample of one is mostly the clock's grain). */
export async function cpuPerEvent(f: Fanout, bursts = 1): Promise<number> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < bursts; i++) await burst(f);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / (bursts * EVENTS);
}

/** Bursts per sample of the row. */
const SAMPLE = 4;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/**
 * The row: both kinds in this process, taking turns burst by burst (which goes first alternates), WARM uncounted
 * rounds then ROUNDS counted ones; this process's CPU time per event (its collector's threads included).
 */
export async function hubRow(quick: boolean): Promise<RowInput> {
  const rounds = quick ? 4 : 16;
  const warm = quick ? 2 : 8;
  const kinds = [await fanout('ours'), await fanout('anchor')] as const;
  const cpu: [number[], number[]] = [[], []];
  for (let i = 0; i < warm + rounds; i++) {
    for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const us = await cpuPerEvent(kinds[k as 0 | 1], SAMPLE);
      if (i >= warm) cpu[k as 0 | 1].push(us);
    }
  }
  for (const k of kinds) await k.close();
  const ratios = cpu[0].map((x, i) => x / (cpu[1][i] as number));
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
  return {
    what: `SSE hub alone, no network: CPU per event published to ${HUB_CLIENTS} clients whose writer counts the bytes (${EVENTS}-event bursts, median of ${rounds} samples of ${SAMPLE})`,
    ours: { value: median(cpu[0]), unit: 'µs', clock: 'cpu' },
    anchorName: "the anchor's encode-join-write loop (sse-server.mjs), same process",
    anchor: { value: median(cpu[1]), unit: 'µs', clock: 'cpu' },
    note: `per-sample ratios ${range(ratios)}×; in one process, taking turns; what the network row's servers share (the HTTP server, sockets, the kernel) is not in it, so it shows the hub's own work per event (instructions: bench/rows/sse-hub-callgrind.mjs)`,
  };
}

async function main(kind: Kind, warm: number, counted: number): Promise<void> {
  const f = await fanout(kind);
  for (let i = 0; i < warm; i++) await burst(f);
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const before = f.counters[0]!.bytes;
  console.log('warm');
  await lines.next();
  for (let i = 0; i < counted; i++) await burst(f);
  console.log(`done ${f.counters[0]!.bytes - before}`);
  await lines.next();
  await f.close();
  process.exit(0);
}

const [kind, warm, counted] = process.argv.slice(2);
if (kind === 'ours' || kind === 'anchor') await main(kind, Number(warm ?? 8), Number(counted ?? 4));
