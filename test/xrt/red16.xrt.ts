// Red review (red16, the sandbox as a hostile plugin's author) on Node, Deno and Bun, through dist/:
// each scenario is a class of hole that was open on `main`, now closed. Vitest twins that fail on the
// old code: test/sandbox/red16.unwind-fuel.test.ts, test/sandbox/red16.element-segments.test.ts,
// test/sandbox/red16.instance-counts.test.ts, test/sandbox/red16.tag-payload.test.ts,
// test/sandbox/red16.const-exprs.test.ts.
import assert from 'node:assert/strict';
import { createSandbox } from '../../dist/index.js';
import { hostile } from './wat.ts';

const { constBomb, countBomb, elementBomb, exnrefHoard, tagModule } = (await import(new URL('../fixtures/hostile/red16.ts', import.meta.url).href)) as typeof import('../fixtures/hostile/red16.js');

/** ms of one call of `fn` (red16-unwind.wat, depth 4,096) that must end FUEL_EXHAUSTED within its budget. */
async function fuelRun(fn: 'run' | 'flat', isolation: 'in-thread' | 'worker'): Promise<number> {
  const fuel = 50_000_000;
  const sandbox = await createSandbox(await hostile('red16-unwind'), { allowExceptions: true, isolation, limits: { timeoutMs: 60_000, fuel } });
  try {
    const started = performance.now();
    const outcome = await sandbox.call(fn, new Uint8Array([16]));
    const ms = performance.now() - started;
    assert.equal(outcome.ok, false);
    if (!outcome.ok) assert.equal(outcome.failure.code, 'FUEL_EXHAUSTED', outcome.failure.message);
    assert.ok(outcome.fuelUsed <= fuel, `fuelUsed ${outcome.fuelUsed}`);
    return ms;
  } finally {
    await sandbox.close();
  }
}

const unwinding = (isolation: 'in-thread' | 'worker') => async () => {
  const flat = await fuelRun('flat', isolation);
  const throws = await fuelRun('run', isolation);
  // Old code: 1.4-3.4 s (Node, Bun) against 30-40 ms for the plain recursion; now tens of ms.
  assert.ok(throws < Math.max(400, 1.5 * flat), `the throw loop took ${throws.toFixed(0)} ms, the plain recursion ${flat.toFixed(0)} ms`);
};

/** The outcome of `run` in a sandbox of `bytes`, or the load's error. */
async function loadAndRun(bytes: Uint8Array, maxTableElements?: number) {
  const sandbox = await createSandbox(bytes, { allowExceptions: true, limits: { timeoutMs: 5_000, ...(maxTableElements ? { maxTableElements } : {}) } });
  try {
    return await sandbox.call('run', new Uint8Array());
  } finally {
    await sandbox.close();
  }
}

const CAPS = [['imports', 1_000], ['tables', 100], ['globals', 10_000], ['exports', 2_048], ['passive data segments', 10_000], ['tags', 1_000]] as const;

