// Hostile plugins against the sandbox engine on Node, Deno and Bun, against
// the ESM build, in-thread and in a worker: stops swallowed with wasm
// exception handling, variables past their caps, big messages through the
// worker channel, causes that must have one failure type. Each asserts the
// failure type, that the call ends within the documented slack, that host
// RSS grows by no more than `hostMemoryBound(limits)`, that the plugin as a
// PreToolUse guard denies (fail closed), and that a healthy plugin in the same
// host answers afterwards. WAT is assembled with wabt, as in test/sandbox.
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, createHost, createSandbox, hostMemoryBound, loadPlugin, scriptedModel } from '../../dist/index.js';
import { hostile, runtime, str, text } from './wat.js';
import type { CallOutcome, HostEvent, Limits, SandboxedModule } from '../../dist/index.js';
import { asGuard } from '../fixtures/hostile/guard.ts';
import { showTimes, slackKept, stopRounds } from '../fixtures/slack.ts';
import { fakeBash } from './tools.ts';

const MiB = 1 << 20;
const DEADLINE = 50;
const ISOLATIONS = ['in-thread', 'worker'] as const;
const wat = (name: string, hook?: string): Promise<Uint8Array> => hostile(name, hook ? (source) => asGuard(source, hook) : undefined);

const codeOf = (o: CallOutcome) => (o.ok ? `ok (${str(o.output).slice(0, 20)})` : o.failure.code);
// Garbage is not held memory: collect first where the runtime lets us (Bun frees lazily; Node with --expose-gc).
const rss = () => {
  (globalThis as { Bun?: { gc(sync: boolean): void } }).Bun?.gc(true);
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
};
function u64(n: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(n), true);
  return bytes;
}

interface Hostile {
  fixture: string;
  fn: string;
  code: string;
  message: RegExp;
  limits: Partial<Limits>;
  input?: Uint8Array;
  config?: Record<string, string>;
}

