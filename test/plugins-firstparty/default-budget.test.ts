// The default fuel budget fits real inputs: the first-party guards decide a
// 100 KB tool input and secret-redactor redacts a 1 MB output without running
// out of fuel. (The deadline is raised: these check the budget, and this
// machine is shared; secret-redactor also needs more than the default 16 MiB
// of memory for 1 MB, see docs/sandbox-instrumentation.md.)
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, loadPlugin } from '../../host/index.js';
import { builtPlugin, postToolUse, preToolUse } from './wasm.js';

const heredoc = (bytes: number) => {
  const line = 'export const answer = compute(42); // a line of a generated file\n';
  return `cat > src/generated.ts <<'EOF'\n${line.repeat(Math.ceil(bytes / line.length))}EOF`;
};
const slow = { timeoutMs: 30_000 };

describe('the default fuel budget', { timeout: 60_000 }, () => {
  it('guard-shell decides a 100 KB command', async () => {
    const guard = await loadPlugin({ path: builtPlugin('guard-shell') }, { limits: slow });
    const result = await guard.callHook(preToolUse('Bash', { command: heredoc(100_000) }));
    await guard.close();
    expect(result.ok).toBe(true);
    expect(result.fuelUsed).toBeLessThan(DEFAULT_LIMITS.fuel / 4);
  });

  it('path-guard decides a 100 KB Write', async () => {
    const guard = await loadPlugin(
      { path: builtPlugin('path-guard') },
      { limits: slow, grants: { configKeys: ['workspace'] }, config: { workspace: '/work/app' } },
    );
    const result = await guard.callHook(preToolUse('Write', { file_path: '/work/app/src/big.ts', content: heredoc(100_000) }));
    await guard.close();
    expect(result.ok).toBe(true);
    expect(result.fuelUsed).toBeLessThan(DEFAULT_LIMITS.fuel / 4);
  });

  it('secret-redactor redacts a 1 MB output', async () => {
    const secret = 'sk-proj-' + 'Ab3dEf6hIj'.repeat(4);
    let output = '';
    for (let i = 0; output.length < 1_000_000; i++) output += `line ${i}: KEY=${i % 50 === 0 ? secret : 'nothing-secret-here'} more words\n`;
    output = output.slice(0, 1_000_000);
    const redactor = await loadPlugin({ path: builtPlugin('secret-redactor') }, { limits: { ...slow, maxMemoryPages: 512 } });
    const result = await redactor.callHook(postToolUse('Bash', { command: 'cat big.log' }, output));
    await redactor.close();
    expect(result.ok && result.output.updatedOutput).toContain('[REDACTED:openai-key]');
    expect(result.ok && result.output.updatedOutput).not.toContain(secret);
    expect(result.fuelUsed).toBeLessThan(DEFAULT_LIMITS.fuel);
  });
});
