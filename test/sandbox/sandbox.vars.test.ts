// Extism variables under the sandbox's caps (test/fixtures/hostile/vars.wat):
// keys and values both count toward maxVarBytes, their number toward maxVars,
// deletion frees budget; in-thread and in a worker, with the host's memory
// checked after the big ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, hostMemoryBound } from '../../host/sandbox/index.js';
import { DEFAULT_LIMITS } from '../../host/sandbox/types.js';
import type { Limits, SandboxOptions, SandboxedModule } from '../../host/sandbox/types.js';
import { hostile, str, text, u64 } from './sandbox-helpers.js';

const ROOMY: Partial<Limits> = { timeoutMs: 5_000, fuel: 1e15 };
const MiB = 1 << 20;

let echo: SandboxedModule;
beforeAll(async () => {
  echo = await createSandbox(await hostile('echo'), { name: 'echo' });
});
afterAll(() => echo.close());

for (const isolation of ['in-thread', 'worker'] as const) {
  describe(`variables, ${isolation}`, () => {
    const load = async (limits: Partial<Limits> = {}, options: SandboxOptions = {}) =>
      createSandbox(await hostile('vars'), { name: 'vars', isolation, ...options, limits: { ...ROOMY, ...limits } });

    it.each([
      ['big_key', undefined, /key of 8388608 bytes.*maxVarBytes \(1048576; keys and values both count\)/],
      ['big_key', u64(MiB), /key of 1048577 bytes|1048577 bytes of variables/],
      ['big_value', undefined, /8388616 bytes \(key and value\).*maxVarBytes/],
      ['big_value', u64(MiB - 8 + 1), /1048577 bytes of variables.*maxVarBytes/],
      ['many', undefined, /more than 1024 variables \(maxVars\)/],
    ] as const)('%s (%s) fails with MEMORY_LIMIT naming the limit', async (fn, input, message) => {
      const sandbox = await load();
      const rss = process.memoryUsage().rss;
      const outcome = await sandbox.call(fn, input ?? new Uint8Array(0));
      expect(outcome.ok ? 'ok' : outcome.failure).toMatchObject({ code: 'MEMORY_LIMIT', message });
      // Host memory: within the documented bound of the sandbox's caps.
      expect(process.memoryUsage().rss - rss).toBeLessThan(hostMemoryBound({ ...DEFAULT_LIMITS, ...ROOMY }));
      await sandbox.close();
      const ok = await echo.call('run', text('still here'));
      expect(ok.ok && str(ok.output)).toBe('still here');
    });

    it('keys count: a key exactly at the cap with an empty value fits, one byte more does not', async () => {
      const sandbox = await load({ maxVarBytes: 4096, maxMemoryPages: 4 });
      // big_key stores a 1-byte value: 4095 + 1 fits, 4096 + 1 does not.
      expect((await sandbox.call('big_key', u64(4095))).ok).toBe(true);
      const over = await sandbox.call('big_key', u64(4096));
      expect(!over.ok && over.failure.code).toBe('MEMORY_LIMIT');
      await sandbox.close();
    });

    it('maxVars is exact and configurable', async () => {
      const sandbox = await load({ maxVars: 10 });
      expect((await sandbox.call('many', u64(10))).ok).toBe(true);
      const over = await sandbox.call('many', u64(11));
      expect(!over.ok && over.failure).toMatchObject({ code: 'MEMORY_LIMIT', message: /more than 10 variables \(maxVars\)/ });
      await sandbox.close();
    });

    it('overwriting one key does not grow the store, and deletion frees its budget', async () => {
      // 8-byte key + 64 KiB value, overwritten 2000 times, under a cap that holds one of them.
      const sandbox = await load({ maxVarBytes: 65_536 + 8 });
      // 2000 fresh 4 KiB variables, each deleted before the next: only one is ever held.
      const churn = await createSandbox(await hostile('vars'), { isolation, limits: { ...ROOMY, maxVarBytes: 4096 + 8, maxVars: 1 } });
      const rss = process.memoryUsage().rss;
      expect((await sandbox.call('overwrite', u64(2_000))).ok).toBe(true);
      expect((await churn.call('churn', u64(2_000))).ok).toBe(true);
      // 2000 × 64 KiB copied in: garbage the collector may not have taken yet, within the documented bound.
      expect(process.memoryUsage().rss - rss).toBeLessThan(hostMemoryBound({ ...DEFAULT_LIMITS, ...ROOMY, maxVarBytes: 65_536 + 8 }));
      await Promise.all([sandbox.close(), churn.close()]);
    });

    it('var_get hands out a fresh block under the memory cap: no aliasing, no pile-up', async () => {
      const sandbox = await load({ maxMemoryPages: 64 });
      const alias = await sandbox.call('get_alias', new Uint8Array(0));
      expect(alias.ok && str(alias.output)).toBe('ok');
      const rss = process.memoryUsage().rss;
      const flood = await sandbox.call('get_flood', new Uint8Array(0));
      expect(!flood.ok && flood.failure).toMatchObject({ code: 'MEMORY_LIMIT', message: /var_get needs a block of 65536 bytes.*64 pages/ });
      expect(process.memoryUsage().rss - rss).toBeLessThan(hostMemoryBound({ ...DEFAULT_LIMITS, ...ROOMY, maxMemoryPages: 64 }));
      await sandbox.close();
    });

    it('config_get copies out under the memory cap too', async () => {
      const sandbox = await load({ maxMemoryPages: 64 }, { config: { k: 'x'.repeat(65_536) } });
      const rss = process.memoryUsage().rss;
      const flood = await sandbox.call('config_flood', new Uint8Array(0));
      expect(!flood.ok && flood.failure).toMatchObject({ code: 'MEMORY_LIMIT', message: /config_get needs a block of 65536 bytes/ });
      expect(process.memoryUsage().rss - rss).toBeLessThan(hostMemoryBound({ ...DEFAULT_LIMITS, ...ROOMY, maxMemoryPages: 64 }));
      expect((await sandbox.call('config_flood', u64(3))).ok).toBe(true);
      await sandbox.close();
    });

    it('a variable round-trips, and survives across calls of one instance', async () => {
      const sandbox = await load();
      const outcome = await sandbox.call('roundtrip', text('abcdefgh12345678'));
      expect(outcome.ok && str(outcome.output)).toBe('abcdefgh12345678');
      await sandbox.close();
    });
  });
}
