// Recovery, quarantine, abort, per-call limits and the call queue, on the
// caller's thread, with echo.wat (which fails on demand: trap, spin, recurse).
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { createSandbox } from '../../host/sandbox/index.js';
import type { HealthEvent, SandboxOptions } from '../../host/sandbox/types.js';
import { hostile, str, text } from './sandbox-helpers.js';

const load = async (options: SandboxOptions = {}) =>
  createSandbox(await hostile('echo'), { name: 'echo', ...options, limits: { timeoutMs: 2_000, fuel: 1e15, ...options.limits } });
/** The deadline of calls meant to time out. */
const SHORT = { limits: { timeoutMs: 50 } };

/** How many calls the current instance has served (echo.wat counts them). */
const served = async (sandbox: Awaited<ReturnType<typeof load>>) => {
  const outcome = await sandbox.call('calls', new Uint8Array(0));
  return outcome.ok ? Number(str(outcome.output)) : NaN;
};

describe('recovery', () => {
  it('keeps the instance across good calls and rebuilds it after each kind of corrupting failure', async () => {
    const sandbox = await load();
    await sandbox.call('run', text('a'));
    await sandbox.call('run', text('b'));
    expect(await served(sandbox)).toBe(2);
    for (const [fn, code] of [
      ['trap', 'TRAP'],
      ['spin', 'TIMEOUT'],
      ['recurse', 'STACK_OVERFLOW'],
    ] as const) {
      const failed = await sandbox.call(fn, new Uint8Array(0), SHORT);
      expect(!failed.ok && failed.failure.code).toBe(code);
      const ok = await sandbox.call('run', text('back'));
      expect(ok.ok && str(ok.output)).toBe('back');
      expect(await served(sandbox)).toBe(1); // a fresh instance served it
    }
  });

  it('keeps the instance after failures that leave it intact', async () => {
    const sandbox = await load({ limits: { maxOutputBytes: 4 } });
    await sandbox.call('run', text('ok'));
    const big = await sandbox.call('run', text('too long'));
    expect(!big.ok && big.failure.code).toBe('OUTPUT_TOO_LARGE');
    const missing = await sandbox.call('nope', new Uint8Array(0));
    expect(!missing.ok && missing.failure).toMatchObject({ code: 'MISSING_EXPORT', message: /exports no function "nope".*run/ });
    expect(await served(sandbox)).toBe(2);
  });
});

describe('health and quarantine', () => {
  it('degrades, quarantines after 3 failures, fails fast, then lets one probe through after the backoff', async () => {
    const events: HealthEvent[] = [];
    const sandbox = await load({ quarantine: { backoffMs: 100 }, onHealth: (e) => events.push(e) });
    expect(sandbox.health).toBe('healthy');
    await sandbox.call('trap', new Uint8Array(0));
    expect(sandbox.health).toBe('degraded');
    await sandbox.call('trap', new Uint8Array(0));
    await sandbox.call('trap', new Uint8Array(0));
    expect(sandbox.health).toBe('quarantined');
    const fast = await sandbox.call('run', text('x'));
    expect(!fast.ok && fast.failure).toMatchObject({ code: 'QUARANTINED', message: /3 calls in a row/ });
    expect(fast.durationMs).toBe(0);

    await new Promise((r) => setTimeout(r, 110));
    const probe = await sandbox.call('trap', new Uint8Array(0)); // the probe fails: backoff doubles
    expect(!probe.ok && probe.failure.code).toBe('TRAP');
    const last = events.at(-1)!;
    expect(last).toMatchObject({ from: 'quarantined', to: 'quarantined', failure: { code: 'TRAP' } });
    expect(last.retryAt! - Date.now()).toBeGreaterThan(100); // doubled from 100

    await new Promise((r) => setTimeout(r, 210));
    const recovered = await sandbox.call('run', text('well'));
    expect(recovered.ok && str(recovered.output)).toBe('well');
    expect(sandbox.health).toBe('healthy');
    expect(events.map((e) => `${e.from}>${e.to}`)).toEqual([
      'healthy>degraded',
      'degraded>quarantined',
      'quarantined>quarantined',
      'quarantined>healthy',
    ]);
  });

  it('does not count the caller’s doing or the plugin’s own errors against it', async () => {
    const sandbox = await load({ limits: { maxInputBytes: 1 } });
    const aborted = new AbortController();
    aborted.abort();
    for (let i = 0; i < 4; i++) {
      await sandbox.call('run', text('too big'));
      await sandbox.call('nope', new Uint8Array(0));
      await sandbox.call('run', new Uint8Array(0), { signal: aborted.signal });
    }
    expect(sandbox.health).toBe('healthy');
    const listener = sandbox.onHealth(() => {
      throw new Error('listeners must not throw, and one that does changes nothing');
    });
    await sandbox.call('trap', new Uint8Array(0));
    expect(sandbox.health).toBe('degraded');
    listener();
  });
});

