// Red review (red40, embedder code on a hostile guest's nearly exhausted stack) on Node, Deno and Bun,
// through dist/: an in-thread plugin that recursed to just short of the stack limit and then logged
// (log_info) or reported progress ran the embedder's listener chain (a session, the event bus, its
// subscribers) on the few KB left. The RangeError there was swallowed: lines vanished, and the bus
// could be left frozen for the rest of the session. Lines and progress are now queued during the call
// and delivered once it has ended, however it ended; the bus cannot be left frozen by a throw; an
// embedder host function (which must run on the plugin's stack) that runs out of it fails the call as
// STACK_OVERFLOW naming it. The probes find the limit on each runtime (test/fixtures/deep-log.ts).
// Vitest twins that fail on the old code: test/sandbox/red40.deep-log.test.ts,
// test/plugins/red40.deep-log-session.test.ts, test/events/red40.bus-throws.test.ts.
import assert from 'node:assert/strict';
import { EventBus, createHost, createSandbox, loadPlugin, scriptedModel } from '../../dist/index.js';
import { DEEP_ENDS, deepSandboxProblems, deepSessionProblems, endProblems, stackEndProblems, type DeepSandboxApi, type DeepSessionApi } from '../fixtures/deep-log.ts';
import { hostile } from './wat.ts';

const sandboxApi = { createSandbox, EventBus } as unknown as DeepSandboxApi;
const sessionApi = { createHost, scriptedModel, loadPlugin } as unknown as DeepSessionApi;

export const scenarios: Record<string, () => Promise<void>> = {
  // First: after the plugin scenarios, the engine's optimised publish met the stack's end elsewhere (the old bus froze less often).
  'the bus: publishes from every depth near the stack limit, a RangeError anywhere inside, never leave it frozen': async () => {
    assert.deepEqual(await stackEndProblems(sandboxApi), []);
  },

  'in-thread: log lines said just short of the stack limit are all heard, in order, through an event bus that still delivers after': async () => {
    assert.deepEqual(await deepSandboxProblems(sandboxApi, await hostile('deep-log'), 'run'), []);
  },

  'in-thread: progress messages said just short of the stack limit, the same': async () => {
    assert.deepEqual(await deepSandboxProblems(sandboxApi, await hostile('deep-log'), 'progress'), []);
  },

  'a session: a plugin tool that logs just short of the stack limit; every line reaches the prompt\'s stream and the session\'s subscriber, and every prompt ends': async () => {
    assert.deepEqual(await deepSessionProblems(sessionApi, await hostile('deep-log')), []);
  },

  'what a call said is heard once it ends (returning, a trap, past the line cap, the deadline, a refusal, an abort), in order, log lines and progress interleaved, before its outcome': async () => {
    const all = DEEP_ENDS.map((e) => e.end);
    assert.deepEqual(await endProblems(sandboxApi, (name) => hostile(name), 'in-thread', all), []);
    // In a worker (no host functions there), bar the deadline: the host's 50 ms grace may give up on a loaded machine.
    const worker = all.filter((end) => end !== 'an abort' && end !== 'the deadline');
    assert.deepEqual(await endProblems(sandboxApi, (name) => hostile(name), 'worker', worker), []);
  },

  'in-thread: an embedder host function that runs out of stack fails the call closed, STACK_OVERFLOW naming it; the next call runs': async () => {
    let recurse = true;
    const down = (n: number): number => (recurse ? down(n + 1) + 1 : n);
    const sandbox = await createSandbox(await hostile('poke-then-spin'), {
      limits: { timeoutMs: 10_000, fuel: 1e15 },
      allowExceptions: true,
      hostFunctions: { poke: { params: [], results: [], fn: () => void down(0) } },
    });
    try {
      const overflowed = await sandbox.call('caught', new Uint8Array(0));
      assert.equal(overflowed.ok ? 'ok' : overflowed.failure.code, 'STACK_OVERFLOW');
      assert.match(overflowed.ok ? '' : overflowed.failure.message, /the host function "poke" ran out of stack/);
      recurse = false;
      const next = await sandbox.call('caught', new Uint8Array(0));
      assert.equal(next.ok && new TextDecoder().decode(next.output), 'ok');
    } finally {
      await sandbox.close();
    }
  },
};
