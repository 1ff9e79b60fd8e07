// red38, class "one instruction out of the meter's reach", continued: table.fill is one instruction that
// engines run at 20-100 ns an element (Node 20: a 10M-element fill, 1.04 s), charged before it runs and
// never inside. Under a raised maxTableElements and fuel, a loop of 4,000,000-element fills held a 30 ms
// deadline 80-400 ms on Node 20 and 400-800 ms on Deno (Bun fills faster: 33-89 ms). A fill longer than
// 32,768 elements now runs in chunks that long, each charged (and so checked), like memory.fill
// (chunks.ts), its value kept in a scratch local of the table's type; what it writes, its traps and its
// fuel do not change (test/fixtures/red38-table-fill.ts). Fails on the old code: the fill ran whole (a
// refuel that stops the call finds the whole table written, and the spin ran past the slack), and a
// function with no room for the scratch locals was accepted. Cross-runtime twin: test/xrt/red38.xrt.ts.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { showTimes, slackKept, stopRounds } from '../fixtures/slack.js';
import { tableFillProblems } from '../fixtures/red38-table-fill.js';
import { assemble } from './instrument-helpers.js';

/** The fixture; `spinSize`: $t starts with that many elements (every round of `spin` fills them: the instance is rebuilt after each stop). */
async function fixture(spinSize = 0): Promise<Uint8Array> {
  const source = await readFile(new URL('../fixtures/hostile/red38-table-fill.wat', import.meta.url), 'utf8');
  return assemble(source.replace('(table $t 0 funcref)', `(table $t ${spinSize} funcref)`), 'red38-table-fill.wat');
}

/**
 * The spin's fills. On Node 20 one fill of 1M elements took 39 ms unsandboxed (3M: 60 ms), whole within the
 * 80 ms slack of a 30 ms deadline: 4M, under the old code 80-400 ms a round in the sandbox.
 */
const SPIN = 4_000_000;

describe('red38: a long table.fill runs in chunks', () => {
  it('writes what the engine writes (funcref and externref, long, short, out of bounds), for the same fuel, the host in control between chunks', async () => {
    expect(await tableFillProblems({ instrument, assemble })).toEqual([]);
  }, 120_000);

  it('a sandboxed fill leaves the table as the engine does', async () => {
    const bytes = await fixture();
    const raw = new WebAssembly.Instance(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>), { 'extism:host/env': { input_load_u8: () => 1 } }).exports as Record<string, () => number>;
    raw.prep!();
    const expected = raw.fills!();
    const sandbox = await createSandbox(bytes, { limits: { timeoutMs: 5_000, maxTableElements: 200_000 } });
    try {
      expect(await sandbox.call('prep', new Uint8Array([1]))).toMatchObject({ ok: true, returnCode: 100_000 });
      expect(await sandbox.call('fills', new Uint8Array())).toMatchObject({ ok: true, returnCode: expected });
    } finally {
      await sandbox.close();
    }
  });

  it(`a loop of fills of ${SPIN.toLocaleString('en')} elements is stopped by a 30 ms deadline within its slack`, async () => {
    const sandbox = await createSandbox(await fixture(SPIN), { limits: { timeoutMs: 5_000, fuel: Infinity, maxTableElements: SPIN + 100_000 } });
    try {
      // The instance a stop throws away is rebuilt at the next call: in `size`, untimed (its 4M-element table).
      const size = async () => expect(await sandbox.call('size', new Uint8Array())).toMatchObject({ ok: true, returnCode: SPIN });
      const rounds = await stopRounds(30, () => sandbox.call('spin', new Uint8Array(), { limits: { timeoutMs: 30, fuel: Infinity } }), (outcome) => {
        expect(outcome.ok ? 'ok' : outcome.failure.code).toBe('TIMEOUT');
      }, 3, 12, 'in-thread', size);
      // Old code: 80-400 ms a round (one fill ran whole); now the deadline plus a chunk (~1 ms): 30-43 ms.
      expect(slackKept(30, rounds), showTimes(rounds)).toEqual({ everyRound: true, bestRound: true });
    } finally {
      await sandbox.close();
    }
  });
});
