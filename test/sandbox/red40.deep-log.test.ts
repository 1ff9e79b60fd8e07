// red40, class "embedder code runs on a hostile guest's nearly exhausted stack": an in-thread call
// runs the guest on the JS thread's stack, and a log line or a progress message went to the
// embedder's listener (here: an event bus and its subscriber) inside the host call. A guest that
// recursed to just short of the limit and then logged left the listener a few KB: its RangeError
// was swallowed, so lines vanished without a word, and a throw inside the bus's publish could leave
// it frozen. Lines and progress are now queued during the call and delivered once it has ended.
// Fails on the old code (lines missing at the deepest depths).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../host/events/bus.js';
import type { HostEvent } from '../../host/events/types.js';
import { createSandbox } from '../../host/sandbox/index.js';
import { MAX_LOG_LINES_PER_CALL } from '../../host/sandbox/plugin-messages.js';
import { DEFAULT_GRACE_MS, setWorkerGraceMs } from '../../host/sandbox/worker/host.js';
import type { SandboxedModule } from '../../host/sandbox/types.js';
import { deepInput, deepLines, probeDeep, unheard } from '../fixtures/deep-log.js';
import { hostile } from './sandbox-helpers.js';

const tick = () => new Promise((r) => setTimeout(r, 0));
const codeOf = (o: { ok: boolean; failure?: { code: string } }) => (o.ok ? 'ok' : o.failure!.code);

describe('a guest that logs just short of the stack limit (red40)', () => {
  const heard: string[] = [];
  const bus = new EventBus();
  bus.subscribe((e) => void (e.type === 'plugin.log' && heard.push(e.message)));
  const publish = (message: string) =>
    bus.publish({ type: 'plugin.log', plugin: 'deep', level: 'info', message, seq: 0, sessionId: 's', time: 0 } as HostEvent);
  let sandbox: SandboxedModule;
  beforeAll(async () => {
    sandbox = await createSandbox(await hostile('deep-log'), {
      name: 'deep-log',
      limits: { timeoutMs: 10_000, fuel: 1e12 },
      // The listener publishes on the bus, as a session's does.
      host: { onLog: (_level, message) => publish(message), onProgress: (message) => publish(message) },
      quarantine: { maxConsecutiveFailures: 1_000 },
    });
  });
  afterAll(() => sandbox.close());

  it.each(['run', 'progress'])('%s: every line of every call is heard, in order, and the bus still delivers after', async (fn) => {
    const probes = await probeDeep(async (depth) => {
      heard.length = 0;
      const code = codeOf(await sandbox.call(fn, deepInput(depth)));
      await tick();
      return { code, heard: [...heard] };
    });
    expect(probes.some((p) => p.code === 'STACK_OVERFLOW')).toBe(true);
    expect(unheard(probes)).toEqual([]);
    heard.length = 0;
    publish('after');
    await tick();
    expect(heard).toEqual(['after']);
  });
});

describe('what a call said is heard once it ends, however it ends, in order, before its outcome (red40)', () => {
  const ends = [
    { end: 'a trap', fixture: 'deep-log', fn: 'run_trap', input: deepInput(5), code: 'TRAP', heard: deepLines(5) },
    {
      end: 'a trap, past the line cap',
      fixture: 'deep-log',
      fn: 'run_trap',
      input: deepInput(1_003, 1_003),
      code: 'TRAP',
      heard: [...deepLines(1_003, 1_000), `3 more log lines dropped (limits per call: ${MAX_LOG_LINES_PER_CALL} lines, 262144 bytes, maxLogBytes)`],
    },
    { end: 'the deadline', fixture: 'log-then-spin', fn: 'run', input: new Uint8Array(0), code: 'TIMEOUT', heard: ['!'], limits: { timeoutMs: 50 } },
    // 4 progress messages of 5 bytes fit 20 bytes; the fifth is refused.
    { end: 'a refusal', fixture: 'deep-log', fn: 'progress', input: deepInput(10), code: 'OUTPUT_TOO_LARGE', heard: deepLines(10).slice(0, 4), limits: { maxProgressBytes: 20 } },
  ];
  for (const isolation of ['in-thread', 'worker'] as const) {
    it.each(ends)(`${isolation}: %s`.replace('%s', '$end'), async ({ fixture, fn, input, code, heard, limits }) => {
      const said: string[] = [];
      const sandbox = await createSandbox(await hostile(fixture), {
        isolation,
        limits: { timeoutMs: 10_000, fuel: 1e15, ...limits },
        host: { onLog: (_level, line) => said.push(line), onProgress: (message) => said.push(message) },
      });
      // The worker's answer carries the lines: the host must not give up on it first (a loaded machine).
      setWorkerGraceMs(2_000);
      try {
        const outcome = await sandbox.call(fn, input);
        // Heard by the time the outcome is: no tick in between.
        expect([...said, codeOf(outcome)]).toEqual([...heard, code]);
      } finally {
        setWorkerGraceMs(DEFAULT_GRACE_MS);
        await sandbox.close();
      }
    });
  }

  it('in-thread: an abort from a host function the plugin calls', async () => {
    const said: string[] = [];
    const controller = new AbortController();
    const sandbox = await createSandbox(await hostile('poke-then-spin'), {
      limits: { timeoutMs: 10_000, fuel: 1e15 },
      allowExceptions: true,
      hostFunctions: { poke: { params: [], results: [], fn: () => controller.abort() } },
      host: { onLog: (_level, line) => said.push(line) },
    });
    const outcome = await sandbox.call('run', new Uint8Array(0), { signal: controller.signal });
    expect([...said, codeOf(outcome)]).toEqual(['!', 'ABORTED']);
    await sandbox.close();
  });
});

describe('an embedder host function runs on the plugin\'s stack (red40, documented)', () => {
  it('in-thread: one that runs out of stack fails the call closed, STACK_OVERFLOW naming it; the next call runs', async () => {
    let recurse = true;
    const down = (n: number): number => (recurse ? down(n + 1) + 1 : n);
    const sandbox = await createSandbox(await hostile('poke-then-spin'), {
      limits: { timeoutMs: 10_000, fuel: 1e15 },
      allowExceptions: true,
      hostFunctions: { poke: { params: [], results: [], fn: () => void down(0) } },
    });
    // The plugin catches what the host function threw and answers: the stop is final all the same.
    const overflowed = await sandbox.call('caught', new Uint8Array(0));
    expect(!overflowed.ok && overflowed.failure).toMatchObject({ code: 'STACK_OVERFLOW', message: /the host function "poke" ran out of stack/ });
    recurse = false;
    const next = await sandbox.call('caught', new Uint8Array(0));
    expect(next.ok && new TextDecoder().decode(next.output)).toBe('ok');
    await sandbox.close();
  });
});
