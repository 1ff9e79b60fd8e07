// Red-team of threaded fuel (test/fixtures/hostile/threaded.ts): modules that
// mix variants, thin wrappers, adapters, handlers and tail calls to run
// unbounded work. Each must stop at its deadline within the documented slack,
// and under a small budget with FUEL_EXHAUSTED and no more fuel than the
// budget; WASI floods likewise. The same modules run on Node, Deno and Bun in test/xrt/redteam.xrt.ts.
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { createSandbox } from '../../host/sandbox/index.js';
import { IOVEC_FUEL } from '../../host/sandbox/wasi/preview1.js';
import type { CallOutcome } from '../../host/sandbox/types.js';
import { CATCH_LOOP, assembleThreaded, threadedHoles, wasiFloods, type RedHole } from '../fixtures/hostile/redteam.js';


const DEADLINE = 50;
const BOUND = Math.max(2 * DEADLINE, DEADLINE + 50);

async function runHole(hole: RedHole, limits: RedHole['limits']): Promise<{ code: string; elapsed: number; outcome?: CallOutcome }> {
  let sandbox;
  try {
    sandbox = await createSandbox(await assembleThreaded(hole.wat), {
      name: hole.name,
      limits: { timeoutMs: DEADLINE, fuel: 1e15, ...limits },
      allowExceptions: hole.allowExceptions ?? false,
      wasi: hole.wasi ?? false,
    });
  } catch (error) {
    if (error instanceof WasmhooksError && error.code === 'INVALID_WASM') return { code: 'INVALID_WASM', elapsed: 0 };
    throw error;
  }
  try {
    const started = performance.now();
    const outcome = await sandbox.call('run', new Uint8Array(0));
    return { code: outcome.ok ? 'ok' : outcome.failure.code, elapsed: performance.now() - started, outcome };
  } finally {
    await sandbox.close();
  }
}

describe('threaded fuel and WASI floods under attack', () => {
  for (const hole of [...threadedHoles, ...wasiFloods]) {
    it(`stops at the deadline: ${hole.name}`, async () => {
      let r = await runHole(hole, {});
      if (r.elapsed >= BOUND) r = await runHole(hole, {}); // one retry: a GC pause on a loaded machine
      expect(hole.expect).toContain(r.code);
      expect(r.elapsed).toBeLessThan(BOUND);
    });

    it(`FUEL_EXHAUSTED within the budget: ${hole.name}`, async () => {
      const r = await runHole(hole, { timeoutMs: 10_000, fuel: 2_000_000 });
      if (r.code === 'INVALID_WASM') return;
      expect(r.code).toBe('FUEL_EXHAUSTED');
      // Never past the budget: a host charge it cannot cover is refused, not counted (it was, by up to one charge).
      expect(r.outcome!.fuelUsed).toBeLessThanOrEqual(2_000_000);
      expect(r.outcome!.fuelUsed).toBeGreaterThan(1_000_000);
    });
  }

  it('a start function that recurses through variants and wrappers forever is refused at load (TIMEOUT)', async () => {
    const hole = threadedHoles[0]!;
    const wat = hole.wat.replace('(func (export "run")', '(start $forever) (func $forever (drop (call $run))) (func $run (export "run")');
    await expect(createSandbox(await assembleThreaded(wat), { name: 'start', limits: { timeoutMs: DEADLINE, fuel: 1e15 } })).rejects.toMatchObject({
      code: 'LOAD_FAILED',
      cause: { code: 'TIMEOUT' },
    });
  });
});

/** The counter as the host sees it (handed out − left), on the caller's thread, without Extism. */
async function meter(wasm: Uint8Array, metering: 'fast' | 'exact') {
  let handedOut = 0n;
  let global: WebAssembly.Global | undefined;
  const slice = 1_000_000_000n;
  const refuel = (): bigint => ((handedOut += slice - (global!.value as bigint)), slice);
  const bytes = instrument(wasm, { maxMemoryPages: 1, allowExceptions: true, metering }).bytes;
  const { instance } = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel, gate: () => 0 } });
  global = instance.exports.__wasmhooks_fuel as WebAssembly.Global;
  return (name: string, ...args: number[]): number => {
    const before = handedOut - (global!.value as bigint);
    (instance.exports[name] as (...a: number[]) => void)(...args);
    return Number(handedOut - (global!.value as bigint) - before);
  };
}