describe('abort', () => {
  it('never enters the plugin when the signal is already aborted', async () => {
    const sandbox = await load();
    const controller = new AbortController();
    controller.abort();
    const outcome = await sandbox.call('run', text('x'), { signal: controller.signal });
    expect(outcome).toMatchObject({ ok: false, failure: { code: 'ABORTED' }, fuelUsed: 0, durationMs: 0 });
    expect(await served(sandbox)).toBe(0);
  });

  it('stops a running call when aborted mid-call', async () => {
    const controller = new AbortController();
    // On this thread only a host function the plugin calls can run the abort (a log callback ran
    // mid-call before red40; lines are now delivered after the call).
    const sandbox = await createSandbox(await hostile('poke-then-spin'), {
      limits: { timeoutMs: 5_000, fuel: 1e15 },
      allowExceptions: true,
      hostFunctions: { poke: { params: [], results: [], fn: () => controller.abort() } },
    });
    const started = performance.now();
    const outcome = await sandbox.call('run', new Uint8Array(0), { signal: controller.signal });
    expect(!outcome.ok && outcome.failure.code).toBe('ABORTED');
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('drops calls queued behind an aborted one without entering the plugin', async () => {
    const sandbox = await load();
    const controller = new AbortController();
    const first = sandbox.call('spin', new Uint8Array(0), SHORT);
    const second = sandbox.call('run', text('x'), { signal: controller.signal });
    controller.abort();
    expect((await first).ok).toBe(false);
    expect(await second).toMatchObject({ ok: false, failure: { code: 'ABORTED' } });
  });
});

describe('limits', () => {
  it('applies per-call overrides of the deadline and the fuel', async () => {
    const sandbox = await load({ limits: { timeoutMs: 5_000 } });
    const short = await sandbox.call('spin', new Uint8Array(0), { limits: { timeoutMs: 20 } });
    expect(!short.ok && short.failure.code).toBe('TIMEOUT');
    expect(short.durationMs).toBeLessThan(500);
    const frugal = await sandbox.call('spin', new Uint8Array(0), { limits: { fuel: 1_000_000 } });
    expect(!frugal.ok && frugal.failure.code).toBe('FUEL_EXHAUSTED');
    // Fuel is exact at exhaustion, give or take the cost of one check.
    expect(Math.abs(frugal.fuelUsed - 1_000_000)).toBeLessThan(100);
  });

  it('reports the fuel a call burnt', async () => {
    const sandbox = await load();
    const small = await sandbox.call('run', text('a'));
    const large = await sandbox.call('run', text('a'.repeat(1000)));
    expect(small.fuelUsed).toBeGreaterThan(0);
    expect(large.fuelUsed).toBeGreaterThan(small.fuelUsed * 10);
  });

  it('serialises concurrent calls and answers each in order', async () => {
    const sandbox = await load();
    const outcomes = await Promise.all(['1', '2', '3', '4'].map((s) => sandbox.call('run', text(s))));
    expect(outcomes.map((o) => (o.ok ? str(o.output) : o.failure.code))).toEqual(['1', '2', '3', '4']);
    expect(await served(sandbox)).toBe(4);
  });

  it('rejects impossible options with a message naming the option', async () => {
    const bytes = await hostile('echo');
    const bad = [
      { limits: { timeoutMs: -1 } },
      { limits: { maxMemoryPages: 1.5 } },
      { isolation: 'process' },
      { allowedHosts: ['example.com'] },
    ] as SandboxOptions[];
    for (const options of bad) {
      const error = await createSandbox(bytes, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WasmhooksError);
      expect((error as WasmhooksError).code).toBe('INVALID_OPTIONS');
    }
    const notWasm = await createSandbox(text('not wasm')).catch((e: unknown) => e);
    expect((notWasm as WasmhooksError).code).toBe('INVALID_WASM');
  });

  it('answers calls after close with a failure, not a throw', async () => {
    const sandbox = await load();
    await sandbox.close();
    const outcome = await sandbox.call('run', text('x'));
    expect(!outcome.ok && outcome.failure.code).toBe('ABORTED');
  });
});
