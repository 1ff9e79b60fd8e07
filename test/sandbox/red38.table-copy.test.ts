// red38, class "one instruction out of the meter's reach", continued: table.copy is one instruction that
// engines run at 100-135 ns an element, charged before it runs and never inside. Under a raised
// maxTableElements a copy of 600,000 elements held the thread 30-70 ms past a 30 ms deadline, and more
// with more (the default fuel buys about 976,000 elements; a raised fuel, more). A copy longer than 32,768
// elements now runs in chunks that long, each charged (and so checked), like the long memory operations
// (chunks.ts); what it moves does not change (overlapping ranges both ways, and between tables). Fails on
// the old code (the spin of 1,000,000-element copies ran 100 ms and more). Cross-runtime twin:
// test/xrt/red38.xrt.ts.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { hostile } from './sandbox-helpers.js';
import { showTimes, slackKept, stopRounds } from '../fixtures/slack.js';

const fixture = (): Promise<Uint8Array> => hostile('red38-table-copy');

describe('red38: a long table.copy runs in chunks', () => {
  it('moves what the engine moves: overlapping ranges both ways, and between tables', async () => {
    const bytes = await fixture();
    const raw = new WebAssembly.Instance(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>), { 'extism:host/env': { input_load_u8: () => 1 } }).exports as Record<string, () => number>;
    raw.prep!();
    const expected = raw.shuffle!();
    // Three tables share the cap: 400,000 leaves each of the two grown ones room for 100,000.
    const sandbox = await createSandbox(bytes, { limits: { timeoutMs: 5_000, maxTableElements: 400_000 } });
    try {
      expect(await sandbox.call('prep', new Uint8Array([1]))).toMatchObject({ ok: true, returnCode: 100_000 });
      expect(await sandbox.call('shuffle', new Uint8Array())).toMatchObject({ ok: true, returnCode: expected });
    } finally {
      await sandbox.close();
    }
  });

  it('a loop of copies of 1,000,000 elements is stopped by a 30 ms deadline within its slack', async () => {
    // Filling a million elements one table.set at a time costs about the default fuel: `prep` gets no cap.
    const sandbox = await createSandbox(await fixture(), { limits: { timeoutMs: 5_000, fuel: Infinity, maxTableElements: 3_100_000 } });
    try {
      // A stop throws the instance away (the next call rebuilds it, its tables empty): each round's is grown, untimed.
      const prep = async () => expect(await sandbox.call('prep', new Uint8Array([10]))).toMatchObject({ ok: true, returnCode: 1_000_000 });
      const rounds = await stopRounds(30, () => sandbox.call('spin', new Uint8Array(), { limits: { timeoutMs: 30, fuel: Infinity } }), (outcome) => {
        expect(outcome.ok ? 'ok' : outcome.failure.code).toBe('TIMEOUT');
      }, 3, 12, 'in-thread', prep);
      // Old code: 100 ms and more a round (one copy ran whole); now the deadline plus a chunk (~4 ms).
      expect(slackKept(30, rounds), showTimes(rounds)).toEqual({ everyRound: true, bestRound: true });
    } finally {
      await sandbox.close();
    }
  });
});
