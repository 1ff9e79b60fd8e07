// Red team of borrowed request buffers (CallOptions.borrowed, the hook
// encoder's view, the in-thread engine's input handling): a call must never
// see bytes the caller wrote after `call` returned (another call's request),
// and a plugin must never write into a buffer the host or the caller owns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import type { SandboxedModule } from '../../host/sandbox/types.js';
import { assembleThreaded } from '../fixtures/hostile/redteam.js';
import { hostile, str } from './sandbox-helpers.js';

/** `scribble`: writes 0x58 over its whole input block (Extism's store_u8 reaches every block), then echoes it. */
const SCRIBBLER = `(module
  (import "extism:host/env" "input_length" (func $input_length (result i64)))
  (import "extism:host/env" "input_offset" (func $input_offset (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))
  (memory (export "memory") 1)
  (func (export "scribble") (result i32) (local $i i64)
    (block $done (loop $l
      (br_if $done (i64.ge_u (local.get $i) (call $input_length)))
      (call $store_u8 (i64.add (call $input_offset) (local.get $i)) (i32.const 0x58))
      (local.set $i (i64.add (local.get $i) (i64.const 1)))
      (br $l)))
    (call $output_set (call $input_offset) (call $input_length))
    (i32.const 0)))`;

let echo: SandboxedModule;
let scribbler: SandboxedModule;
beforeAll(async () => {
  echo = await createSandbox(await hostile('echo'), { limits: { timeoutMs: 2_000 }, quarantine: { maxConsecutiveFailures: 100 } });
  scribbler = await createSandbox(await assembleThreaded(SCRIBBLER), { limits: { timeoutMs: 2_000 } });
});
afterAll(() => Promise.all([echo.close(), scribbler.close()]));

describe('borrowed inputs under attack', () => {
  it('a borrowed input that spans its whole buffer is read before call() returns, even when the instance must be rebuilt first', async () => {
    for (const size of [1024, 2048, 16 * 1024, 20_000]) {
      // The hook encoder's buffer is 1024, 2048, … 16384 bytes: a request of exactly that size is a view of all of it.
      const buffer = new Uint8Array(size).fill(0x41);
      // A plugin can make its own instance be thrown away (a trap), so that its next call awaits instantiation.
      expect((await echo.call('trap', new Uint8Array(0))).ok).toBe(false);
      const running = echo.call('run', buffer, { borrowed: true });
      buffer.fill(0x42); // the next request, encoded into the same buffer while the first waits
      const outcome = await running;
      expect(outcome.ok && str(outcome.output)).toBe('A'.repeat(size));
    }
    // A large view (Extism copied views itself, but only once the rebuilt instance was ready).
    const big = new Uint8Array(40_000).fill(0x41);
    expect((await echo.call('trap', new Uint8Array(0))).ok).toBe(false);
    const running = echo.call('run', big.subarray(8, 20_008), { borrowed: true });
    big.fill(0x42);
    const outcome = await running;
    expect(outcome.ok && str(outcome.output)).toBe('A'.repeat(20_000));
  });

  it('a plugin cannot write into the caller\'s input buffer, borrowed or not, of any size', async () => {
    for (const size of [16, 1024, 20_000]) {
      for (const borrowed of [false, true]) {
        const input = new Uint8Array(size).fill(0x41);
        const outcome = await scribbler.call('scribble', input, { borrowed });
        expect(outcome.ok && str(outcome.output)).toBe('X'.repeat(size));
        expect(input.every((b) => b === 0x41)).toBe(true);
      }
    }
  });

  it('re-entrant: a host function that starts calls of another plugin and of the caller itself, and rewrites the caller\'s lent buffer, while the caller is in flight', async () => {
    // `run` reads its input's first byte, calls the host, then echoes its whole input and the first byte again.
    const REENTRANT = `(module
      (import "extism:host/env" "input_length" (func $input_length (result i64)))
      (import "extism:host/env" "input_load_u8" (func $input_load_u8 (param i64) (result i32)))
      (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
      (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
      (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))
      (import "extism:host/user" "poke" (func $poke))
      (memory (export "memory") 1)
      (func (export "run") (result i32) (local $first i32) (local $len i64) (local $i i64) (local $out i64)
        (local.set $first (call $input_load_u8 (i64.const 0)))
        (call $poke)
        (local.set $len (call $input_length))
        (local.set $out (call $alloc (i64.add (local.get $len) (i64.const 1))))
        (block $done (loop $copy
          (br_if $done (i64.ge_u (local.get $i) (local.get $len)))
          (call $store_u8 (i64.add (local.get $out) (local.get $i)) (call $input_load_u8 (local.get $i)))
          (local.set $i (i64.add (local.get $i) (i64.const 1)))
          (br $copy)))
        (call $store_u8 (i64.add (local.get $out) (local.get $len)) (local.get $first))
        (call $output_set (local.get $out) (i64.add (local.get $len) (i64.const 1)))
        (i32.const 0)))`;
    const lent = new Uint8Array(1024); // a request that fills the encoder's buffer exactly
    const nested: Promise<unknown>[] = [];
    let self: SandboxedModule | undefined;
    let depth = 0;
    const poke = () => {
      if (depth++ > 0) return; // the re-entered call pokes no further
      // Another plugin's call on this thread, and a call of the caller itself (queued: it is busy), from the same buffer.
      lent.fill(0x42);
      nested.push(echo.call('run', lent, { borrowed: true }).then((o) => o.ok && str(o.output)));
      nested.push(self!.call('run', lent, { borrowed: true }).then((o) => o.ok && str(o.output)));
      lent.fill(0x43); // and the encoder moves on to a third request
    };
    self = await createSandbox(await assembleThreaded(REENTRANT), {
      name: 'reentrant',
      limits: { timeoutMs: 2_000 },
      hostFunctions: { poke: { params: [], results: [], fn: () => poke() } },
    });
    try {
      lent.fill(0x41);
      const outcome = await self.call('run', lent, { borrowed: true });
      // The caller saw its own request throughout; each nested call saw the bytes as they were when it was made.
      expect(outcome.ok && str(outcome.output)).toBe('A'.repeat(1024) + 'A');
      expect(await Promise.all(nested)).toEqual(['B'.repeat(1024), 'B'.repeat(1024) + 'B']);
    } finally {
      await self.close();
    }
  });
});

