// The direct call's own memory accessors (host/sandbox/extism-kernel.ts) on
// Node, Deno and Bun, against the ESM build: at every edge of
// test/fixtures/hostile/kernel-edges.wat the sandbox answers what raw Extism
// answers on the same runtime (the same bytes, or a failure with Extism's
// own error text). test/sandbox/sandbox.kernel.test.ts under vitest.
import assert from 'node:assert/strict';
import createPlugin from '@extism/extism';
import { createSandbox } from '../../dist/index.js';
import { hostile, runtime, text } from './wat.js';
import type { CallOutcome } from '../../dist/index.js';
import { showTimes, slackKept, stopRounds, type Timed } from '../fixtures/slack.ts';

const EXPORTS = [
  'input', 'input_past_u64', 'input_past_u8', 'input_negative', 'input_written', 'input_freed_length', 'input_freed_load',
  'block', 'high_blocks', 'freed_block', 'missing_u64', 'missing_high_u64', 'missing_u8', 'block_past_u64', 'block_past_u8', 'null_block',
];
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

export const scenarios: Record<string, () => Promise<void>> = {
  'in-thread: the direct call\'s memory accessors answer every edge as raw Extism does': async () => {
    const bytes = await hostile('kernel-edges');
    const raw = await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false });
    let values = 0;
    let traps = 0;
    try {
      for (const input of [text('0123456789abcdefghij'), text('xyz')]) {
        for (const fn of EXPORTS) {
          let own: { ok: true; bytes: string } | { ok: false; error: string };
          try {
            own = { ok: true, bytes: hex((await raw.call(fn, input.slice()))?.bytes() ?? new Uint8Array(0)) };
          } catch (error) {
            own = { ok: false, error: error instanceof Error ? error.message : String(error) };
          }
          // A sandbox of its own per case: three failures in a row would quarantine a shared one.
          const sandbox = await createSandbox(bytes, { name: 'kernel-edges' });
          const outcome = await sandbox.call(fn, input).finally(() => sandbox.close());
          if (own.ok) {
            values++;
            assert.equal(outcome.ok && hex(outcome.output), own.bytes, `${runtime} ${fn}`);
          } else {
            traps++;
            assert.ok(!outcome.ok && outcome.failure.message.includes(own.error), `${runtime} ${fn}: ${JSON.stringify(outcome)} vs ${own.error}`);
          }
        }
      }
    } finally {
      await raw.close();
    }
    assert.ok(values >= 14 && traps >= 14, `${runtime}: ${values} values, ${traps} traps`);
  },

  'in-thread: a plugin that reads a missing block in a loop stops at its deadline within the slack': async () => {
    const sandbox = await createSandbox(await hostile('missing-block-spin'), {
      name: 'missing-block-spin',
      limits: { timeoutMs: 50, fuel: 1e15 },
      quarantine: { maxConsecutiveFailures: 100 },
    });
    let rounds: Timed<CallOutcome>[];
    try {
      rounds = await stopRounds(50, () => sandbox.call('run', new Uint8Array(0)), (outcome) => assert.equal(outcome.ok ? 'ok' : outcome.failure.code, 'TIMEOUT'), 5);
    } finally {
      await sandbox.close();
    }
    console.log(`    [${runtime}] missing-block read loop, timeoutMs 50: stopped in ${showTimes(rounds)}`);
    // The documented slack on a loaded machine (fixtures/slack.ts): a slow round passes only if it
    // was short of CPU, not busy past its deadline, and the best round is on time by the wall clock.
    assert.deepEqual(slackKept(50, rounds), { everyRound: true, bestRound: true }, `${runtime}: ${showTimes(rounds)}`);
  },
};
