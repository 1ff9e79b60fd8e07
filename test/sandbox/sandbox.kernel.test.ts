// The direct call's own memory accessors (host/sandbox/extism-kernel.ts) answer
// exactly what Extism's would, at every edge: the same bytes, or a failure where
// Extism throws. Oracle: Extism's own functions, through plugin.call on the very
// same plugin (our accessors are idle outside a direct call), and raw Extism.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import type { DirectCaller } from '../../host/sandbox/extism-call.js';
import { kernelPair, type KernelPair, type Plugin } from './kernel-pair.js';
import type { SandboxedModule } from '../../host/sandbox/types.js';
import { hostile, text } from './sandbox-helpers.js';
import { showTimes, slackKept, stopRounds } from '../fixtures/slack.js';

type Answer = { ok: true; bytes: string } | { ok: false; error: string };

const EXPORTS = [
  'input',
  'input_past_u64',
  'input_past_u8',
  'input_negative',
  'input_written',
  'input_freed_length',
  'input_freed_load',
  'block',
  'high_blocks',
  'freed_block',
  'missing_u64',
  'missing_high_u64',
  'missing_u8',
  'block_past_u64',
  'block_past_u8',
  'null_block',
];
const INPUT = text('0123456789abcdefghij');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

async function answer(run: () => Promise<Uint8Array | null> | Uint8Array): Promise<Answer> {
  try {
    return { ok: true, bytes: hex((await run()) ?? new Uint8Array(0)) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

let bytes: Uint8Array;
let raw: Plugin;
let probed: Plugin;
let direct: DirectCaller;
let pair: KernelPair;
beforeAll(async () => {
  bytes = await hostile('kernel-edges');
  pair = await kernelPair(bytes);
  ({ raw, probed, direct } = pair);
});
afterAll(() => pair.close());

describe('the direct call answers each accessor edge as Extism does', () => {
  it.each(EXPORTS)('%s', async (fn) => {
    const own = await answer(async () => (await raw.call(fn, INPUT.slice()))?.bytes() ?? null);
    // The same plugin through plugin.call: Extism's own accessors (ours stand aside outside a direct call).
    const viaCall = await answer(async () => (await probed.call(fn, INPUT.slice()))?.bytes() ?? null);
    const viaDirect = await answer(() => direct.call(fn, INPUT.slice()));
    expect(viaCall).toEqual(own);
    expect(viaDirect).toEqual(own);
    // Through the sandbox (instrumented, direct): the same bytes, or a failure where Extism threw.
    // A sandbox of its own per case: three failures in a row would quarantine a shared one.
    const sandbox: SandboxedModule = await createSandbox(bytes, { name: 'kernel-edges' });
    const outcome = await sandbox.call(fn, INPUT).finally(() => sandbox.close());
    if (own.ok) expect(outcome.ok && hex(outcome.output)).toBe(own.bytes);
    else expect(outcome.ok ? 'ok' : outcome.failure.message).toContain(own.error);
  });

  it('covers both answers: values read in range, and traps past the edges', async () => {
    const answers = await Promise.all(EXPORTS.map((fn) => answer(() => direct.call(fn, INPUT.slice()))));
    expect(answers.filter((a) => a.ok).length).toBeGreaterThanOrEqual(7);
    expect(answers.filter((a) => !a.ok).length).toBeGreaterThanOrEqual(7);
    const input = answers[0]!;
    // input_length 20, the first 8 bytes, the last byte 'j', and reads through block bits at offsets 1, 2 and 3.
    expect(input.ok && input.bytes.slice(0, 16)).toBe('1400000000000000');
    expect(input.ok && input.bytes.slice(16, 32)).toBe(hex(INPUT.subarray(0, 8)));
  });

  it('keeps answering across calls of other input lengths (the input block is looked up per call)', async () => {
    for (const s of ['a', 'abcdefgh', 'abcdefghijklmnopq', 'xyz']) {
      const own = await answer(async () => (await raw.call('input_written', text(s)))?.bytes() ?? null);
      expect(await answer(() => direct.call('input_written', text(s)))).toEqual(own);
    }
  });
});

describe('a plugin that reads a missing block in a loop', () => {
  it('is stopped at its deadline within the slack, every time', async () => {
    const sandbox = await createSandbox(await hostile('missing-block-spin'), {
      name: 'missing-block-spin',
      limits: { timeoutMs: 50, fuel: 1e15 },
      quarantine: { maxConsecutiveFailures: 100 },
    });
    try {
      const rounds = await stopRounds(50, () => sandbox.call('run', new Uint8Array(0)), (outcome) => expect(outcome.ok ? 'ok' : outcome.failure.code).toBe('TIMEOUT'), 5);
      // The documented slack on a loaded machine (fixtures/slack.ts): a slow round passes only if it
      // was short of CPU, not busy past its deadline, and the best round is on time by the wall clock.
      expect(slackKept(50, rounds), showTimes(rounds)).toEqual({ everyRound: true, bestRound: true });
    } finally {
      await sandbox.close();
    }
  });
});
