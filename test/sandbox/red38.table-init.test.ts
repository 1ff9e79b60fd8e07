// red38, class "one instruction out of the meter's reach", continued: table.init from a long passive
// element segment is one instruction (engines write 100-170 ns an element), charged before it runs and
// never inside. Under a raised maxTableElements a loop of inits of 1,000,000 elements held a 10 ms
// deadline 300 ms. An init longer than 32,768 elements from a passive segment longer than that now runs in
// chunks, each charged and checked (chunks.ts, as memory.init); what it writes does not change, and an
// init past the segment's end or from a dropped segment still traps. Fails on the old code (the spin
// ran 300 ms and more). Cross-runtime twin: test/xrt/red38.xrt.ts.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { showTimes, someRoundWithin } from '../fixtures/slack.js';
import { tableInitWat } from '../fixtures/hostile/red38-table-init.js';
import { assemble } from './instrument-helpers.js';

const assembleInit = (entries: number, size: number): Promise<Uint8Array<ArrayBuffer>> => assemble(tableInitWat(entries, size), 'red38-table-init.wat');

describe('red38: a long table.init runs in chunks', () => {
  it('writes what the engine writes; past the segment and from a dropped one it traps', async () => {
    const bytes = await assembleInit(100_000, 100_000);
    const expected = (new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as Record<string, () => number>).shuffle!();
    for (const [fn, code] of [['shuffle', undefined], ['past', 'TRAP'], ['dropped', 'TRAP']] as const) {
      const sandbox = await createSandbox(bytes, { limits: { timeoutMs: 5_000, maxTableElements: 200_000 } });
      try {
        const outcome = await sandbox.call(fn, new Uint8Array());
        if (code) expect(outcome.ok ? 'ok' : outcome.failure.code).toBe(code);
        else expect(outcome).toMatchObject({ ok: true, returnCode: expected });
      } finally {
        await sandbox.close();
      }
    }
  });

  it('a loop of inits of 1,000,000 elements is stopped by a 10 ms deadline within its slack', async () => {
    const sandbox = await createSandbox(await assembleInit(1_000_000, 1_000_000), { limits: { timeoutMs: 5_000, maxTableElements: 2_000_000 } });
    try {
      const rounds = await someRoundWithin(200, () => sandbox.call('spin', new Uint8Array(), { limits: { timeoutMs: 10, fuel: Infinity } }), (outcome) => {
        expect(outcome.ok ? 'ok' : outcome.failure.code).toBe('TIMEOUT');
      });
      // Old code: 300 ms and more a round (one init ran whole). Now about 100 ms: V8 builds a passive segment at its
      // first use (here, the first chunk; each round's instance is new after its stop), ~100 ns an element, one
      // engine step bounded by maxTableElements.
      expect(Math.min(...rounds.map((t) => t.wallMs)), showTimes(rounds)).toBeLessThanOrEqual(200);
    } finally {
      await sandbox.close();
    }
  }, 30_000);
});
