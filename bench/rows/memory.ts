/**
 * Row group 7: memory, measured in a fresh `node --expose-gc` process on
 * Node (see memory-child.ts), in this process elsewhere.
 * - RSS per loaded plugin instance: 100 guard-shell instances through
 *   loadPlugin (in-thread), against 100 raw Extism instances of the same
 *   bytes; and 4 worker-isolated instances (a thread each).
 * - RSS and JS heap growth over up to 10k sequential sessions (one prompt
 *   each, scripted model, closed after), stopped at a time bound: a leak
 *   check, counted from after the first 1000 sessions (allocator and JIT warm-up).
 */
import { execFile } from 'node:child_process';
import process from 'node:process';
import { promisify } from 'node:util';
import { runtimeName } from '../harness.js';
import { measureInstances, measureSessions, type InstanceMemory, type SessionMemory } from './memory-child.js';
import { makeRow, type RowsFn } from './row.js';

const exec = promisify(execFile);

interface Measured {
  instances: InstanceMemory;
  sessions: SessionMemory;
  fresh: boolean;
}

async function measure(n: number, w: number, sessions: number, limitMs: number): Promise<Measured> {
  if (runtimeName().startsWith('node')) {
    const script = new URL('./memory-child.ts', import.meta.url).pathname;
    const args = ['--expose-gc', '--import', 'tsx', script, String(n), String(w), String(sessions), String(limitMs)];
    const { stdout } = await exec(process.execPath, args, { cwd: new URL('../..', import.meta.url).pathname, timeout: limitMs + 120_000 });
    return { ...(JSON.parse(stdout.trim().split('\n').at(-1)!) as Omit<Measured, 'fresh'>), fresh: true };
  }
  return { instances: await measureInstances(n, w), sessions: await measureSessions(sessions, limitMs), fresh: false };
}

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  const N = quick ? 30 : 100;
  const W = quick ? 2 : 4;
  const { instances: inst, sessions: s, fresh } = await measure(N, W, quick ? 2_000 : 10_000, quick ? 10_000 : 60_000);
  const where = fresh ? 'measured in a fresh node --expose-gc process' : 'measured in this process (no fresh-process mode off Node)';
  const mb = (kb: number) => (kb / 1024).toFixed(2);
  return [
    makeRow('memory', runtime, {
      what: `RSS per loaded plugin instance, in-thread (${N} guard-shell)`,
      ours: { value: inst.oursKB, unit: 'KB' },
      anchorName: 'raw Extism instance, same bytes',
      anchor: { value: inst.rawKB, unit: 'KB' },
      note: where,
    }),
    makeRow('memory', runtime, {
      what: `RSS per plugin instance, worker isolation (${W} guard-shell, a thread each)`,
      ours: { value: inst.workerKB, unit: 'KB' },
    }),
    makeRow('memory', runtime, {
      what: `RSS growth over ${s.done} sequential sessions (after the first ${s.warm})`,
      ours: { value: s.rssKB / 1024, unit: 'MB' },
      note: `${s.done} of ${s.total} sessions in ${s.seconds.toFixed(1)} s (bound ${s.limitMs / 1000} s); heapTotal ${mb(s.heapTotalKB)} MB, external ${mb(s.externalKB)} MB over the same span. RSS counts pages V8 and malloc keep after GC; the JS heap row is the leak signal`,
    }),
    makeRow('memory', runtime, {
      what: `JS heap growth over the same ${s.done} sessions (after a full GC)`,
      ours: { value: s.heapUsedKB / 1024, unit: 'MB' },
      note: `${((s.heapUsedKB * 1000) / Math.max(1, s.done - s.warm)).toFixed(1)} bytes per session`,
    }),
  ];
};
