// rv12: red11 made a host function's throw a final stop, but only when the thrown value was an Error:
// an embedder's `throw 'no such user'` (or undefined, a number, a plain object) reached the plugin as
// a catchable exception, and a plugin with allowExceptions caught it with catch_all, called on and
// answered. Fails on red11's code (the call was ok, the function called 20,000 times).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { CATCHER, wat } from '../fixtures/rv12-plugins.js';

describe('a host function throwing a value that is not an Error ends the call (rv12)', () => {
  it.each([['a string', 'no such user'], ['undefined', undefined], ['null', null], ['a number', 7], ['an object', { code: 404 }], ['an object whose toString throws', { toString: () => { throw new Error('x'); } }]])(
    '%s: one TRAP, the function called once',
    async (_what, thrown) => {
      let calls = 0;
      const boom = { params: [], results: [], fn: () => { calls++; throw thrown; } };
      const sandbox = await createSandbox(await wat(CATCHER), { allowExceptions: true, hostFunctions: { boom }, limits: { timeoutMs: 10_000, fuel: 1e12 } });
      try {
        const out = await sandbox.call('run', new Uint8Array());
        expect(out.ok ? 'ok' : out.failure.code).toBe('TRAP');
        expect(calls).toBe(1);
        if (!out.ok) expect(out.failure.message).toMatch(/not an Error/);
      } finally {
        await sandbox.close();
      }
    },
  );

  it('a legit plugin still catches its own exceptions and answers', async () => {
    const bytes = await wat(`(module (memory (export "memory") 1) (tag $e (param i32))
      (func (export "run") (result i32) (local $i i32) (local $sum i32)
        (loop $l (try (do (throw $e (local.get $i))) (catch $e (local.set $sum (i32.add (local.get $sum)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $l (i32.lt_u (local.get $i) (i32.const 10))))
        (local.get $sum)))`);
    const sandbox = await createSandbox(bytes, { allowExceptions: true, limits: { timeoutMs: 10_000, fuel: 1e12 } });
    try {
      const out = await sandbox.call('run', new Uint8Array());
      expect(out.ok ? 'ok' : out.failure).toBe('ok');
    } finally {
      await sandbox.close();
    }
  });
});
