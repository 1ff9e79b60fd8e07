// fc1: a plugin's own exit(0) ended its call as a success with an EMPTY output, whatever it had set
// before: a guard that wrote its deny and then called exit(0) (wasi-libc's exit from a helper, say)
// read as an empty HookResponse, "no objection". Extism's Rust host reads exit 0 as return code 0
// and then the output the plugin set; so does the host now, in-thread and in a worker. An output set
// after the exit is still refused (rv12), and an error set before it is a PLUGIN_ERROR.
import { describe, expect, it } from 'vitest';
import { loadPlugin } from '../../host/plugins/load.js';
import { createSandbox } from '../../host/sandbox/index.js';
import type { HookInput } from '../../host/hooks/types.js';
import { cannedPlugin } from '../fixtures/canned.js';
import { assemble } from '../sandbox/instrument-helpers.js';
import { DENY, guardInfo, rmInput } from '../fixtures/guard-wire.js';

const LIMITS = { timeoutMs: 10_000 };
const INFO = guardInfo('exiting', 6);
const input: HookInput = rmInput;

describe.each(['in-thread', 'worker'] as const)('exit(0) keeps what the plugin answered (%s)', (isolation) => {
  it('a guard that set deny and then exited 0 denies', async () => {
    const plugin = await loadPlugin({ bytes: cannedPlugin({ describe: INFO, hook: DENY }, {}, { hook: 0 }) }, { isolation, wasi: true, limits: LIMITS });
    try {
      expect(await plugin.callHook(input)).toMatchObject({ ok: true, output: { decision: 'deny', reason: 'no' } });
    } finally {
      await plugin.close();
    }
  });

  it('exit 0 with no output is an empty answer, exit 1 after a deny is PLUGIN_ERROR (controls)', async () => {
    const silent = await loadPlugin({ bytes: cannedPlugin({ describe: INFO, hook: null }, {}, { hook: 0 }) }, { isolation, wasi: true, limits: LIMITS });
    const failing = await loadPlugin({ bytes: cannedPlugin({ describe: INFO, hook: DENY }, {}, { hook: 1 }) }, { isolation, wasi: true, limits: LIMITS });
    try {
      expect(await silent.callHook(input)).toMatchObject({ ok: true, output: { decision: 'continue' } });
      expect(await failing.callHook(input)).toMatchObject({ ok: false, failure: { code: 'PLUGIN_ERROR', message: 'the plugin exited with code 1' } });
    } finally {
      await silent.close();
      await failing.close();
    }
  });

  it('the sandbox: output set before exit(0) is the output (code 0); an error set before it is PLUGIN_ERROR with its text', async () => {
    const wasm = await assemble(`(module
      (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
      (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
      (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
      (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))
      (import "extism:host/env" "error_set" (func $error_set (param i64)))
      (memory (export "memory") 1)
      (func $block (result i64) (local $b i64)
        (local.set $b (call $alloc (i64.const 1)))
        (call $store_u8 (local.get $b) (i32.const 33))
        (local.get $b))
      (func (export "answer") (result i32) (call $output_set (call $block) (i64.const 1)) (call $exit (i32.const 0)) (i32.const 0))
      (func (export "error") (result i32) (call $error_set (call $block)) (call $exit (i32.const 0)) (i32.const 0)))`);
    const sandbox = await createSandbox(wasm, { isolation, wasi: true, limits: LIMITS });
    try {
      const answered = await sandbox.call('answer', new Uint8Array());
      expect(answered).toMatchObject({ ok: true, returnCode: 0 });
      expect(answered.ok && [...answered.output]).toEqual([33]);
      expect(await sandbox.call('error', new Uint8Array())).toMatchObject({ ok: false, failure: { code: 'PLUGIN_ERROR', message: '!' } });
      // The instance was rebuilt after each exit, and the next call still answers.
      expect(await sandbox.call('answer', new Uint8Array())).toMatchObject({ ok: true, returnCode: 0 });
    } finally {
      await sandbox.close();
    }
  });
});
