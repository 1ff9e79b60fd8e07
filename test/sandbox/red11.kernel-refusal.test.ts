// red11, class "a stop is final": an address Extism's own accessor refuses (load_*, input_load_*,
// store_*) threw a plain error that a plugin with exception handling caught and went on: 20,000
// refused reads cost it 117 fuel each (an accessor's) at an exception's price (5–10 µs), and then it
// answered "ok". The refusal is now a final TRAP, in-thread and in a worker. Fails on the old code.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import wabtInit from 'wabt';
import { createSandbox } from '../../host/sandbox/index.js';

async function fixture(): Promise<Uint8Array> {
  const source = await readFile(new URL('../fixtures/hostile/red11-kernel.wat', import.meta.url), 'utf8');
  const mod = (await wabtInit()).parseWat('red11-kernel.wat', source, { exceptions: true });
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

describe('an address Extism refuses ends the call, finally (red11)', () => {
  it.each(['in-thread', 'worker'] as const)('%s: each accessor, caught 20,000 times, is one TRAP', async (isolation) => {
    const bytes = await fixture();
    for (const fn of ['load_u8', 'load_u64', 'input_load_u8', 'input_load_u64', 'store_u8', 'store_u64']) {
      // A sandbox per accessor: three failures in a row would quarantine a shared one.
      const sandbox = await createSandbox(bytes, { allowExceptions: true, isolation, limits: { timeoutMs: 10_000, fuel: 1e12 } });
      try {
        const out = await sandbox.call(fn, new Uint8Array([1, 2, 3]));
        expect(out.ok ? 'ok' : out.failure.code, fn).toBe('TRAP');
        expect(out.ok ? '' : out.failure.message, fn).toMatch(new RegExp(`called ${fn} with an address Extism refuses`));
        // Stopped at the first refusal: a few hundred fuel, not 20,000 refused calls' worth.
        expect(out.fuelUsed, fn).toBeLessThan(10_000);
      } finally {
        await sandbox.close();
      }
    }
  });
});

describe('a host function that throws ends the call, finally (red11)', () => {
  // In-thread only: an embedder's host functions run on the caller's thread (a worker cannot call back).
  it('an embedder function\'s throw, caught by catch_all, is one TRAP; the function runs once', async () => {
    const source = `(module
      (import "extism:host/user" "boom" (func $boom))
      (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
      (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))
      (memory (export "memory") 1)
      (func (export "run") (result i32) (local $i i32)
        (loop $l (try (do (call $boom)) (catch_all))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $l (i32.lt_u (local.get $i) (i32.const 20000))))
        (call $output_set (call $alloc (i64.const 1)) (i64.const 1))
        (i32.const 0)))`;
    const mod = (await wabtInit()).parseWat('boom.wat', source, { exceptions: true });
    const bytes = new Uint8Array(mod.toBinary({}).buffer);
    mod.destroy();
    let calls = 0;
    const boom = { params: [], results: [], fn: () => void (calls++, (() => { throw new Error('no such user'); })()) };
    const sandbox = await createSandbox(bytes, { allowExceptions: true, hostFunctions: { boom }, limits: { timeoutMs: 10_000, fuel: 1e12 } });
    try {
      const out = await sandbox.call('run', new Uint8Array());
      expect(out.ok ? 'ok' : out.failure.code).toBe('TRAP');
      expect(out.ok ? '' : out.failure.message).toMatch(/no such user/);
      expect(calls).toBe(1);
    } finally {
      await sandbox.close();
    }
  });
});
