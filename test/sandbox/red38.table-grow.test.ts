// red38, class "one instruction out of the meter's reach": table.grow initialises every new element
// inside the one instruction (120-430 ns an element on Node 20, Deno and Bun), and was bounded only by
// maxTableElements, which a plugin's options may raise to 10,000,000. Under the default fuel (a grow is
// charged 64 an element) one grow of 5,000,000 held the thread 0.8-1.9 s past a 100 ms deadline, and
// answered. Now a grow of more than TABLE_GROW_MAX_ELEMENTS (100,000) fails at once (-1, as the spec
// lets any grow fail); a larger table is grown in steps, each charged and checked. Fails on the old code
// (the whole grow answered 0 after about a second). Cross-runtime twin: test/xrt/red38.xrt.ts.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { hostile } from './sandbox-helpers.js';
import { TABLE_GROW_MAX_ELEMENTS } from '../../host/sandbox/instrument/opcodes.js';

const fixture = (): Promise<Uint8Array> => hostile('red38-table-grow');

describe('red38: one table.grow adds at most TABLE_GROW_MAX_ELEMENTS elements', () => {
  it('a grow of 5,000,000 under a cap of 10,000,000 and the default fuel fails at once, without growing', async () => {
    const sandbox = await createSandbox(await fixture(), { limits: { timeoutMs: 100, maxTableElements: 10_000_000 } });
    try {
      const started = performance.now();
      const outcome = await sandbox.call('whole', new Uint8Array([0]));
      const ms = performance.now() - started;
      expect(outcome.ok && outcome.returnCode).toBe(-1);
      // Old code: 0 (it grew) after 800-1,900 ms. The answer tells them apart; the time, with room for a loaded machine.
      expect(ms).toBeLessThan(500);
      expect(TABLE_GROW_MAX_ELEMENTS).toBe(100_000);
      // A grow of the most one grow may add still grows (from 0: the old size).
      expect(await sandbox.call('whole', new Uint8Array([1]))).toMatchObject({ ok: true, returnCode: 0 });
    } finally {
      await sandbox.close();
    }
  });

  it('growing in steps of 100,000 toward 10,000,000 is stopped by the deadline, within its slack', async () => {
    const sandbox = await createSandbox(await fixture(), { limits: { timeoutMs: 50, fuel: Infinity, maxTableElements: 10_000_000 } });
    try {
      const started = performance.now();
      const outcome = await sandbox.call('steps', new Uint8Array());
      const ms = performance.now() - started;
      expect(outcome.ok ? 'ok' : outcome.failure.code).toBe('TIMEOUT');
      // The deadline's slack (max(2 x deadline, deadline + 50 ms)), plus one step, plus a loaded machine.
      expect(ms).toBeLessThan(400);
    } finally {
      await sandbox.close();
    }
  });
});
