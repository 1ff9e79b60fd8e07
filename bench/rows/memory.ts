/**
 * Row group 7: memory.
 * - RSS per loaded plugin instance: 100 guard-shell instances through
 *   loadPlugin (in-thread), against 100 raw Extism instances of the same
 *   bytes; and 4 worker-isolated instances (a thread each).
 * - RSS growth over up to 10k sequential sessions (one prompt each, scripted
 *   model, closed after), stopped at a time bound: a leak check. Growth is
 *   counted from after the first 1000 sessions (allocator and JIT warm-up).
 * RSS is read after a full GC where the runtime exposes one (node --expose-gc).
 */
import createPlugin from '@extism/extism';
import { readFile } from 'node:fs/promises';
import { createHost, loadPlugin, scriptedModel } from '../../host/index.js';
import { rss, runtimeName } from '../harness.js';
import { makeRow, type RowsFn } from './row.js';

const MB = 1024 * 1024;
const pause = () => new Promise((r) => setTimeout(r, 50));
/** RSS after two GCs with a pause between (finalizers, freed pages). */
async function settledRss(): Promise<number> {
  await pause();
  rss();
  await pause();
  return rss();
}

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  const hasGc = typeof (globalThis as { gc?: unknown }).gc === 'function' || 'Bun' in globalThis;
  const bytes = new Uint8Array(await readFile(new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url)));
  const N = quick ? 30 : 100;
  const W = quick ? 2 : 4;

  // Warm every path once so that code and JIT memory are not counted per instance.
  await (await loadPlugin({ bytes })).close();
  await (await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false })).close();
  const r0 = await settledRss();
  const ours = [];
  for (let i = 0; i < N; i++) ours.push(await loadPlugin({ bytes }));
  const r1 = await settledRss();
  const raws = [];
  for (let i = 0; i < N; i++) raws.push(await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false }));
  const r2 = await settledRss();
  const workers = [];
  for (let i = 0; i < W; i++) workers.push(await loadPlugin({ bytes }, { isolation: 'worker' }));
  const r3 = await settledRss();
  await Promise.all([...ours, ...raws, ...workers].map((p) => p.close()));

  const rows = [
    makeRow('memory', runtime, {
      what: `RSS per loaded plugin instance, in-thread (${N} guard-shell)`,
      ours: { value: (r1 - r0) / N / 1024, unit: 'KB' },
      anchorName: 'raw Extism instance, same bytes',
      anchor: { value: (r2 - r1) / N / 1024, unit: 'KB' },
      note: hasGc ? undefined : 'no GC exposed: run node with --expose-gc for steadier figures',
    }),
    makeRow('memory', runtime, {
      what: `RSS per plugin instance, worker isolation (${W} guard-shell, a thread each)`,
      ours: { value: (r3 - r2) / W / 1024, unit: 'KB' },
    }),
  ];

  const model = scriptedModel({ rules: [{ when: () => true, reply: { text: 'Hello there, how can I help?' } }] });
  const host = createHost({ model });
  const total = quick ? 2_000 : 10_000;
  const limitMs = quick ? 10_000 : 60_000;
  const warm = Math.min(1_000, total / 4);
  const started = performance.now();
  let base = 0;
  let baseHeap = 0;
  let baseUsage = process.memoryUsage();
  let done = 0;
  for (; done < total && performance.now() - started < limitMs; done++) {
    if (done === warm) {
      base = rss();
      baseUsage = process.memoryUsage();
      baseHeap = baseUsage.heapUsed;
    }
    model.requests.length = 0;
    const session = host.session();
    const result = await session.prompt('hi');
    if (result.subtype !== 'success') throw new Error(`memory bench: session ${done} ended with ${result.subtype}`);
    await session.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const grown = done > warm ? (rss() - base) / MB : Number.NaN;
  const heap = done > warm ? (process.memoryUsage().heapUsed - baseHeap) / MB : Number.NaN;
  const end = process.memoryUsage();
  const delta = (k: 'heapTotal' | 'external' | 'arrayBuffers') => ((end[k] - baseUsage[k]) / MB).toFixed(1);
  rows.push(
    makeRow('memory', runtime, {
      what: `RSS growth over ${done} sequential sessions (after the first ${warm})`,
      ours: { value: grown, unit: 'MB' },
      note: `${done} of ${total} sessions in ${seconds.toFixed(1)} s (bound ${limitMs / 1000} s); ${((grown * 1024) / Math.max(1, (done - warm) / 1000)).toFixed(0)} KB RSS per 1000 sessions. heapTotal ${delta('heapTotal')} MB, external ${delta('external')} MB over the same span. RSS includes pages V8 and malloc keep after GC; the JS heap row is the leak signal`,
    }),
    makeRow('memory', runtime, {
      what: `JS heap growth over the same ${done} sessions (after a full GC)`,
      ours: { value: heap, unit: 'MB' },
      note: hasGc ? undefined : 'no GC exposed: heap figure includes garbage',
    }),
  );
  return rows;
};