export const scenarios: Record<string, () => Promise<void>> = {
  'a tag of more than 16 bytes of numbers, or of a reference, is INVALID_WASM; the exnref hoard of 16 KB exceptions with it': async () => {
    for (const params of [Array(1_000).fill(0x7b), [0x7b, 0x7b], [0x69], [0x7f, 0x6f]]) {
      await assert.rejects(loadAndRun(tagModule(params)), (e: { code?: string; message?: string }) => {
        assert.equal(e.code, 'INVALID_WASM');
        assert.match(String(e.message), /tag 0 has .*; the sandbox takes at most 16 bytes of numbers/);
        return true;
      });
    }
    for (const params of [[0x7f], [0x7e, 0x7e], [0x7b]]) assert.equal((await loadAndRun(tagModule(params))).ok, true);
    // try_table and exnref: Deno and Bun (Node 20 refuses them at validation).
    if (WebAssembly.validate(exnrefHoard(1, 10))) {
      await assert.rejects(loadAndRun(exnrefHoard(1_000, 300)), { code: 'INVALID_WASM' });
      assert.equal((await loadAndRun(exnrefHoard(1, 300))).ok, true);
    }
  },
  'imports, tables, globals, exports, passive data segments and tags past their caps are INVALID_WASM; at the cap they load': async () => {
    for (const [what, cap] of CAPS) {
      assert.equal((await loadAndRun(countBomb(what, cap))).ok, true, what);
      await assert.rejects(loadAndRun(countBomb(what, cap + 1)), (e: { code?: string; message?: string }) => {
        assert.equal(e.code, 'INVALID_WASM', what);
        assert.ok(String(e.message).includes(`the module declares ${cap + 1} ${what}, above the sandbox's cap of ${cap}`), String(e.message));
        return true;
      });
    }
  },
  'constant expressions of more than 10,000 arithmetic instructions are INVALID_WASM (extended-const: Deno and Bun)': async () => {
    if (!WebAssembly.validate(constBomb(1, 1))) return; // Node 20 has no extended-const
    assert.equal((await loadAndRun(constBomb(10, 1_000))).ok, true);
    const bomb = constBomb(8, 100_000); // 25-50 ms per instance before (a million each: 0.25-0.5 s)
    const started = performance.now();
    await assert.rejects(loadAndRun(bomb), (e: { code?: string; message?: string }) => {
      assert.equal(e.code, 'INVALID_WASM');
      assert.match(String(e.message), /constant expressions hold more than 10000 arithmetic instructions/);
      return true;
    });
    assert.ok(performance.now() - started < 3_000);
  },
  'more than 100 memories are INVALID_WASM (multi-memory: Deno and Bun)': async () => {
    if (!WebAssembly.validate(countBomb('memories', 2))) return; // Node 20: one memory at most
    assert.equal((await loadAndRun(countBomb('memories', 100))).ok, true);
    await assert.rejects(loadAndRun(countBomb('memories', 20_000)), (e: { code?: string; message?: string }) => {
      assert.equal(e.code, 'INVALID_WASM');
      assert.ok(/the module declares 20000 memories, above the sandbox's cap of 100|at most 100 memories/.test(String(e.message)), String(e.message));
      return true;
    });
  },
  'a module of 99,990 exports or 100,000 tables is refused within its validation time': async () => {
    for (const [what, n] of [['exports', 99_990], ['tables', 100_000]] as const) {
      const bytes = countBomb(what, n);
      const started = performance.now();
      await assert.rejects(loadAndRun(bytes), { code: 'INVALID_WASM' });
      assert.ok(performance.now() - started < 2_000, what);
    }
  },
  'element segments holding more than maxTableElements together are INVALID_WASM at load (active and passive)': async () => {
    for (const flags of [0, 1] as const) {
      const started = performance.now();
      await assert.rejects(loadAndRun(elementBomb(40, 100_000, flags)), (e: { code?: string; message?: string }) => {
        assert.equal(e.code, 'INVALID_WASM');
        assert.match(String(e.message), /element segments hold more than 100000 elements \(raise limits\.maxTableElements\)/);
        return true;
      });
      assert.ok(performance.now() - started < 3_000);
    }
  },
  'element segments within the cap load; a raised cap admits more; declarative segments do not count toward it': async () => {
    assert.equal((await loadAndRun(elementBomb(1, 100_000))).ok, true);
    assert.equal((await loadAndRun(elementBomb(3, 1_000), 3_000)).ok, true);
    await assert.rejects(loadAndRun(elementBomb(4, 1_000), 3_000), { code: 'INVALID_WASM' });
    // Declarative ones are capped by the module's functions instead (red38, test/xrt/red38.xrt.ts).
    assert.equal((await loadAndRun(elementBomb(1, 1, 3))).ok, true);
  },
  'a loop of throws from 4,096 frames down spends its fuel at about the pace of ordinary code (in-thread)': unwinding('in-thread'),
  'a loop of throws from 4,096 frames down spends its fuel at about the pace of ordinary code (worker)': unwinding('worker'),
};
