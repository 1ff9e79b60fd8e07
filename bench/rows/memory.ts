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
import { execFile } from 'node:child_process';
import process from 'node:process';
import { promisify } from 'node:util';
import { createHost, scriptedModel } from '../../host/index.js';
import { rss, runtimeName } from '../harness.js';
import { measureInstances, type InstanceMemory } from './memory-instances.js';
import { makeRow, type RowsFn } from './row.js';

const run_ = promisify(execFile);

const MB = 1024 * 1024;
/** Instance memory in a fresh Node process where possible (clean baseline), else here. */
async function instances(n: number, w: number): Promise<InstanceMemory & { fresh: boolean }> {
  if (runtimeName().startsWith('node')) {
    const script = new URL('./memory-instances.ts', import.meta.url).pathname;
    const { stdout } = await run_(process.execPath, ['--expose-gc', '--import', 'tsx', script, String(n), String(w)], {
      cwd: new URL('../..', import.meta.url).pathname,
      timeout: 120_000,
    });
    return { ...(JSON.parse(stdout.trim().split('\n').at(-1)!) as InstanceMemory), fresh: true };
  }
  return { ...(await measureInstances(n, w)), fresh: false };
}

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  const hasGc = typeof (globalThis as { gc?: unknown }).gc === 'function' || 'Bun' in globalThis;
  const N = quick ? 30 : 100;
  const W = quick ? 2 : 4;

  const inst = await instances(N, W);
  const rows = [
    makeRow('memory', runtime, {
      what: `RSS per loaded plugin instance, in-thread (${N} guard-shell)`,
      ours: { value: inst.oursKB, unit: 'KB' },
      anchorName: 'raw Extism instance, same bytes',
      anchor: { value: inst.rawKB, unit: 'KB' },
      note: inst.fresh ? 'measured in a fresh node --expose-gc process (clean baseline)' : `measured in this process${hasGc ? '' : ' without a GC to call: expect noise'}`,
    }),
    makeRow('memory', runtime, {
      what: `RSS per plugin instance, worker isolation (${W} guard-shell, a thread each)`,
      ours: { value: inst.workerKB, unit: 'KB' },
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