const SPIN: Partial<Limits> = { timeoutMs: DEADLINE, fuel: 1e15 };
const ROOMY: Partial<Limits> = { timeoutMs: 5_000, fuel: 1e15 };
const HOSTILE: Hostile[] = [
  // A stop is final: caught with catch_all, the plugin still loses its answer.
  { fixture: 'swallow-stop', fn: 'swallow_spin', code: 'TIMEOUT', message: /deadline of 50 ms/, limits: SPIN },
  { fixture: 'swallow-stop', fn: 'swallow_twice', code: 'TIMEOUT', message: /deadline/, limits: SPIN },
  { fixture: 'swallow-stop', fn: 'swallow_quiet', code: 'TIMEOUT', message: /deadline/, limits: SPIN },
  { fixture: 'swallow-stop', fn: 'answer_then_swallow', code: 'TIMEOUT', message: /deadline/, limits: SPIN },
  { fixture: 'swallow-stop', fn: 'answer_then_swallow', code: 'FUEL_EXHAUSTED', message: /2000000/, limits: { timeoutMs: 5_000, fuel: 2_000_000 } },
  // Long single instructions: charged by length, stopped between them.
  { fixture: 'bulk-spin', fn: 'memory_fill', code: 'TIMEOUT', message: /deadline of 50 ms/, limits: SPIN },
  { fixture: 'bulk-spin', fn: 'memory_copy', code: 'TIMEOUT', message: /deadline of 50 ms/, limits: SPIN },
  { fixture: 'swallow-stop', fn: 'swallow_var', code: 'MEMORY_LIMIT', message: /maxVarBytes/, limits: ROOMY },
  { fixture: 'swallow-stop', fn: 'swallow_progress', code: 'OUTPUT_TOO_LARGE', message: /maxProgressBytes/, limits: ROOMY },
  // Variables: keys and values count, and their number.
  { fixture: 'vars', fn: 'big_key', code: 'MEMORY_LIMIT', message: /key of 8388608 bytes.*maxVarBytes/, limits: ROOMY },
  { fixture: 'vars', fn: 'big_value', code: 'MEMORY_LIMIT', message: /maxVarBytes/, limits: ROOMY },
  { fixture: 'vars', fn: 'many', code: 'MEMORY_LIMIT', message: /maxVars/, limits: ROOMY },
  { fixture: 'vars', fn: 'many', code: 'MEMORY_LIMIT', message: /more than 16 variables/, limits: { ...ROOMY, maxVars: 16 }, input: u64(17) },
  // Host-side copies (var_get, config_get) come out of the memory cap.
  { fixture: 'vars', fn: 'get_flood', code: 'MEMORY_LIMIT', message: /var_get needs a block/, limits: { ...ROOMY, maxMemoryPages: 64 } },
  { fixture: 'vars', fn: 'config_flood', code: 'MEMORY_LIMIT', message: /config_get needs a block/, limits: { ...ROOMY, maxMemoryPages: 64 }, config: { k: 'x'.repeat(65_536) } },
  // Big messages: past their caps, typed (through the worker channel too).
  { fixture: 'flood', fn: 'progress_big', code: 'OUTPUT_TOO_LARGE', message: /maxProgressBytes \(1048576\)/, limits: ROOMY },
  { fixture: 'flood', fn: 'progress_many', code: 'OUTPUT_TOO_LARGE', message: /maxProgressBytes/, limits: ROOMY },
  { fixture: 'flood', fn: 'output_big', code: 'OUTPUT_TOO_LARGE', message: /maxOutputBytes/, limits: ROOMY },
  // One failure type per cause.
  { fixture: 'swallow-stop', fn: 'uncaught', code: 'TRAP', message: /wasm exception that it did not catch/, limits: ROOMY },
  { fixture: 'host-typing', fn: 'alloc_negative', code: 'MEMORY_LIMIT', message: /18446744073709551615 bytes/, limits: ROOMY },
  { fixture: 'host-typing', fn: 'alloc_huge', code: 'MEMORY_LIMIT', message: /beyond its cap/, limits: ROOMY },
  { fixture: 'host-typing', fn: 'http_get', code: 'TRAP', message: /http_request, but the sandbox grants no network access/, limits: ROOMY },
  { fixture: 'host-typing', fn: 'http_status', code: 'TRAP', message: /no network access/, limits: ROOMY },
];

async function runHostile(isolation: (typeof ISOLATIONS)[number], echo: SandboxedModule): Promise<void> {
  const growth: string[] = [];
  const timeouts: string[] = [];
  for (const h of HOSTILE) {
    const label = `${isolation} ${h.fixture}.${h.fn}`;
    const sandbox = await createSandbox(await wat(h.fixture), {
      name: h.fixture,
      isolation,
      allowExceptions: h.fixture === 'swallow-stop',
      limits: h.limits,
      quarantine: { maxConsecutiveFailures: 100 },
      ...(h.config ? { config: h.config } : {}),
    });
    const before = rss();
    const rounds = await stopRounds(DEADLINE, () => sandbox.call(h.fn, h.input ?? new Uint8Array(0)), (outcome) => {
      assert.equal(codeOf(outcome), h.code, `${label}: ${outcome.ok ? 'ok' : outcome.failure.message}`);
      if (!outcome.ok) assert.match(outcome.failure.message, h.message, label);
    }, 3, h.code === 'TIMEOUT' ? 12 : 3, isolation);
    if (h.code === 'TIMEOUT') {
      // The documented slack on a loaded machine (fixtures/slack.ts): a slow round passes only if it
      // was short of CPU, not busy past its deadline, and the best round is on time by the wall clock.
      assert.deepEqual(slackKept(DEADLINE, rounds), { everyRound: true, bestRound: true }, `${label}: ${showTimes(rounds)}`);
      timeouts.push(Math.max(...rounds.map((t) => t.wallMs)).toFixed(0));
    } else {
      assert.ok(Math.max(...rounds.map((t) => t.wallMs)) < 2_000, `${label}: ${showTimes(rounds)}`);
    }
    const grown = rss() - before;
    const cap = hostMemoryBound({ ...DEFAULT_LIMITS, ...h.limits });
    assert.ok(grown <= cap, `${label}: RSS grew ${(grown / MiB).toFixed(1)} MiB, bound ${(cap / MiB).toFixed(1)} MiB`);
    growth.push((grown / MiB).toFixed(0));
    await sandbox.close();
    const ok = await echo.call('run', text(label));
    assert.equal(ok.ok && str(ok.output), label);
  }
  console.log(`    [${runtime}] ${isolation}: RSS growth per hostile sandbox (MiB): ${growth.join(' ')}`);
  console.log(`    [${runtime}] ${isolation}: slowest TIMEOUT per case (ms, deadline ${DEADLINE}): ${timeouts.join(' ')}`);
}

