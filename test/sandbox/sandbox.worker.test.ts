// Worker isolation (`isolation: 'worker'`) on Node: the same engine in our own
// worker, a shared-memory channel, abort delivered mid-call, and a hard kill
// plus respawn when a call overruns its deadline.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WasmhooksError } from '../../host/errors.js';
import { createSandbox } from '../../host/sandbox/index.js';
import type { SandboxedModule } from '../../host/sandbox/types.js';
import { DEFAULT_GRACE_MS, setWorkerGraceMs } from '../../host/sandbox/worker/host.js';
import { hostile, str, text } from './sandbox-helpers.js';

let echo: SandboxedModule;
const logs: string[] = [];
beforeAll(async () => {
  echo = await createSandbox(await hostile('echo'), {
    isolation: 'worker',
    limits: { timeoutMs: 2_000, fuel: 1e15 },
    host: { onLog: (_level, line) => logs.push(line) },
    // This module fails on purpose many times here; quarantine is tested in-thread.
    quarantine: { maxConsecutiveFailures: 1_000 },
  });
}, 30_000);
afterAll(() => echo.close());

describe('worker isolation', () => {
  it('runs calls in the worker, in order', async () => {
    const outcomes = await Promise.all(['a', 'b', 'c'].map((s) => echo.call('run', text(s))));
    expect(outcomes.map((o) => (o.ok ? str(o.output) : o.failure.code))).toEqual(['a', 'b', 'c']);
    expect(outcomes[0]!.fuelUsed).toBeGreaterThan(0);
  });

  it('stops an infinite loop at its deadline without blocking the event loop', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const outcome = await echo.call('spin', new Uint8Array(0), { limits: { timeoutMs: 50 } });
    clearInterval(ticker);
    expect(!outcome.ok && outcome.failure.code).toBe('TIMEOUT');
    expect(outcome.durationMs).toBeLessThan(200);
    expect(ticks).toBeGreaterThan(2); // our thread kept running meanwhile
    const after = await echo.call('run', text('after'));
    expect(after.ok && str(after.output)).toBe('after');
  });

  it('a request whose notify is lost still reaches the idle worker: the host notifies again while it waits', async () => {
    // The idle worker waits without a timeout (no CPU while idle); Bun loses a notify now and then.
    await echo.call('run', text('warm'));
    await new Promise((r) => setTimeout(r, 50)); // the worker is asleep in its idle wait
    const notify = Atomics.notify.bind(Atomics);
    let calls = 0;
    const lose = vi.spyOn(Atomics, 'notify').mockImplementation((array, index, count) => (calls++ === 0 ? 0 : notify(array, index, count)));
    const started = performance.now();
    try {
      const outcome = await echo.call('run', text('late'));
      expect(outcome.ok && str(outcome.output)).toBe('late');
    } finally {
      lose.mockRestore();
    }
    // One slice (WAKE_MS, 20 ms) late, not the call's 2 s deadline.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(calls).toBeGreaterThan(1);
  });

  it('delivers an abort mid-call through shared memory', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const started = performance.now();
    const outcome = await echo.call('spin', new Uint8Array(0), { signal: controller.signal, limits: { timeoutMs: 5_000 } });
    expect(!outcome.ok && outcome.failure.code).toBe('ABORTED');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((await echo.call('run', text('x'))).ok).toBe(true);
  });

  it('maps traps, stack overflows and memory caps as in-thread', async () => {
    const trap = await echo.call('trap', new Uint8Array(0));
    expect(!trap.ok && trap.failure).toMatchObject({ code: 'TRAP', message: /unreachable/ });
    const deep = await echo.call('recurse', new Uint8Array(0));
    expect(!deep.ok && deep.failure.code).toBe('STACK_OVERFLOW');
    const bomb = await createSandbox(await hostile('memory-grow-bomb'), { isolation: 'worker', limits: { maxMemoryPages: 8 } });
    const grown = await bomb.call('run', new Uint8Array(0));
    expect(!grown.ok && grown.failure).toMatchObject({ code: 'MEMORY_LIMIT', message: /cap of 8 pages/ });
    await bomb.close();
  });

  it('hands plugin log lines over after the call', async () => {
    const flood = await createSandbox(await hostile('log-then-spin'), {
      isolation: 'worker',
      limits: { timeoutMs: 30, fuel: 1e15 },
      host: { onLog: (_level, line) => logs.push(line) },
    });
    logs.length = 0;
    // Lines travel with the answer: a loaded machine must not make the host
    // give up on the worker (and its lines) before the worker's own stop.
    setWorkerGraceMs(2_000);
    try {
      const outcome = await flood.call('run', new Uint8Array(0));
      expect(!outcome.ok && outcome.failure).toMatchObject({ code: 'TIMEOUT', message: /deadline of 30 ms$/ });
      expect(logs).toEqual(['!']);
    } finally {
      setWorkerGraceMs(DEFAULT_GRACE_MS);
    }
    await flood.close();
  });

  it('terminates a worker that overruns its deadline, and respawns one for the next call', async () => {
    // A negative grace makes the host give up before the worker's own check
    // fires: the path taken when a worker is stuck where no check runs.
    // The worker would stop itself at 10 s; the host gives up after 50 ms.
    setWorkerGraceMs(50 - 10_000);
    try {
      const started = performance.now();
      const outcome = await echo.call('spin', new Uint8Array(0), { limits: { timeoutMs: 10_000 } });
      expect(!outcome.ok && outcome.failure).toMatchObject({ code: 'TIMEOUT', message: /worker was terminated/ });
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      setWorkerGraceMs(DEFAULT_GRACE_MS);
    }
    const next = await echo.call('run', text('respawned'));
    expect(next.ok && str(next.output)).toBe('respawned');
    expect(await echo.call('calls', new Uint8Array(0))).toMatchObject({ ok: true, output: text('1') });
  });

  it('a worker the host gave up on ends by itself, where terminate cannot interrupt it (Deno: a killed worker lived on)', async () => {
    // Deno's terminate() does not stop a worker's JS that never returns to its event loop, and the worker's loop
    // never does: after a kill it waited on the channel forever (measured: one thread per kill, for the process's
    // life). Here terminate does nothing, as there; the killed worker must still leave its loop and end.
    const { Worker } = await import('node:worker_threads');
    const killed: InstanceType<typeof Worker>[] = [];
    const terminate = vi.spyOn(Worker.prototype, 'terminate').mockImplementation(function (this: InstanceType<typeof Worker>) {
      killed.push(this);
      return Promise.resolve(0);
    });
    setWorkerGraceMs(50 - 10_000);
    try {
      const outcome = await echo.call('spin', new Uint8Array(0), { limits: { timeoutMs: 10_000 } });
      expect(!outcome.ok && outcome.failure).toMatchObject({ code: 'TIMEOUT', message: /worker was terminated/ });
    } finally {
      setWorkerGraceMs(DEFAULT_GRACE_MS);
      terminate.mockRestore();
    }
    expect(killed).toHaveLength(1);
    const ended = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 3_000);
      killed[0]!.once('exit', () => (clearTimeout(timer), resolve(true)));
    });
    if (!ended) await killed[0]!.terminate();
    expect(ended).toBe(true);
    const next = await echo.call('run', text('respawned'));
    expect(next.ok && str(next.output)).toBe('respawned');
  });

  it('after an abort, waits only the grace period before terminating the worker', async () => {
    // A negative grace: once aborted, the host stops waiting at once (whether
    // the worker's own check or the kill gets there first, the call is ABORTED).
    setWorkerGraceMs(-1);
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const started = performance.now();
      const outcome = await echo.call('spin', new Uint8Array(0), { signal: controller.signal, limits: { timeoutMs: 10_000 } });
      expect(!outcome.ok && outcome.failure.code).toBe('ABORTED');
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      setWorkerGraceMs(DEFAULT_GRACE_MS);
    }
    const next = await echo.call('run', text('next'));
    expect(next.ok && str(next.output)).toBe('next');
  });

  it('refuses at load a module whose start function spins, stopped inside the worker', async () => {
    const error = await createSandbox(await hostile('start-loop'), { isolation: 'worker', limits: { timeoutMs: 50, fuel: Number.POSITIVE_INFINITY } }).catch(
      (e: unknown) => e as WasmhooksError,
    );
    expect(error).toMatchObject({ code: 'LOAD_FAILED', cause: { code: 'TIMEOUT' } });
  });
});
