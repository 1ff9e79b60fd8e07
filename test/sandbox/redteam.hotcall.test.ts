// Red team of the in-thread fast path (direct Extism call context, carried
// fuel, self-checked alloc, reused input buffers): a hostile plugin must not
// see or change another call's bytes, gain fuel, or outrun its deadline. The
// same on Deno and Bun: test/xrt/redteam.xrt.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { DEFAULT_GRACE_MS, setWorkerGraceMs } from '../../host/sandbox/worker/host.js';
import type { SandboxedModule } from '../../host/sandbox/types.js';
import { hostile, str, text, u64 } from './sandbox-helpers.js';

const DEADLINE = 50;
/** The documented slack: a call with a deadline ends by max(2 × deadline, deadline + 50 ms). */
const ENDS_BY = Math.max(2 * DEADLINE, DEADLINE + 50);
const MIB = 1 << 20;
const codeOf = (o: { ok: boolean; failure?: { code: string } }) => (o.ok ? 'ok' : o.failure!.code);

let mirror: SandboxedModule;
beforeAll(async () => {
  mirror = await createSandbox(await hostile('output-is-input'), { name: 'mirror' });
});
afterAll(async () => {
  await mirror.close();
});

describe('an output that is the input block', () => {
  it('keeps its bytes when a later call of the same length runs', async () => {
    const first = await mirror.call('run', text('first'));
    const second = await mirror.call('run', text('other'));
    expect(first.ok && second.ok).toBe(true);
    expect(first.ok && str(first.output)).toBe('first');
    expect(second.ok && str(second.output)).toBe('other');
  });

  it('keeps its bytes for concurrent callers (a queued call of the same length)', async () => {
    const [a, b] = await Promise.all([mirror.call('run', text('aaaa')), mirror.call('run', text('bbbb'))]);
    expect(a.ok && str(a.output)).toBe('aaaa');
    expect(b.ok && str(b.output)).toBe('bbbb');
  });
});

describe('alloc, self-checked (the clock on every 8th call)', () => {
  it('charges a block by its size even when the plugin imports alloc with a float size (else refused at load)', async () => {
    let sandbox: SandboxedModule;
    try {
      sandbox = await createSandbox(await hostile('alloc-f64'), { name: 'alloc-f64', limits: { maxMemoryPages: 1024 } });
    } catch (error) {
      expect((error as { code?: string }).code).toBe('INVALID_WASM');
      return;
    }
    try {
      const none = await sandbox.call('once', u64(0));
      const big = await sandbox.call('once', u64(60 * MIB));
      expect(none.ok && big.ok).toBe(true);
      // 1 fuel per 16 bytes, as for an i64 size.
      expect(big.fuelUsed - none.fuelUsed).toBeGreaterThanOrEqual((60 * MIB) / 16);
    } finally {
      await sandbox.close();
    }
  });

  it('a loop of large allocs and frees, after training the largest slice, stops at its deadline within the slack', async () => {
    const spin = await createSandbox(await hostile('alloc-free-spin'), {
      name: 'alloc-free-spin',
      quarantine: { maxConsecutiveFailures: 1000 },
      limits: { maxMemoryPages: 1024, timeoutMs: DEADLINE, fuel: 1e15 },
    });
    try {
      const times: number[] = [];
      for (const size of [0, MIB, 32 * MIB, 60 * MIB]) {
        expect(codeOf(await spin.call('train', new Uint8Array(0), { limits: { timeoutMs: 10_000 } }))).toBe('ok');
        const started = performance.now();
        const outcome = await spin.call('run', u64(size));
        times.push(performance.now() - started);
        expect(codeOf(outcome)).toBe('TIMEOUT');
      }
      times.sort((a, b) => a - b);
      expect(times[1]).toBeLessThan(ENDS_BY);
      // Under a small budget: the sizes are charged, so the fuel runs out and is not overdrawn.
      const poor = await spin.call('run', u64(MIB), { limits: { timeoutMs: 10_000, fuel: 1_000_000 } });
      expect(codeOf(poor)).toBe('FUEL_EXHAUSTED');
      expect(poor.fuelUsed).toBeLessThanOrEqual(1_000_000);
    } finally {
      await spin.close();
    }
  });
});

// The abort came from the plugin's log callback, mid-call, in-thread. Since red40 log lines are
// delivered after the call, and in-thread only a host function the plugin calls can abort mid-call
// (its own check on return sees it at once). An abort that lands while the plugin makes only ungated
// calls is a worker's: the host sets the shared flag while the plugin runs, and the same engine code
// must see it (the 2 s grace keeps the host from ending the worker for it).
describe('an abort delivered mid-call (a worker\'s flag), then only ungated host calls', () => {
  for (const [what, input] of [['alloc(0) and output_set', 0], ['output_set alone', 1]] as const) {
    it(`ends the call as ABORTED promptly, by the plugin's own checks (${what})`, async () => {
      const during = new AbortController();
      const sandbox = await createSandbox(await hostile('log-then-ungated'), {
        name: 'log-then-ungated',
        isolation: 'worker',
        limits: { timeoutMs: 5_000, fuel: 1e15 },
      });
      setWorkerGraceMs(2_000);
      try {
        const started = performance.now();
        setTimeout(() => during.abort(), 30);
        const outcome = await sandbox.call('run', new Uint8Array([input]), { signal: during.signal });
        expect(!outcome.ok && outcome.failure).toEqual({ code: 'ABORTED', message: 'the call was aborted' });
        expect(performance.now() - started).toBeLessThan(1_000);
      } finally {
        setWorkerGraceMs(DEFAULT_GRACE_MS);
        await sandbox.close();
      }
    });
  }
});

describe('bytes an embedder host function stores for a plugin', () => {
  it('are the plugin\'s own copy: a plugin cannot rewrite them for the application or another plugin', async () => {
    // The application's own bytes, handed out on every call (a whole ArrayBuffer, as TextEncoder gives).
    const table = text('secret-v1');
    const hostFunctions = { lookup: { params: [], results: ['i64' as const], fn: (ctx: { store(v: Uint8Array): bigint }) => ctx.store(table) } };
    const a = await createSandbox(await hostile('host-store-poke'), { name: 'a', hostFunctions });
    const b = await createSandbox(await hostile('host-store-poke'), { name: 'b', hostFunctions });
    try {
      expect(codeOf(await a.call('poke', new Uint8Array(0)))).toBe('ok');
      expect(str(table)).toBe('secret-v1');
      const seen = await b.call('peek', new Uint8Array(0));
      expect(seen.ok && str(seen.output)).toBe('secret-v1');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