/** The hostile export as a PreToolUse guard in an agent run: Bash must never run. */
async function guardDenies(fixture: string, fn: string, isolation: (typeof ISOLATIONS)[number]): Promise<void> {
  const guard = await loadPlugin({ bytes: await wat(fixture, fn) }, { limits: { timeoutMs: DEADLINE }, isolation, allowExceptions: fixture === 'swallow-stop' });
  const ran: string[] = [];
  const host = createHost({
    plugins: [guard],
    permissionMode: 'bypassPermissions',
    model: scriptedModel({ turns: [{ toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }] }, { text: 'Done.' }] }),
    tools: [fakeBash(() => 'ok', ran)],
  });
  const events: HostEvent[] = [];
  for await (const event of host.session().stream('go')) events.push(event);
  await guard.close();
  const label = `${isolation} ${fixture}.${fn} as a guard`;
  assert.deepEqual(ran, [], label);
  const end = events.find((e) => e.type === 'hook.end');
  assert.ok(end?.type === 'hook.end' && end.decision === 'deny' && end.failure, `${label}: ${JSON.stringify(end)}`);
  assert.ok(events.some((e) => e.type === 'tool.denied'), label);
}

/** CPU time of the whole process (every thread) over `ms` of wall time, in ms. */
async function cpuOver(ms: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((r) => setTimeout(r, ms));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

export const scenarios: Record<string, () => Promise<void>> = {
  'hostile plugins: failure type, slack, RSS bound, and a healthy plugin after, in-thread and in a worker': async () => {
    const echo = await createSandbox(await wat('echo'));
    for (const isolation of ISOLATIONS) await runHostile(isolation, echo);
    await echo.close();
  },

  'hostile plugins as PreToolUse guards deny (fail closed)': async () => {
    for (const isolation of ISOLATIONS) {
      for (const [fixture, fn] of [
        ['swallow-stop', 'swallow_quiet'],
        ['swallow-stop', 'answer_then_swallow'],
        ['swallow-stop', 'swallow_var'],
        ['vars', 'big_key'],
        ['flood', 'progress_big'],
        ['host-typing', 'http_get'],
        ['host-typing', 'alloc_negative'],
      ] as const) {
        await guardDenies(fixture, fn, isolation);
      }
    }
  },

  'variables within their caps: overwrite and churn do not grow, a value round-trips': async () => {
    for (const isolation of ISOLATIONS) {
      // Room for the overwritten 64 KiB variable (it stays) plus one 4 KiB churned one at a time.
      const limits = { ...ROOMY, maxVarBytes: 65_536 + 8 + 4_096 + 8, maxVars: 2 };
      const sandbox = await createSandbox(await wat('vars'), { isolation, limits });
      const before = rss();
      assert.equal(codeOf(await sandbox.call('overwrite', u64(2_000))), 'ok ()');
      assert.equal(codeOf(await sandbox.call('churn', u64(2_000))), 'ok ()');
      const round = await sandbox.call('roundtrip', text('abcdefgh'));
      assert.equal(round.ok && str(round.output), 'abcdefgh');
      assert.ok(rss() - before <= hostMemoryBound({ ...DEFAULT_LIMITS, ...limits }));
      await sandbox.close();
    }
  },

  'worker channel: a 4 MiB progress message, 3000 small ones and a 6 MiB output arrive whole': async () => {
    const progress: string[] = [];
    const sandbox = await createSandbox(await wat('flood'), {
      isolation: 'worker',
      // Whole arrival is the point, not speed: 10 s, so a loaded machine's slow copies are not a TIMEOUT.
      limits: { ...ROOMY, timeoutMs: 10_000, maxProgressBytes: 8 * MiB, maxOutputBytes: 8 * MiB, maxMemoryPages: 512 },
      host: { onProgress: (m) => progress.push(m) },
    });
    assert.equal(codeOf(await sandbox.call('progress_big', u64(4 * MiB))), 'ok (aaaz)');
    assert.equal(progress.length, 1);
    assert.equal(progress[0]!.length, 4 * MiB);
    progress.length = 0;
    assert.equal(codeOf(await sandbox.call('progress_many', u64(3_000))), 'ok (aaaz)');
    assert.equal(progress.length, 3_000);
    const big = await sandbox.call('output_big', u64(6 * MiB));
    assert.ok(big.ok && big.output.byteLength === 6 * MiB && big.output[6 * MiB - 1] === 122, big.ok ? `${big.output.byteLength} bytes` : big.failure.message);
    await sandbox.close();
  },

  "a load's start function gets at least 1 s whatever timeoutMs (a stalled machine must not fail a load); one that never ends is still refused": async () => {
    const endless = (source: string) => source.replace('(i64.const 3000000)', '(i64.const -1)');
    for (const isolation of ISOLATIONS) {
      const sandbox = await createSandbox(await hostile('spin-at-start'), { isolation, limits: { timeoutMs: 1, fuel: 1e12 } });
      assert.equal(sandbox.limits.timeoutMs, 1);
      assert.equal(codeOf(await sandbox.call('done', new Uint8Array(0), { limits: { timeoutMs: 1_000 } })).slice(0, 2), 'ok');
      await sandbox.close();
      const started = performance.now();
      await assert.rejects(createSandbox(await hostile('spin-at-start', endless), { isolation, limits: { timeoutMs: 1, fuel: 1e15 } }), (error: { code?: string; cause?: { code?: string } }) => {
        assert.equal(error.code, 'LOAD_FAILED');
        assert.equal(error.cause?.code, 'TIMEOUT');
        return true;
      });
      assert.ok(performance.now() - started >= 999, `${isolation}: refused after ${performance.now() - started} ms`);
    }
  },
  'after TIMEOUT and ABORTED in a worker, the process uses no CPU': async () => {
    const sandbox = await createSandbox(await wat('swallow-stop'), { allowExceptions: true, isolation: 'worker', limits: SPIN, quarantine: { maxConsecutiveFailures: 100 } });
    for (let i = 0; i < 3; i++) assert.equal(codeOf(await sandbox.call('swallow_twice', new Uint8Array(0))), 'TIMEOUT');
    const bulk = await createSandbox(await wat('bulk-spin'), { isolation: 'worker', limits: SPIN, quarantine: { maxConsecutiveFailures: 100 } });
    for (const fn of ['memory_fill', 'memory_copy']) assert.equal(codeOf(await bulk.call(fn, new Uint8Array(0))), 'TIMEOUT');
    await bulk.close();
    for (let i = 0; i < 3; i++) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const outcome = await sandbox.call('swallow_quiet', new Uint8Array(0), { signal: controller.signal, limits: { timeoutMs: 10_000 } });
      assert.equal(codeOf(outcome), 'ABORTED');
    }
    await sandbox.close();
    // close() returns once every worker it killed is gone; then the process is idle.
    await new Promise((r) => setTimeout(r, 100));
    const cpu = await cpuOver(1_000);
    console.log(`    [${runtime}] CPU over the second after 5 TIMEOUT + 3 ABORTED worker calls: ${cpu.toFixed(0)} ms`);
    // Idle is a few ms; one spinning thread gets ≥ 200 ms even on the loaded machine.
    assert.ok(cpu < 100, `${cpu} ms of CPU`);
  },
};
