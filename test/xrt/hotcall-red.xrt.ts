// Red team of the in-thread fast path on Node, Deno and Bun, against the ESM
// build (test/sandbox/redteam.hotcall.test.ts under vitest): a hostile plugin
// must not see or change another call's bytes, gain fuel across calls, or
// outrun its deadline through the self-checked alloc.
import assert from 'node:assert/strict';
import { createSandbox } from '../../dist/index.js';
import { hostile, runtime, str, text } from './wat.js';

const MIB = 1 << 20;
const DEADLINE = 50;
const ENDS_BY = Math.max(2 * DEADLINE, DEADLINE + 50);
const codeOf = (o: { ok: boolean; failure?: { code: string } }) => (o.ok ? 'ok' : o.failure!.code);
function u64(n: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(n), true);
  return bytes;
}

export const scenarios: Record<string, () => Promise<void>> = {
  'in-thread: an output that is the input block keeps its bytes when later calls of its length run': async () => {
    const mirror = await createSandbox(await hostile('output-is-input'), { name: 'mirror' });
    try {
      const first = await mirror.call('run', text('first'));
      const second = await mirror.call('run', text('other'));
      assert.equal(first.ok && str(first.output), 'first');
      assert.equal(second.ok && str(second.output), 'other');
      const [a, b] = await Promise.all([mirror.call('run', text('aaaa')), mirror.call('run', text('bbbb'))]);
      assert.equal(a.ok && str(a.output), 'aaaa');
      assert.equal(b.ok && str(b.output), 'bbbb');
    } finally {
      await mirror.close();
    }
  },

  'in-thread: an alloc imported with a float size is refused at load (its size could not be charged)': async () => {
    let loaded = true;
    try {
      const sandbox = await createSandbox(await hostile('alloc-f64'), { limits: { maxMemoryPages: 1024 } });
      const none = await sandbox.call('once', u64(0));
      const big = await sandbox.call('once', u64(60 * MIB));
      await sandbox.close();
      assert.ok(big.fuelUsed - none.fuelUsed >= (60 * MIB) / 16, `a 60 MiB alloc cost ${big.fuelUsed - none.fuelUsed} fuel more than alloc(0)`);
    } catch (error) {
      loaded = false;
      assert.equal((error as { code?: string }).code, 'INVALID_WASM', String(error));
    }
    assert.equal(loaded, false, 'loaded');
  },

  'in-thread: a loop of large allocs and frees after the largest slice stops at its deadline, and by fuel within the budget': async () => {
    const spin = await createSandbox(await hostile('alloc-free-spin'), {
      quarantine: { maxConsecutiveFailures: 1000 },
      limits: { maxMemoryPages: 1024, timeoutMs: DEADLINE, fuel: 1e15 },
    });
    try {
      const times: number[] = [];
      for (const size of [0, MIB, 32 * MIB, 60 * MIB]) {
        assert.equal(codeOf(await spin.call('train', new Uint8Array(0), { limits: { timeoutMs: 10_000 } })), 'ok');
        const started = performance.now();
        const outcome = await spin.call('run', u64(size));
        times.push(performance.now() - started);
        assert.equal(codeOf(outcome), 'TIMEOUT');
      }
      console.log(`    [${runtime}] alloc+free loop (0, 1, 32, 60 MiB), timeoutMs ${DEADLINE}: ${times.map((t) => t.toFixed(1)).join(', ')} ms`);
      times.sort((a, b) => a - b);
      assert.ok(times[1]! < ENDS_BY, `${times[1]} ms`);
      const poor = await spin.call('run', u64(MIB), { limits: { timeoutMs: 10_000, fuel: 1_000_000 } });
      assert.equal(codeOf(poor), 'FUEL_EXHAUSTED');
      assert.ok(poor.fuelUsed <= 1_000_000, `fuelUsed ${poor.fuelUsed}`);
    } finally {
      await spin.close();
    }
  },

  // It aborted from the plugin's log callback, in-thread, until red40 (lines are delivered after the call
  // now): an abort that lands while the plugin makes only ungated calls is a worker's (the shared flag).
  'worker: an abort mid-call, then only ungated host calls (alloc, output_set): ABORTED promptly': async () => {
    for (const input of [0, 1]) {
      const during = new AbortController();
      const sandbox = await createSandbox(await hostile('log-then-ungated'), {
        isolation: 'worker',
        limits: { timeoutMs: 5_000, fuel: 1e15 },
      });
      try {
        const started = performance.now();
        setTimeout(() => during.abort(), 30);
        const outcome = await sandbox.call('run', new Uint8Array([input]), { signal: during.signal });
        assert.equal(codeOf(outcome), 'ABORTED');
        assert.ok(performance.now() - started < 1_000);
      } finally {
        await sandbox.close();
      }
    }
  },

  'in-thread: bytes an embedder host function stores are the plugin\'s own copy (a plugin cannot rewrite them for another)': async () => {
    const table = text('secret-v1');
    const hostFunctions = { lookup: { params: [], results: ['i64' as const], fn: (ctx: { store(v: Uint8Array): bigint }) => ctx.store(table) } };
    const a = await createSandbox(await hostile('host-store-poke'), { hostFunctions });
    const b = await createSandbox(await hostile('host-store-poke'), { hostFunctions });
    try {
      assert.equal(codeOf(await a.call('poke', new Uint8Array(0))), 'ok');
      assert.equal(str(table), 'secret-v1');
      const seen = await b.call('peek', new Uint8Array(0));
      assert.equal(seen.ok && str(seen.output), 'secret-v1');
    } finally {
      await a.close();
      await b.close();
    }
  },
};
