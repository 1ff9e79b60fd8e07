/**
 * The memory measurements, run by memory.ts in a Node process of its own: a
 * fresh heap gives a clean baseline, where the suite's earlier rows leave
 * garbage that a GC may hand back to the OS mid-measurement (that made
 * in-process deltas negative). Run directly, prints one JSON line:
 *   node --expose-gc --import tsx bench/rows/memory-child.ts [instances] [workers] [sessions] [limitMs]
 */
import createPlugin from '@extism/extism';
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { createHost, loadPlugin, scriptedModel } from '../../host/index.js';
import { rss } from '../harness.js';

const KB = 1024;
const pause = () => new Promise((r) => setTimeout(r, 50));
/** RSS after two GCs with a pause between (finalizers, freed pages). */
async function settledRss(): Promise<number> {
  await pause();
  rss();
  await pause();
  return rss();
}

export interface InstanceMemory {
  n: number;
  workers: number;
  oursKB: number;
  rawKB: number;
  workerKB: number;
}

/** RSS per instance: ours in-thread, raw Extism on the same bytes, ours in workers. */
export async function measureInstances(n: number, workers: number): Promise<InstanceMemory> {
  const bytes = new Uint8Array(await readFile(new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url)));
  // Warm every path once so that code and JIT memory are not counted per instance.
  await (await loadPlugin({ bytes })).close();
  await (await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false })).close();
  const r0 = await settledRss();
  const ours = [];
  for (let i = 0; i < n; i++) ours.push(await loadPlugin({ bytes }));
  const r1 = await settledRss();
  const raws = [];
  for (let i = 0; i < n; i++) raws.push(await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false }));
  const r2 = await settledRss();
  const threads = [];
  for (let i = 0; i < workers; i++) threads.push(await loadPlugin({ bytes }, { isolation: 'worker' }));
  const r3 = await settledRss();
  await Promise.all([...ours, ...raws, ...threads].map((p) => p.close()));
  return { n, workers, oursKB: (r1 - r0) / n / KB, rawKB: (r2 - r1) / n / KB, workerKB: (r3 - r2) / workers / KB };
}

export interface SessionMemory {
  done: number;
  total: number;
  warm: number;
  seconds: number;
  limitMs: number;
  /** Growth from after `warm` sessions to the end, KB. */
  rssKB: number;
  heapUsedKB: number;
  heapTotalKB: number;
  externalKB: number;
}

/** Sequential sessions (one prompt each, closed after) until `total` or `limitMs`: a leak check. */
export async function measureSessions(total: number, limitMs: number): Promise<SessionMemory> {
  const model = scriptedModel({ rules: [{ when: () => true, reply: { text: 'Hello there, how can I help?' } }] });
  const host = createHost({ model });
  const warm = Math.min(1_000, Math.floor(total / 4));
  const started = performance.now();
  let baseRss = 0;
  let base = process.memoryUsage();
  let done = 0;
  for (; done < total && performance.now() - started < limitMs; done++) {
    if (done === warm) {
      baseRss = await settledRss();
      base = process.memoryUsage();
    }
    model.requests.length = 0;
    const session = host.session();
    const result = await session.prompt('hi');
    if (result.subtype !== 'success') throw new Error(`memory bench: session ${done} ended with ${result.subtype}`);
    await session.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const endRss = await settledRss();
  const end = process.memoryUsage();
  const grown = (k: 'heapUsed' | 'heapTotal' | 'external') => (done > warm ? (end[k] - base[k]) / KB : Number.NaN);
  return {
    done,
    total,
    warm,
    seconds,
    limitMs,
    rssKB: done > warm ? (endRss - baseRss) / KB : Number.NaN,
    heapUsedKB: grown('heapUsed'),
    heapTotalKB: grown('heapTotal'),
    externalKB: grown('external'),
  };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const [n = 100, w = 4, sessions = 10_000, limitMs = 60_000] = process.argv.slice(2).map(Number);
  const instances = await measureInstances(n, w);
  const result = { instances, sessions: await measureSessions(sessions, limitMs) };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}
