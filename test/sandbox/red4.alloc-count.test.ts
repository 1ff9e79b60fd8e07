// Red review (red4): Extism's alloc walks every block the call made (to sum their sizes against the memory
// cap), so a loop of alloc(0) costs the host n²/2 block visits. At a flat charge per alloc, fuel did not
// see it: under a 3 s deadline the default budget (1e9, ~90 ms of compute) let it burn 2.4 s of CPU on 26M
// fuel, stopped only by the deadline. Each block past the first 64 now pays for the ones before it.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { expectFuelNotDeadline, hostile } from './sandbox-helpers.js';

describe('host blocks are charged by how many the call made', () => {
  it('a loop of alloc(0) runs out of fuel, not into a long deadline', async () => {
    const sandbox = await createSandbox(await hostile('alloc-zero-spin'), { name: 'alloc-zero-spin', limits: { timeoutMs: 5000, fuel: 1e9 } });
    // ~120-190 ms here; the old code ran to the 5 s deadline.
    await expectFuelNotDeadline(sandbox, 1500);
  }, 30_000);

});

describe('var_get charges the value it copies out', () => {
  // var_set of an N-byte value (its alloc and the var_set each pay N/16), then one var_get: the copy is a new
  // N-byte block, which paid only for its 1-byte key before (red4).
  const wat = `(module
    (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
    (import "extism:host/env" "var_set" (func $var_set (param i64 i64)))
    (import "extism:host/env" "var_get" (func $var_get (param i64) (result i64)))
    (import "extism:host/env" "input_load_u64" (func $input_load_u64 (param i64) (result i64)))
    (memory (export "memory") 1)
    (func (export "run") (result i32)
      (call $var_set (call $alloc (i64.const 1)) (call $alloc (call $input_load_u64 (i64.const 0))))
      (drop (call $var_get (call $alloc (i64.const 1))))
      (i32.const 0)))`;
  const size = (n: number) => {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(n), true);
    return b;
  };

  it('at the boundary rate, as alloc pays for its size', async () => {
    const wabt = await (await import('wabt')).default();
    const mod = wabt.parseWat('get.wat', wat);
    const bytes = new Uint8Array(mod.toBinary({}).buffer);
    mod.destroy();
    const sandbox = await createSandbox(bytes, { name: 'var-get' });
    try {
      const small = await sandbox.call('run', size(1));
      const big = await sandbox.call('run', size(1_000_000));
      expect(small.ok && big.ok).toBe(true);
      expect(big.fuelUsed - small.fuelUsed).toBeGreaterThanOrEqual(3 * (1_000_000 / 16) - 100);
    } finally {
      await sandbox.close();
    }
  });
});
