// The default limits fit real inputs on Node, Deno and Bun, through the built
// ESM: guard-shell and path-guard decide a 100 KB input and secret-redactor
// redacts a 1 MB output with keys at its start, middle and end, with nothing
// raised (fuel, memory, deadline). Vitest twin: test/plugins-firstparty/default-budget.test.ts.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { DEFAULT_LIMITS, loadPlugin } from '../../dist/index.js';
import type { HookCommon, HookInput, HookResult, PluginOptions } from '../../dist/index.js';
import type * as BigInputs from '../fixtures/big-inputs.js';

// A TypeScript fixture shared with vitest: loaded by URL, which every runtime resolves as written.
const { callWithRetry, heredoc, logWithKeys } = (await import(new URL('../fixtures/big-inputs.ts', import.meta.url).href)) as typeof BigInputs;

const load = async (name: string, options?: PluginOptions) =>
  loadPlugin({ bytes: new Uint8Array(await readFile(new URL(`../../plugins/${name}/build/${name}.wasm`, import.meta.url))) }, options);
const common: HookCommon = { session_id: 'xrt', cwd: '/work/app', turn: 1, iteration: 1, permission_mode: 'default' };
const pre = (tool_name: string, tool_input: Record<string, unknown>): HookInput =>
  ({ ...common, hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id: 't1' });
const post = (tool_response: string): HookInput =>
  ({ ...common, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat big.log' }, tool_response, tool_use_id: 't1' });

function decision(r: HookResult): string {
  if (!r.ok) throw new Error(`${r.failure.code}: ${r.failure.message} (${r.fuelUsed} fuel)`);
  return r.output.decision ?? '(none)';
}

export const scenarios: Record<string, () => Promise<void>> = {
  'guard-shell decides a 100 KB heredoc under the default limits (and denies rm -rf / after one)': async () => {
    const guard = await load('guard-shell');
    try {
      const benign = await callWithRetry(guard, pre('Bash', { command: heredoc(100_000) }));
      assert.equal(decision(benign), 'allow');
      assert.ok(benign.fuelUsed! < DEFAULT_LIMITS.fuel / 4, `fuel ${benign.fuelUsed}`);
      assert.equal(decision(await callWithRetry(guard, pre('Bash', { command: `${heredoc(100_000)}\nrm -rf /` }))), 'deny');
    } finally {
      await guard.close();
    }
  },

  'path-guard decides a 100 KB Write under the default limits': async () => {
    const guard = await load('path-guard', { grants: { configKeys: ['workspace'] }, config: { workspace: '/work/app' } });
    try {
      const inside = await callWithRetry(guard, pre('Write', { file_path: '/work/app/src/big.ts', content: heredoc(100_000) }));
      assert.equal(decision(inside), 'continue');
      assert.ok(inside.fuelUsed! < DEFAULT_LIMITS.fuel / 4, `fuel ${inside.fuelUsed}`);
      assert.equal(decision(await callWithRetry(guard, pre('Write', { file_path: '/etc/big.ts', content: heredoc(100_000) }))), 'deny');
    } finally {
      await guard.close();
    }
  },

  'secret-redactor redacts a 1 MB output (keys at start, middle, end) under the default limits': async () => {
    const { output, expected, keys } = logWithKeys(1_000_000);
    const redactor = await load('secret-redactor');
    try {
      // As in a session, the plugin has run before: a fresh module's first calls run baseline code (V8's
      // Liftoff, JSC's interpreter), several times slower, and the deadline is wall time.
      for (let i = 0; i < 3; i++) decision(await callWithRetry(redactor, post(logWithKeys(100_000).output)));
      const result = await callWithRetry(redactor, post(output));
      assert.equal(decision(result), 'continue');
      assert.ok(result.ok && result.output.updatedOutput === expected, 'the rewritten output is the log with every key replaced');
      assert.ok(result.ok && result.output.systemMessage?.startsWith(`secret-redactor: redacted ${keys} secret(s) from Bash output: openai-key, `));
      assert.ok(result.fuelUsed! < DEFAULT_LIMITS.fuel / 2, `fuel ${result.fuelUsed}`);
    } finally {
      await redactor.close();
    }
  },
};
