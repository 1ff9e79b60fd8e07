/**
 * Row group: how close to its deadline an infinite loop is stopped.
 * The guest is `spin` of test/fixtures/hostile/echo.wat (`loop br`), called
 * with `timeoutMs: 50` through our sandbox in-thread (the instrumented
 * module checks the clock at each refuel) and in worker isolation. The
 * anchor is a plain `setTimeout` of the same 50 ms: how late this runtime
 * and machine fire a timer anyway. Extism's own `runInWorker` + `timeoutMs`
 * cannot be the anchor: its timeout also bounds the worker's start, which
 * takes longer than 50 ms here, so the plugin never loads.
 * Figures are the caller's elapsed time from the call to the TIMEOUT
 * failure; the runs of the three take turns. Runs on Node, Deno and Bun.
 */
import { createSandbox, type SandboxedModule } from '../../host/index.js';
import { percentile, runtimeName, stats } from '../harness.js';
import { makeRow, type Figure, type RowsFn } from './row.js';
import { watFixture } from './wat.js';

const TIMEOUT_MS = 50;
const RUNS = 10;
const NONE = new Uint8Array(0);

function fail(message: string): never {
  throw new Error(`deadline bench: ${message}`);
}

/** Elapsed ms of one call that must end in TIMEOUT. */
async function stopTime(sandbox: SandboxedModule): Promise<number> {
  const t = performance.now();
  const outcome = await sandbox.call('spin', NONE);
  const ms = performance.now() - t;
  if (outcome.ok || outcome.failure.code !== 'TIMEOUT') fail(`spin ended in ${outcome.ok ? 'success' : outcome.failure.code}, not TIMEOUT`);
  return ms;
}

/** Elapsed ms until a plain timer of the same length fires: how late this runtime's event loop is anyway. */
async function timerTime(): Promise<number> {
  const t = performance.now();
  await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS));
  return performance.now() - t;
}

/** Median and nearest-rank p95 (of 10 runs, that is the slowest run). */
const ms = (samples: number[]): Figure => ({
  value: stats(samples).median,
  unit: 'ms',
  p95: percentile([...samples].sort((a, b) => a - b), 0.95),
});

export const run: RowsFn = async () => {
  const runtime = runtimeName();
  const bytes = await watFixture('hostile/echo.wat');
  const options = { limits: { timeoutMs: TIMEOUT_MS, fuel: 1e15 }, quarantine: { maxConsecutiveFailures: 1_000 } };
  const inThread = await createSandbox(bytes, options);
  const worker = await createSandbox(bytes, { ...options, isolation: 'worker' });
  const times = { inThread: [] as number[], worker: [] as number[], timer: [] as number[] };
  // One warm-up run each (tier-up, worker start), then the measured runs in turn.
  for (let i = 0; i <= RUNS; i++) {
    const a = await stopTime(inThread);
    const b = await stopTime(worker);
    const c = await timerTime();
    if (i === 0) continue;
    times.inThread.push(a);
    times.worker.push(b);
    times.timer.push(c);
  }
  await Promise.all([inThread.close(), worker.close()]);
  const anchor = ms(times.timer);
  const target = { op: 'within', value: TIMEOUT_MS, unit: 'ms', tolerance: 0.2 } as const;
  const anchorName = `setTimeout ${TIMEOUT_MS} ms`;
  const note = `${RUNS} runs after one warm-up, taking turns with the other row and the timer; p95 of ${RUNS} runs is the slowest run; the target is on the median`;
  return [
    makeRow('deadline', runtime, {
      what: `infinite loop, timeoutMs ${TIMEOUT_MS}, in-thread: time to stop`,
      ours: ms(times.inThread),
      anchorName,
      anchor,
      target,
      note,
    }),
    makeRow('deadline', runtime, {
      what: `infinite loop, timeoutMs ${TIMEOUT_MS}, worker isolation: time to stop`,
      ours: ms(times.worker),
      anchorName,
      anchor,
      target,
      note,
    }),
  ];
};
