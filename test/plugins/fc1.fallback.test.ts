// fc1: the engine falls back to Extism's own Plugin.call when it cannot drive the call context
// directly (an Extism build without the context methods extism-call.ts finds). Plugin.call drops the
// export's return code (and the output of a call that ended in exit(0)): on that path a guard that
// returned 1 was read as its output, "no objection". The outcome now says the code is not known, and
// the plugin layer does not take such a call as a success: a guard fails closed there.
import { describe, expect, it, vi } from 'vitest';
import { loadPlugin } from '../../host/plugins/load.js';
import { HookCall } from '../../host/plugins/hook-call.js';
import { cannedPlugin } from '../fixtures/canned.js';
import { ALLOW, guardInfo } from '../fixtures/guard-wire.js';

// The direct caller is off for this file: every call goes through Plugin.call (in-thread only: a
// worker loads its own copy of the module).
vi.mock('../../host/sandbox/extism-call.js', async (original) => ({ ...(await original<object>()), directCaller: () => null }));

const INFO = guardInfo('legacy', 6);

describe('through Plugin.call (no direct caller), a return code that cannot be read is not a success', () => {
  it('a protocol plugin does not load there (describe\'s code cannot be read): loudly, not silently open', async () => {
    const error = await loadPlugin({ bytes: cannedPlugin({ describe: INFO, hook: ALLOW }) }, { limits: { timeoutMs: 10_000 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'LOAD_FAILED', message: expect.stringMatching(/the return code of export "describe" could not be read/) });
  });

  it('a hook answer without a return code is PLUGIN_ERROR, not the allow it carries', () => {
    const call = new HookCall('PreToolUse', undefined, undefined, { name: 'legacy', log: () => undefined }, undefined);
    expect(call.check(ALLOW, undefined)).toMatchObject({ code: 'PLUGIN_ERROR', message: expect.stringMatching(/^plugin legacy: the return code of export "hook" could not be read/) });
    expect(call.check(ALLOW, 0)).toBeNull();
  });

  it('the sandbox outcome on that path has no returnCode', async () => {
    const { createSandbox } = await import('../../host/sandbox/index.js');
    const sandbox = await createSandbox(cannedPlugin({ hook: ALLOW }, { hook: 1 }), { limits: { timeoutMs: 10_000 } });
    try {
      const out = await sandbox.call('hook', new Uint8Array());
      expect(out.ok).toBe(true);
      expect(out.ok && out.returnCode).toBeUndefined();
    } finally {
      await sandbox.close();
    }
  });
});
