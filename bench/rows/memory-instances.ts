/**
 * RSS per plugin instance, measured in a process of its own (run by
 * memory.ts): a fresh heap gives a clean baseline, where the suite's earlier
 * rows leave garbage that a GC may return to the OS mid-measurement.
 * Prints one JSON line: KB per instance for ours, raw Extism and workers.
 */
import createPlugin from '@extism/extism';
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { loadPlugin } from '../../host/index.js';
import { rss } from '../harness.js';

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
  return { n, workers, oursKB: (r1 - r0) / n / 1024, rawKB: (r2 - r1) / n / 1024, workerKB: (r3 - r2) / workers / 1024 };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const [n, w] = process.argv.slice(2).map(Number);
  process.stdout.write(`${JSON.stringify(await measureInstances(n ?? 100, w ?? 4))}\n`);
  process.exit(0);
}