it('fd_write charges each iovec, empty or not: 1,024 of them cost 1,024 × IOVEC_FUEL more than none', async () => {
  const [none, empty] = [wasiFloods[2]!, wasiFloods[3]!].map((h) => h.wat.replace('(loop $again', '(block $again').replace('(br $again)', ''));
  const used = async (wat: string) => {
    const s = await createSandbox(await assembleThreaded(wat), { name: 'iovecs', wasi: true, limits: { timeoutMs: 5_000 } });
    try {
      const o = await s.call('run', new Uint8Array(0));
      expect(o.ok).toBe(true);
      return o.fuelUsed;
    } finally {
      await s.close();
    }
  };
  expect((await used(empty!)) - (await used(none!))).toBe(1024 * IOVEC_FUEL);
});

describe('a handler catching a threaded callee\'s throw', () => {
  it('is charged what the callee burnt, once: as much as without the throw, and as exact mode says', async () => {
    const wasm = await assembleThreaded(CATCH_LOOP);
    const fast = await meter(wasm, 'fast');
    const exact = await meter(wasm, 'exact');
    // Each try burns 20 frames and 3,000 loop iterations before the throw.
    const perTry = (fast('tries', 200, 3000) - fast('tries', 100, 3000)) / 100;
    const perStraight = (fast('straight', 200, 3000) - fast('straight', 100, 3000)) / 100;
    const perTryExact = (exact('tries', 200, 3000) - exact('tries', 100, 3000)) / 100;
    // Not lost: the burnt loop alone is ≥ 3,000 iterations' worth.
    expect(perTry).toBeGreaterThan(3000);
    expect(perTry).toBeGreaterThanOrEqual(0.9 * perStraight);
    // Not charged twice, and what exact mode counts within the block rule.
    expect(perTry).toBeLessThanOrEqual(1.25 * perTryExact);
    expect(perTry).toBeGreaterThanOrEqual(perTryExact);
    // Repeatable: nothing is left in a stale local between calls.
    expect(fast('tries', 50, 3000)).toBe(fast('tries', 50, 3000));
  });
});

describe('a trap after burning fuel in threaded variants', () => {
  it('under-reports by at most the slice in hand plus one block (docs/sandbox-instrumentation.md), never over-reports', async () => {
    const wat = `(module
      (func $burn (param $n i32) (local $i i32)
        (loop $l (local.set $i (i32.add (local.get $i) (i32.const 1))) (br_if $l (i32.lt_u (local.get $i) (local.get $n)))))
      (func $deep (param $d i32) (param $n i32) (result i32)
        (if (result i32) (local.get $d)
          (then (call $burn (local.get $n)) (call $deep (i32.sub (local.get $d) (i32.const 1)) (local.get $n)))
          (else (i32.div_u (i32.const 1) (i32.const 0)))))
      (func $deep_ok (param $d i32) (param $n i32) (result i32)
        (if (result i32) (local.get $d)
          (then (call $burn (local.get $n)) (call $deep_ok (i32.sub (local.get $d) (i32.const 1)) (local.get $n)))
          (else (i32.const 0))))
      (func (export "trap") (result i32) (call $deep (i32.const 100) (i32.const 20000)))
      (func (export "run") (result i32) (call $deep_ok (i32.const 100) (i32.const 20000))))`;
    const s = await createSandbox(await assembleThreaded(wat), { name: 'trap', limits: { timeoutMs: 5_000 }, quarantine: { maxConsecutiveFailures: 100 } });
    try {
      const ok = await s.call('run', new Uint8Array(0));
      const trapped = await s.call('trap', new Uint8Array(0));
      expect(ok.ok).toBe(true);
      expect(trapped).toMatchObject({ ok: false, failure: { code: 'TRAP' } });
      // MAX_SLICE (4M) + UNCHECKED_MAX + the heaviest weight.
      expect(trapped.fuelUsed).toBeGreaterThanOrEqual(ok.fuelUsed - 4_000_000 - 1_100);
      expect(trapped.fuelUsed).toBeLessThanOrEqual(ok.fuelUsed);
    } finally {
      await s.close();
    }
  });
});
