// Red review (red40: typed function references) on Node, Deno and Bun, through dist/.
// A non-nullable table's ((ref $r)) table.fill stayed one instruction: its value could not wait in a
// scratch local of a type with no default. Under fuel Infinity and a raised maxTableElements, a loop of
// 4,000,000-element fills held a 30 ms deadline 251-1,027 ms on Deno in-thread (57-796 in a worker) and
// 70-317 ms on Bun in-thread (a Bun worker was terminated at its hard deadline, every round). Now it runs in chunks like any table.fill, its value in a (ref null $r)
// local taken back through ref.as_non_null. And the import reader (host/sandbox/imports.ts) read a typed
// table or global import, and a function type with a (ref null $t), a byte short: valid modules were
// INVALID_WASM ("unknown import kind 111") or had their host function's signature misread (checked
// against `() -> ()`). Node 20 lacks typed function references: there these modules are INVALID_WASM
// saying so, and the scenarios that need them say they are skipped.
// Vitest twins that fail on the old code: test/sandbox/red40.nnfill.test.ts, red40.typed-imports.test.ts.
import assert from 'node:assert/strict';
import { createSandbox, instrument } from '../../dist/index.js';
import { showTimes, slackKept, stopRounds } from '../fixtures/slack.ts';
import { nodeTwin } from './twin.ts';

const { nonNullFillModule, nonNullFillProblems } = (await import(new URL('../fixtures/red40-nnfill.ts', import.meta.url).href)) as typeof import('../fixtures/red40-nnfill.js');
const { typedImportProblems } = (await import(new URL('../fixtures/red40-typed-imports.ts', import.meta.url).href)) as typeof import('../fixtures/red40-typed-imports.js');
const { NO_TYPED_REFS, typedRefsSupported } = (await import(new URL('../fixtures/wasm-bytes.ts', import.meta.url).href)) as typeof import('../fixtures/wasm-bytes.js');

/** Runs `check` where the engine has typed function references; says it is skipped elsewhere (Node 20). */
const needsTypedRefs = (check: () => Promise<void>) => async () => {
  if (!typedRefsSupported()) return console.log(`    (${NO_TYPED_REFS})`);
  await check();
};

const SPIN = 4_000_000;

const fills = needsTypedRefs(async () => {
  assert.deepEqual(await nonNullFillProblems({ instrument }), []);
  const bytes = nonNullFillModule(100_000);
  const expected = (new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports.fills as () => number)();
  const sandbox = await createSandbox(bytes, { limits: { timeoutMs: 5_000, maxTableElements: 200_000 } });
  try {
    const outcome = await sandbox.call('fills', new Uint8Array());
    assert.equal(outcome.ok && outcome.returnCode, expected, JSON.stringify(outcome));
  } finally {
    await sandbox.close();
  }
});

const spin = (isolation: 'in-thread' | 'worker') =>
  needsTypedRefs(async () => {
    const sandbox = await createSandbox(nonNullFillModule(SPIN), { isolation, limits: { timeoutMs: 5_000, fuel: Infinity, maxTableElements: SPIN + 100_000 } });
    try {
      // The instance a stop throws away is rebuilt at the next call: in `size`, untimed (its 4M-element table).
      const size = async () => {
        const outcome = await sandbox.call('size', new Uint8Array());
        assert.equal(outcome.ok && outcome.returnCode, SPIN, JSON.stringify(outcome));
      };
      const rounds = await stopRounds(30, () => sandbox.call('spin', new Uint8Array(), { limits: { timeoutMs: 30 } }), (outcome) => {
        assert.equal(outcome.ok ? 'ok' : outcome.failure.code, 'TIMEOUT');
      }, 3, 12, isolation, size);
      console.log(`    (ref $r) table.fill spin (${isolation}): ${showTimes(rounds)}`);
      // Old code: 70-1,027 ms a round in-thread, 57-796 in a Deno worker (one fill ran whole); the slack is max(2 x 30, 30 + 50).
      assert.deepEqual(slackKept(30, rounds), { everyRound: true, bestRound: true }, showTimes(rounds));
    } finally {
      await sandbox.close();
    }
  });

// On Node, vitest runs it verbatim (host/ instead of dist/).
const imports = nodeTwin('test/sandbox/red40.typed-imports.test.ts', 'typedImportProblems', async () => {
  assert.deepEqual(await typedImportProblems({ createSandbox, instrument }, typedRefsSupported(), [nonNullFillModule(10)]), []);
});

export const scenarios: Record<string, () => Promise<void>> = {
  'a long table.fill of a (ref $r) or (ref func) table in chunks writes what the engine writes, traps where it traps, for the same fuel': fills,
  'a loop of table.fill of 4,000,000 elements of a (ref $r) table is stopped by a 30 ms deadline within its slack (in-thread)': spin('in-thread'),
  'a loop of table.fill of 4,000,000 elements of a (ref $r) table is stopped by a 30 ms deadline within its slack (worker)': spin('worker'),
  'typed table, global and function-type imports are read whole: the modules load and run, host functions checked against their real signature (Node 20: INVALID_WASM saying the engine lacks typed function references)': imports,
};
