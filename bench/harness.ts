/**
 * A small, honest timing harness: warm-up, many samples, median and p99,
 * and side-by-side rounds so that drift on a shared, noisy machine hits the
 * thing measured and its anchor alike.
 *
 * Why not tinybench: its tasks run one after the other, so a burst of load
 * from another process lands on one task and skews the ratio. Here the
 * candidates of one comparison take turns in short rounds.
 */
import process from 'node:process';

/** Summary statistics of a set of samples (same unit as the samples). */
export interface Stats {
  n: number;
  median: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/**
 * Nearest-rank percentile of sorted samples: the smallest sample with at
 * least `p` of the samples at or below it (p in 0..1).
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(p * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Median (mean of the two middle samples when n is even), p99 and friends. */
export function stats(samples: readonly number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return { n, median: Number.NaN, p99: Number.NaN, mean: Number.NaN, min: Number.NaN, max: Number.NaN };
  const mid = n >> 1;
  const median = n % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { n, median, p99: percentile(s, 0.99), mean: s.reduce((a, b) => a + b, 0) / n, min: s[0]!, max: s[n - 1]! };
}

export type Task = () => unknown;

export interface SampleOptions {
  /** Calls before measuring (JIT, caches, lazy instances). Default 50. */
  warmup?: number;
  /** Samples to take, at most. Default 1000. */
  samples?: number;
  /**
   * Calls per sample: the sample is the batch's time divided by `batch`.
   * Use it for sub-microsecond work that the clock cannot resolve one call
   * at a time (the p99 is then of batch means). Default 1.
   */
  batch?: number;
  /** Stop taking samples after this much measuring time, ms. Default 2000. */
  maxMs?: number;
  /**
   * `wall` (default): elapsed time. `cpu`: this process's CPU time (all its
   * threads, user + system). On a machine with more runnable processes than
   * cores, a sample longer than a scheduler slice is inflated by the time the
   * process waits for a core; CPU time is not. Use it for long samples of
   * work done on this process's threads (not for child processes).
   */
  clock?: Clock;
}

type Clock = 'wall' | 'cpu';

const now = () => performance.now();

/** Times one sample (µs per call). Awaits only when the task returns a promise. */
async function one(task: Task, batch: number, clock: Clock): Promise<number> {
  const t0 = clock === 'wall' ? now() : 0;
  const c0 = clock === 'cpu' ? process.cpuUsage() : undefined;
  for (let i = 0; i < batch; i++) {
    const r = task();
    if (r instanceof Promise) await r;
  }
  if (c0) {
    const d = process.cpuUsage(c0);
    return (d.user + d.system) / batch;
  }
  return ((now() - t0) * 1000) / batch;
}

/** Samples of one task in µs per call. */
export async function sample(task: Task, options: SampleOptions = {}): Promise<number[]> {
  const { warmup = 50, samples = 1000, batch = 1, maxMs = 2000, clock = 'wall' } = options;
  for (let i = 0; i < warmup; i++) {
    const r = task();
    if (r instanceof Promise) await r;
  }
  const out: number[] = [];
  const until = now() + maxMs;
  while (out.length < samples && now() < until) out.push(await one(task, batch, clock));
  return out;
}

export interface CompareOptions extends SampleOptions {
  /** Rounds; each round takes samples/rounds samples of every task in turn. Default 10. */
  rounds?: number;
}

/**
 * Measures several tasks side by side: every task is warmed up, then the
 * tasks take turns, round after round, each taking an equal share of its
 * samples and of the time budget. Returns per-call µs statistics by name.
 * A per-task options override (say, fewer samples for a slow anchor) is
 * given as `[task, options]`.
 *
 * @example
 * const r = await compare({ ours: () => plugin.callHook(input), raw: () => raw.call('hook', bytes) }, { samples: 2000 });
 * console.log(r.ours.median / r.raw.median);
 */
export async function compare<K extends string>(
  tasks: Record<K, Task | [Task, SampleOptions]>,
  options: CompareOptions = {},
): Promise<Record<K, Stats>> {
  const rounds = options.rounds ?? 10;
  const entries = (Object.entries(tasks) as [K, Task | [Task, SampleOptions]][]).map(([name, t]) => {
    const [task, own] = Array.isArray(t) ? t : [t, {}];
    const o = { warmup: 50, samples: 1000, batch: 1, maxMs: 2000, clock: 'wall' as Clock, ...options, ...own };
    return { name, task, o, samples: [] as number[] };
  });
  for (const e of entries) await sample(e.task, { ...e.o, samples: 0 });
  for (let r = 0; r < rounds; r++) {
    for (const e of entries) {
      const got = await sample(e.task, {
        warmup: 0,
        batch: e.o.batch,
        clock: e.o.clock,
        samples: Math.ceil(e.o.samples / rounds),
        maxMs: e.o.maxMs / rounds,
      });
      e.samples.push(...got);
    }
  }
  return Object.fromEntries(entries.map((e) => [e.name, stats(e.samples)])) as Record<K, Stats>;
}

/** The runtime this process runs on, as printed in the table. */
export function runtimeName(): string {
  const g = globalThis as { Deno?: { version: { deno: string } }; Bun?: { version: string } };
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  if (g.Bun) return `bun ${g.Bun.version}`;
  return `node ${process.version}`;
}

/** Process resident set size, bytes (after a GC when the runtime exposes one). */
export function rss(): number {
  const g = globalThis as { gc?: () => void; Bun?: { gc: (sync: boolean) => void } };
  if (g.gc) g.gc();
  else g.Bun?.gc(true);
  return process.memoryUsage().rss;
}
