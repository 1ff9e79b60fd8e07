// The sandbox on Node, Deno and Bun, against the ESM build: deadlines, fuel,
// memory caps, abort and recovery, in-thread and in our own worker.
// Hostile plugins are WAT assembled with wabt, as in test/sandbox.
import assert from 'node:assert/strict';
import { createSandbox, type CallOutcome, type SandboxOptions } from '../../dist/index.js';
import { hostile, runtime, str, text } from './wat.js';

const codeOf = (o: CallOutcome) => (o.ok ? 'ok' : o.failure.code);
const SPIN: SandboxOptions = { limits: { timeoutMs: 50, fuel: 1e15 }, quarantine: { maxConsecutiveFailures: 100 } };
/** For calls that should fail some other way than TIMEOUT, even on a loaded machine. */
const ROOMY: SandboxOptions = { limits: { timeoutMs: 2_000, fuel: 1e15 }, quarantine: { maxConsecutiveFailures: 100 } };
const FIFTY = { timeoutMs: 50 };

/** An infinite loop with a 50 ms deadline: stopped, and when (printed for the report). */
async function deadline(options: SandboxOptions, label: string): Promise<void> {
  const sandbox = await createSandbox(await hostile('echo'), { ...SPIN, ...options });
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const outcome = await sandbox.call('spin', new Uint8Array(0));
    times.push(performance.now() - started);
    assert.equal(codeOf(outcome), 'TIMEOUT');
  }
  // The module recovers: rebuilding the instance after a stop is part of this call, so it gets room on a loaded machine.
  const ok = await sandbox.call('run', text('after'), { limits: { timeoutMs: 2_000 } });
  assert.equal(ok.ok && str(ok.output), 'after');
  await sandbox.close();
  times.sort((a, b) => a - b);
  console.log(`    [${runtime}] ${label}: timeoutMs 50 stopped in ${times.map((t) => t.toFixed(1)).join(', ')} ms`);
  assert.ok(times[2]! < 200, `median ${times[2]} ms`);
}

/** fixture → expected failure code, with the limits that provoke it (see test/sandbox for the full set). */
const HOSTILE: [fixture: string, code: string, limits?: SandboxOptions['limits']][] = [
  ['infinite-loop', 'TIMEOUT', FIFTY],
  ['infinite-loop', 'FUEL_EXHAUSTED', { timeoutMs: 10_000, fuel: 2_000_000 }],
  ['deep-recursion', 'STACK_OVERFLOW'],
  ['indirect-recursion', 'STACK_OVERFLOW'],
  ['memory-grow-bomb', 'MEMORY_LIMIT', { maxMemoryPages: 32 }],
  ['memory-grow-spin', 'TIMEOUT', FIFTY],
  ['alloc-bomb', 'MEMORY_LIMIT', { maxMemoryPages: 16 }],
  ['huge-alloc', 'MEMORY_LIMIT'],
  ['huge-output', 'OUTPUT_TOO_LARGE'],
  ['trap-unreachable', 'TRAP'],
  ['divide-by-zero', 'TRAP'],
  ['out-of-bounds', 'TRAP'],
  ['log-flood', 'TIMEOUT', FIFTY],
  ['host-call-flood', 'TIMEOUT', FIFTY],
  // output_set is not gated (constant host work): its charge alone stops a loop of it.
  ['output-set-flood', 'TIMEOUT', FIFTY],
  ['output-set-flood', 'FUEL_EXHAUSTED', { timeoutMs: 10_000, fuel: 2_000_000 }],
  ['plugin-error', 'PLUGIN_ERROR'],
  ['bad-host-call', 'TRAP'],
];

