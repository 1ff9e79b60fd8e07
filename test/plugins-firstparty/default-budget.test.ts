// The default limits fit real inputs: the first-party guards decide a 100 KB
// tool input and secret-redactor redacts a 1 MB output with nothing raised
// (fuel, memory, deadline: DEFAULT_LIMITS as they are). The same checks run on
// Deno and Bun in test/xrt/budget.xrt.ts; the per-byte costs are in
// sdk-guest/README.md and the bench group `guests`.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, loadPlugin } from '../../host/index.js';
import { callWithRetry, heredoc, logWithKeys } from '../fixtures/big-inputs.js';
import { builtPlugin, postToolUse, preToolUse } from './wasm.js';

describe('the default limits', { timeout: 60_000 }, () => {
  it('guard-shell decides a 100 KB command, and still denies a destructive one at its end', async () => {
    const guard = await loadPlugin({ path: builtPlugin('guard-shell') });
    try {
      const benign = await callWithRetry(guard, preToolUse('Bash', { command: heredoc(100_000) }));
      expect(benign).toMatchObject({ ok: true, output: { decision: 'allow' } });
      expect(benign.fuelUsed).toBeLessThan(DEFAULT_LIMITS.fuel / 4);
      const hostile = await callWithRetry(guard, preToolUse('Bash', { command: `${heredoc(100_000)}\nrm -rf /` }));
      expect(hostile).toMatchObject({ ok: true, output: { decision: 'deny' } });
    } finally {
      await guard.close();
    }
  });

  it('path-guard decides a 100 KB Write inside and outside the workspace', async () => {
    const guard = await loadPlugin(
      { path: builtPlugin('path-guard') },
      { grants: { configKeys: ['workspace'] }, config: { workspace: '/work/app' } },
    );
    try {
      const inside = await callWithRetry(guard, preToolUse('Write', { file_path: '/work/app/src/big.ts', content: heredoc(100_000) }));
      expect(inside).toMatchObject({ ok: true, output: { decision: 'continue' } });
      expect(inside.fuelUsed).toBeLessThan(DEFAULT_LIMITS.fuel / 4);
      const outside = await callWithRetry(guard, preToolUse('Write', { file_path: '/etc/big.ts', content: heredoc(100_000) }));
      expect(outside).toMatchObject({ ok: true, output: { decision: 'deny' } });
    } finally {
      await guard.close();
    }
  });

  it('secret-redactor redacts a 1 MB output with keys at its start, middle and end', async () => {
    const { output, expected, keys } = logWithKeys(1_000_000);
    const redactor = await loadPlugin({ path: builtPlugin('secret-redactor') });
    try {
      // As in a session, the plugin has run before: a fresh module's first calls run baseline code (V8's
      // Liftoff, JSC's interpreter), several times slower, and the deadline is wall time.
      const warm = postToolUse('Bash', { command: 'cat small.log' }, logWithKeys(100_000).output);
      for (let i = 0; i < 3; i++) expect(await callWithRetry(redactor, warm)).toMatchObject({ ok: true });
      const result = await callWithRetry(redactor, postToolUse('Bash', { command: 'cat big.log' }, output));
      if (!result.ok) throw new Error(`${result.failure.code}: ${result.failure.message} (${result.fuelUsed} fuel)`);
      expect(result.output.updatedOutput === expected).toBe(true);
      expect(result.output.systemMessage).toMatch(new RegExp(`^secret-redactor: redacted ${keys} secret\\(s\\) from Bash output: openai-key, `));
      expect(result.fuelUsed).toBeLessThan(DEFAULT_LIMITS.fuel / 2);
    } finally {
      await redactor.close();
    }
  });
});
