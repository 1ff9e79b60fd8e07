/**
 * Review red22: every large load (a module of 512 KiB or more) got its own worker at once: 8 concurrent loads
 * of 30 MB modules took 1.7 GB RSS and held the event loop 3 s. Off-thread load jobs now take turns
 * (host/sandbox/job-queue.ts): at most 2 at once, within a byte budget; a waiting load that is aborted fails
 * LOAD_FAILED (cause ABORTED), one that waits too long LOAD_FAILED (cause TIMEOUT: the host is busy), which
 * HTTP answers 503. Fails on the old code (no queue: every job ran at once; busy was a 400).
 */
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { createSandbox } from '../../host/sandbox/index.js';
import { LOAD_JOBS, LoadJobQueue, isHostBusy, loadJobs } from '../../host/sandbox/job-queue.js';
import { errorResponse } from '../../host/server/errors.js';
import { bigModule } from '../fixtures/big-module.js';

const MiB = 2 ** 20;

/** A job that runs until `end()`; `started` says whether it began. */
function job() {
  let end = (): void => {};
  const state = { started: false, end: () => end() };
  const work = () => {
    state.started = true;
    return new Promise<string>((resolve) => (end = () => resolve('done')));
  };
  return { state, work };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

async function failure(work: Promise<unknown>): Promise<WasmhooksError> {
  const error = await work.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WasmhooksError);
  return error as WasmhooksError;
}

describe('red22: off-thread load jobs take turns', () => {
  it('runs at most 2 at once, in order', async () => {
    const queue = new LoadJobQueue(2, 256 * MiB, 60_000);
    const jobs = Array.from({ length: 5 }, job);
    const runs = jobs.map((j, i) => queue.run(`m${i}`, MiB, undefined, j.work));
    await tick();
    expect(jobs.map((j) => j.state.started)).toEqual([true, true, false, false, false]);
    jobs[1]!.state.end();
    await tick();
    expect(jobs.map((j) => j.state.started)).toEqual([true, true, true, false, false]);
    for (const j of jobs) j.state.end();
    await tick();
    jobs[3]!.state.end();
    jobs[4]!.state.end();
    expect(await Promise.all(runs)).toEqual(['done', 'done', 'done', 'done', 'done']);
  });

  it('holds at most its byte budget together; a module larger than it runs alone', async () => {
    const queue = new LoadJobQueue(2, 256 * MiB, 60_000);
    const [a, b, c] = [job(), job(), job()];
    const runs = [queue.run('a', 150 * MiB, undefined, a.work), queue.run('b', 150 * MiB, undefined, b.work), queue.run('c', 300 * MiB, undefined, c.work)];
    await tick();
    expect([a.state.started, b.state.started, c.state.started]).toEqual([true, false, false]);
    a.state.end();
    await tick();
    expect([b.state.started, c.state.started]).toEqual([true, false]);
    b.state.end();
    await tick();
    expect(c.state.started).toBe(true);
    c.state.end();
    await Promise.all(runs);
  });

  it('a waiting load that is aborted leaves the line: LOAD_FAILED, cause ABORTED, never started', async () => {
    const queue = new LoadJobQueue(1, 256 * MiB, 60_000);
    const [a, b, c] = [job(), job(), job()];
    const stop = new AbortController();
    const first = queue.run('a', MiB, undefined, a.work);
    const aborted = failure(queue.run('b', MiB, stop.signal, b.work));
    const third = queue.run('c', MiB, undefined, c.work);
    stop.abort();
    const error = await aborted;
    expect(error.code).toBe('LOAD_FAILED');
    expect(error.cause).toMatchObject({ code: 'ABORTED' });
    expect(error.message).toMatch(/^b: the load was aborted while it waited for its turn/);
    expect(isHostBusy(error)).toBe(false);
    a.state.end();
    await tick();
    expect([b.state.started, c.state.started]).toEqual([false, true]);
    c.state.end();
    await Promise.all([first, third]);
  });

  it('a load that waits too long fails LOAD_FAILED, cause TIMEOUT: the host is busy, which HTTP answers 503', async () => {
    const queue = new LoadJobQueue(1, 256 * MiB, 100);
    const [a, b] = [job(), job()];
    const first = queue.run('a', 30 * MiB, undefined, a.work);
    const error = await failure(queue.run('b', MiB, undefined, b.work));
    expect(error.code).toBe('LOAD_FAILED');
    expect(error.cause).toMatchObject({ code: 'TIMEOUT' });
    expect(error.message).toMatch(/^b: the host is busy: it waited 100 ms while 1 large plugin loads held 30 MiB of modules; retry later$/);
    expect(isHostBusy(error)).toBe(true);
    expect(b.state.started).toBe(false);
    const response = errorResponse(error);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({ error: { code: 'unavailable', message: error.message } });
    // A load that fails for its own source is still the client's 400.
    expect(errorResponse(new WasmhooksError('LOAD_FAILED', 'x could not be loaded: TIMEOUT: its start function ran too long', { cause: { code: 'TIMEOUT', message: '' } })).status).toBe(400);
    a.state.end();
    await first;
  });

  it("a waiting load whose own deadline runs out (a TimeoutError reason: POST /plugins' slot timer) is busy, 503; a client that leaves is ABORTED", async () => {
    const queue = new LoadJobQueue(1, 256 * MiB, 60_000);
    const a = job();
    const first = queue.run('a', MiB, undefined, a.work);
    const deadline = failure(queue.run('b', MiB, AbortSignal.timeout(20), job().work));
    const gate = new AbortController();
    const slot = failure(queue.run('c', MiB, gate.signal, job().work));
    gate.abort(new DOMException('the load held a plugin-load slot for 30000 ms', 'TimeoutError'));
    const left = new AbortController();
    const gone = failure(queue.run('d', MiB, left.signal, job().work));
    left.abort(new Error('its HTTP client left'));
    for (const error of [await deadline, await slot]) {
      expect(isHostBusy(error)).toBe(true);
      expect(error.message).toMatch(/: the host is busy: its deadline ran out while it waited for its turn to load \(.+\); retry later$/);
      expect(errorResponse(error).status).toBe(503);
    }
    expect((await slot).message).toContain('plugin-load slot for 30000 ms');
    const error = await gone;
    expect(isHostBusy(error)).toBe(false);
    expect(error.cause).toMatchObject({ code: 'ABORTED' });
    a.state.end();
    await first;
  });

  it('createSandbox: 5 concurrent large loads run at most LOAD_JOBS workers at once', async () => {
    let most = 0;
    const timer = setInterval(() => (most = Math.max(most, loadJobs.active)), 1);
    try {
      const sandboxes = await Promise.all(Array.from({ length: 5 }, (_, i) => createSandbox(bigModule(1e6, 4 + i), { name: `big${i}` })));
      expect(sandboxes.every((s) => s.exports.includes('e0'))).toBe(true);
    } finally {
      clearInterval(timer);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(LOAD_JOBS);
  }, 120_000);
});