export const scenarios: Record<string, () => Promise<void>> = {
  'in-thread: the hostile corpus fails with the right codes, and a healthy plugin still answers': async () => {
    const echo = await createSandbox(await hostile('echo'));
    for (const [fixture, code, limits] of HOSTILE) {
      const sandbox = await createSandbox(await hostile(fixture), { limits: { ...ROOMY.limits, ...limits } });
      const started = performance.now();
      const outcome = await sandbox.call('run', new Uint8Array(0));
      assert.equal(codeOf(outcome), code, `${fixture}: ${outcome.ok ? 'ok' : outcome.failure.message}`);
      assert.ok(performance.now() - started < 2_000, `${fixture} took ${performance.now() - started} ms`);
      await sandbox.close();
      const ok = await echo.call('run', text(fixture));
      assert.equal(ok.ok && str(ok.output), fixture);
    }
    for (const [fixture, cause] of [['start-loop', 'TIMEOUT'], ['start-trap', 'TRAP'], ['unknown-import', 'LOAD_FAILED']]) {
      await assert.rejects(createSandbox(await hostile(fixture!), fixture === 'start-loop' ? SPIN : ROOMY), (e: { code?: string; cause?: { code?: string } }) => {
        assert.equal(e.code, 'LOAD_FAILED');
        assert.equal(e.cause?.code, cause);
        return true;
      });
    }
  },

  'in-thread: an idle call has run by the time call() returns (Extism\'s call context driven directly, one settled promise)': async () => {
    const echo = await createSandbox(await hostile('echo'), ROOMY);
    for (const input of ['warm', 'direct', 'again']) {
      let outcome: CallOutcome | undefined;
      const done = echo.call('run', text(input)).then((o) => (outcome = o));
      // One microtask: enough for a promise that was settled when call() returned, not for Extism's async Plugin.call.
      await null;
      assert.ok(outcome, `${runtime}: the call was not settled one microtask after call() returned`);
      assert.equal(outcome.ok && str(outcome.output), input);
      await done;
    }
    // The same path keeps every stop: a deadline, a trap, fuel, and an error the plugin sets itself.
    assert.equal(codeOf(await echo.call('spin', new Uint8Array(0), { limits: FIFTY })), 'TIMEOUT');
    assert.equal(codeOf(await echo.call('trap', new Uint8Array(0))), 'TRAP');
    assert.equal(codeOf(await echo.call('spin', new Uint8Array(0), { limits: { fuel: 1_000_000 } })), 'FUEL_EXHAUSTED');
    const back = await echo.call('run', text('back'));
    assert.equal(back.ok && str(back.output), 'back');
    await echo.close();
  },

  'in-thread: an infinite loop stops at its deadline, and the module recovers': () => deadline({}, 'in-thread'),

  'in-thread: a loop of an ungated host call (output_set) stops within the deadline\'s slack, and by fuel within the budget': async () => {
    const flood = await createSandbox(await hostile('output-set-flood'), { quarantine: { maxConsecutiveFailures: 100 } });
    const fiveStops = async (): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const outcome = await flood.call('run', new Uint8Array(0), { limits: { timeoutMs: 50, fuel: 1e15 } });
        times.push(performance.now() - started);
        assert.equal(codeOf(outcome), 'TIMEOUT');
      }
      return times.sort((a, b) => a - b);
    };
    let times = await fiveStops();
    // Up to two more rounds when the median is over (redteam.xrt retries the same way): in CI, with the rest of the
    // suite on both cores, Bun's median read 102 ms once (session 38), and 145 and 170 ms in both of session 42's
    // runs, each time in one window of the run (the runner's second run passed); on a quiet machine, or beside two
    // busy loops, 50.3-55 ms. Every round is printed, so a slow one shows in the log.
    const rounds = [times];
    while (times[2]! >= 100 && rounds.length < 3) rounds.push((times = await fiveStops()));
    for (const r of rounds) console.log(`    [${runtime}] output_set loop, timeoutMs 50: stopped in ${r.map((t) => t.toFixed(1)).join(', ')} ms`);
    // The documented slack, max(2 × deadline, deadline + 50 ms), on the median (a loaded machine delays any one run).
    assert.ok(times[2]! < 100, `median ${times[2]} ms`);
    const spent = await flood.call('run', new Uint8Array(0), { limits: { timeoutMs: 10_000, fuel: 500_000 } });
    assert.equal(codeOf(spent), 'FUEL_EXHAUSTED');
    assert.ok(spent.fuelUsed <= 500_000, `fuelUsed ${spent.fuelUsed}`);
    // A deadline far off: 10,000 host calls outran the default 100 ms on a loaded machine (CI, Bun: TIMEOUT after 7M fuel).
    const many = await flood.call('many', new Uint8Array(0), { limits: { timeoutMs: 10_000 } });
    const once = await flood.call('once', new Uint8Array(0), { limits: { timeoutMs: 10_000 } });
    assert.equal(codeOf(many) + codeOf(once), 'okok');
    // At least GATED_CALL_FUEL (1000) per call: 9,999 more calls.
    assert.ok(many.fuelUsed - once.fuelUsed >= 9_999 * 1_000, `${many.fuelUsed} - ${once.fuelUsed}`);
    await flood.close();
  },

  'in-thread: fuel exhaustion, memory cap, trap, stack overflow': async () => {
    const echo = await createSandbox(await hostile('echo'), ROOMY);
    const frugal = await echo.call('spin', new Uint8Array(0), { limits: { fuel: 1_000_000, timeoutMs: 10_000 } });
    assert.equal(codeOf(frugal), 'FUEL_EXHAUSTED');
    assert.equal(codeOf(await echo.call('trap', new Uint8Array(0))), 'TRAP');
    assert.equal(codeOf(await echo.call('recurse', new Uint8Array(0))), 'STACK_OVERFLOW');
    const bomb = await createSandbox(await hostile('memory-grow-bomb'), { limits: { maxMemoryPages: 8, timeoutMs: 2_000 } });
    const grown = await bomb.call('run', new Uint8Array(0));
    assert.equal(codeOf(grown), 'MEMORY_LIMIT');
    const allocs = await createSandbox(await hostile('alloc-bomb'), { limits: { maxMemoryPages: 8, timeoutMs: 2_000 } });
    assert.equal(codeOf(await allocs.call('run', new Uint8Array(0))), 'MEMORY_LIMIT');
    const back = await echo.call('run', text('fine'));
    assert.equal(back.ok && str(back.output), 'fine');
  },

  'in-thread: abort before and during a call': async () => {
    const echo = await createSandbox(await hostile('echo'), SPIN);
    const before = new AbortController();
    before.abort();
    const refused = await echo.call('run', text('x'), { signal: before.signal });
    assert.equal(codeOf(refused), 'ABORTED');
    assert.equal(refused.fuelUsed, 0);
    const during = new AbortController();
    // From a host function the plugin calls: a log callback, as before red40, runs after the call now.
    const spinner = await createSandbox(await hostile('poke-then-spin'), {
      limits: { timeoutMs: 5_000, fuel: 1e15 },
      allowExceptions: true,
      hostFunctions: { poke: { params: [], results: [], fn: () => during.abort() } },
    });
    const started = performance.now();
    assert.equal(codeOf(await spinner.call('run', new Uint8Array(0), { signal: during.signal })), 'ABORTED');
    assert.ok(performance.now() - started < 1_000);
  },

  'in-thread: quarantine after repeated failures, then a probe': async () => {
    const echo = await createSandbox(await hostile('echo'), { quarantine: { backoffMs: 50 } });
    for (let i = 0; i < 3; i++) await echo.call('trap', new Uint8Array(0));
    assert.equal(echo.health, 'quarantined');
    assert.equal(codeOf(await echo.call('run', text('x'))), 'QUARANTINED');
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(codeOf(await echo.call('run', text('x'))), 'ok');
    assert.equal(echo.health, 'healthy');
  },

  'in-thread and worker: a 10 MiB error_set block is cut as bytes, at a character boundary, before it is decoded': async () => {
    for (const isolation of ['in-thread', 'worker'] as const) {
      const sandbox = await createSandbox(await hostile('huge-error'), { ...ROOMY, isolation });
      const outcome = await sandbox.call('run', new Uint8Array(0));
      assert.equal(codeOf(outcome), 'PLUGIN_ERROR');
      // 4030 'x', not a split '€' (U+FFFD), then the note of what was cut.
      assert.equal(!outcome.ok && outcome.failure.message, `${'x'.repeat(4030)}… (${10 * 1024 * 1024 - 4030} more bytes cut)`, isolation);
      await sandbox.close();
    }
  },

  'worker: an infinite loop stops at its deadline without blocking this thread': async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    try {
      await deadline({ isolation: 'worker' }, 'worker');
    } finally {
      clearInterval(ticker);
    }
    assert.ok(ticks > 5, `the event loop ticked ${ticks} times`);
  },

  'worker: abort mid-call, traps and recovery': async () => {
    const echo = await createSandbox(await hostile('echo'), { ...ROOMY, isolation: 'worker' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const aborted = await echo.call('spin', new Uint8Array(0), { signal: controller.signal, limits: { timeoutMs: 5_000 } });
    assert.equal(codeOf(aborted), 'ABORTED');
    assert.equal(codeOf(await echo.call('trap', new Uint8Array(0))), 'TRAP');
    assert.equal(codeOf(await echo.call('spin', new Uint8Array(0), { limits: { fuel: 1_000_000 } })), 'FUEL_EXHAUSTED');
    const back = await echo.call('run', text('back'));
    assert.equal(back.ok && str(back.output), 'back');
    await echo.close();
  },

  'worker: an idle worker costs next to no CPU, and a request whose notify is lost still gets through': async () => {
    // CPU per second of this whole process (every thread), the quietest of five one-second windows:
    // measured before the worker exists and while it idles, so the machine's load lands on both.
    const quietest = async (): Promise<number> => {
      const perSecond: number[] = [];
      for (let i = 0; i < 5; i++) {
        const before = process.cpuUsage();
        await new Promise((r) => setTimeout(r, 1_000));
        const used = process.cpuUsage(before);
        perSecond.push((used.user + used.system) / 1000);
      }
      return Math.min(...perSecond);
    };
    const alone = await quietest();
    const echo = await createSandbox(await hostile('echo'), { ...ROOMY, isolation: 'worker' });
    const ran = await echo.call('run', text('warm'));
    assert.equal(ran.ok && str(ran.output), 'warm');
    await new Promise((r) => setTimeout(r, 500));
    const idle = await quietest();
    console.log(`    [${runtime}] CPU per second: ${alone.toFixed(2)} ms without the worker, ${idle.toFixed(2)} ms with it idle`);
    // Waking every 20 ms cost 3.2–10 ms per second (Node, Deno, Bun); without it 0.2–1.1 (Bun's own baseline is about 1,
    // and on a loaded machine every runtime's idle process costs 1–2 ms more, worker or not). On CI's loaded machine the
    // quietest of three windows read 9.17 → 11.05 (Node) and 3.32 → 6.03, 3.78 → 5.46 (Deno; quiet: 1.19 → 0.45):
    // the limit is 2.5 ms, or a quarter of a busy baseline (a 20 ms wake-up still reads over: 9.17 + 3.2 is 1.35×).
    const limit = Math.max(2.5, alone / 4);
    assert.ok(idle - alone < limit, `an idle worker added ${(idle - alone).toFixed(2)} ms of CPU per second (${alone.toFixed(2)} → ${idle.toFixed(2)}; limit ${limit.toFixed(2)})`);
    // Lose the next notify (the request's): the host notifies again at its next slice, and the idle worker wakes.
    const notify = Atomics.notify.bind(Atomics);
    let calls = 0;
    Atomics.notify = (array, index, count) => (calls++ === 0 ? 0 : notify(array as Int32Array, index, count));
    const started = performance.now();
    try {
      const late = await echo.call('run', text('late'));
      assert.equal(late.ok && str(late.output), 'late');
    } finally {
      Atomics.notify = notify;
    }
    assert.ok(calls > 1 && performance.now() - started < 1_000, `${calls} notifies, ${performance.now() - started} ms`);
    await echo.close();
  },

  // A mapped call's `result` that throws (against its contract) rejects that call only: settled once, not
  // counted toward quarantine, and the calls queued behind it still run (in-thread it was settled twice,
  // and a rejection carried down the queue rejected every later call unrun).
  [`${runtime}: a throwing result rejects its own call only, in-thread and in a worker`]: async () => {
    for (const isolation of ['in-thread', 'worker'] as const) {
      const echo = await createSandbox(await hostile('echo'), { limits: { timeoutMs: 5_000 }, isolation, quarantine: { maxConsecutiveFailures: 1 } });
      const throwing = (): never => {
        throw new Error('mapping failed');
      };
      const settled = await Promise.allSettled([echo.call('run', text('q1')), echo.call('run', text('q2'), { result: throwing }), echo.call('run', text('q3'))]);
      const seen = settled.map((r) => (r.status === 'fulfilled' ? r.value.ok && str(r.value.output) : (r.reason as Error).message));
      assert.deepEqual(seen, ['q1', 'mapping failed', 'q3'], isolation);
      await assert.rejects(echo.call('run', text('alone'), { result: throwing }), /mapping failed/, isolation);
      assert.equal(echo.health, 'healthy', isolation);
      const after = await echo.call('run', text('after'));
      assert.equal(after.ok && str(after.output), 'after', isolation);
      await echo.close();
    }
  },
};
