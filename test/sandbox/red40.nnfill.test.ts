// red40, class "one instruction out of the meter's reach", continued from red38: a table.fill splits into
// chunks of 32,768 elements, its value in a scratch local of the table's type, but a non-nullable table's
// type ((ref $f), (ref func)) has no default, so no local of it could be declared and such a fill stayed
// whole, bounded by the fuel alone. Under fuel Infinity and a raised maxTableElements, a loop of
// 4,000,000-element fills of a `(ref $r)` table held a 30 ms deadline 251-1,027 ms on Deno in-thread
// (57-796 in a worker), 70-317 on Bun in-thread (a Bun worker was terminated at its hard deadline). Now its value waits in a local of the nullable twin
// ((ref null $r)) and each chunk's fill takes it through ref.as_non_null: what it writes, its traps and its
// fuel do not change (test/fixtures/red40-nnfill.ts). Fails on the old code: the stopped fill wrote the
// whole table, a function with no room for the scratch locals was accepted, and the spin ran past the
// slack. Needs typed function references: skipped on Node 20 (V8 11.3), run by the cross-runtime twin on
// Deno and Bun (test/xrt/red40-nnfill.xrt.ts); on Node 20 the module's refusal is checked by
// test/sandbox/red40.typed-imports.test.ts.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { showTimes, slackKept, stopRounds } from '../fixtures/slack.js';
import { nonNullFillModule, nonNullFillProblems } from '../fixtures/red40-nnfill.js';
import { NO_TYPED_REFS, typedRefsSupported } from '../fixtures/wasm-bytes.js';

/** The spin's fills, as red38's (a 4M-element fill held a 30 ms deadline 80-400 ms on Node 20 when whole). */
const SPIN = 4_000_000;

describe('red40: a non-nullable table\'s long table.fill runs in chunks', () => {
  it('writes what the engine writes ((ref $r), (ref func) and (ref null $r); long, short, out of bounds, a null value), for the same fuel, the host in control between chunks', async (ctx) => {
    if (!typedRefsSupported()) return ctx.skip(NO_TYPED_REFS);
    expect(await nonNullFillProblems({ instrument })).toEqual([]);
  }, 120_000);

  it('a sandboxed fill leaves the table as the engine does', async (ctx) => {
    if (!typedRefsSupported()) return ctx.skip(NO_TYPED_REFS);
    const bytes = nonNullFillModule(100_000);
    const expected = (new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports.fills as () => number)();
    const sandbox = await createSandbox(bytes, { limits: { timeoutMs: 5_000, maxTableElements: 200_000 } });
    try {
      expect(await sandbox.call('fills', new Uint8Array())).toMatchObject({ ok: true, returnCode: expected });
    } finally {
      await sandbox.close();
    }
  });

  it(`a loop of fills of ${SPIN.toLocaleString('en')} elements of a (ref $r) table is stopped by a 30 ms deadline within its slack`, async (ctx) => {
    if (!typedRefsSupported()) return ctx.skip(NO_TYPED_REFS);
    const sandbox = await createSandbox(nonNullFillModule(SPIN), { limits: { timeoutMs: 5_000, fuel: Infinity, maxTableElements: SPIN + 100_000 } });
    try {
      // The instance a stop throws away is rebuilt at the next call: in `size`, untimed (its 4M-element table).
      const size = async () => expect(await sandbox.call('size', new Uint8Array())).toMatchObject({ ok: true, returnCode: SPIN });
      const rounds = await stopRounds(30, () => sandbox.call('spin', new Uint8Array(), { limits: { timeoutMs: 30, fuel: Infinity } }), (outcome) => {
        expect(outcome.ok ? 'ok' : outcome.failure.code).toBe('TIMEOUT');
      }, 3, 12, 'in-thread', size);
      expect(slackKept(30, rounds), showTimes(rounds)).toEqual({ everyRound: true, bestRound: true });
    } finally {
      await sandbox.close();
    }
  });
});
