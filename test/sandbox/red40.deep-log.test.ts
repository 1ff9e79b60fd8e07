// red40, class "embedder code runs on a hostile guest's nearly exhausted stack": an in-thread call
// runs the guest on the JS thread's stack, and a log line or a progress message went to the
// embedder's listener (here: an event bus and its subscriber) inside the host call. A guest that
// recursed to just short of the limit and then logged left the listener a few KB: its RangeError
// was swallowed, so lines vanished without a word, and the bus could be left frozen (its drain
// marked as scheduled by a publish that threw). Lines and progress are now queued during the call
// and delivered once it has ended, however it ended (test/fixtures/deep-log.ts; the same on Node,
// Deno and Bun against dist/: test/xrt/red40-deeplog.xrt.ts).
// Fail on the old code: the first two (every call after the first deep one heard nothing, "depth 1
// (ok): heard 0 of 1 lines": the bus frozen) and the last (the host function's overflow read "the
// plugin overflowed the call stack"), and the worker's "however it ends" (its answer carried all the
// log lines, then all the progress). The in-thread one held before too (lines went out during the
// call): it holds the queue to the same order and completeness.
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../host/events/bus.js';
import { createSandbox } from '../../host/sandbox/index.js';
import { DEFAULT_GRACE_MS, setWorkerGraceMs } from '../../host/sandbox/worker/host.js';
import { DEEP_ENDS, deepSandboxProblems, endProblems } from '../fixtures/deep-log.js';
import { hostile } from './sandbox-helpers.js';

const codeOf = (o: { ok: boolean; failure?: { code: string } }) => (o.ok ? 'ok' : o.failure!.code);

it.each(['run', 'progress'] as const)('%s just short of the stack limit: every line of every call is heard, in order, and the bus still delivers after (red40)', async (fn) => {
  expect(await deepSandboxProblems({ createSandbox, EventBus }, await hostile('deep-log'), fn)).toEqual([]);
});

describe('what a call said is heard once it ends, however it ends, in order, before its outcome (red40)', () => {
  it.each(['in-thread', 'worker'] as const)('%s', async (isolation) => {
    // The worker's answer carries the lines: the host must not give up on it first (a loaded machine).
    setWorkerGraceMs(2_000);
    try {
      const ends = DEEP_ENDS.map((e) => e.end).filter((end) => isolation === 'in-thread' || end !== 'an abort');
      expect(await endProblems({ createSandbox }, hostile, isolation, ends)).toEqual([]);
    } finally {
      setWorkerGraceMs(DEFAULT_GRACE_MS);
    }
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
    // toEqual with stringMatching: vitest's toMatchObject passes a RegExp property whatever the string.
    expect(!overflowed.ok && overflowed.failure).toEqual({ code: 'STACK_OVERFLOW', message: expect.stringMatching(/^the host function "poke" ran out of stack/) });
    recurse = false;
    const next = await sandbox.call('caught', new Uint8Array(0));
    expect(next.ok && new TextDecoder().decode(next.output)).toBe('ok');
    await sandbox.close();
  });
});
