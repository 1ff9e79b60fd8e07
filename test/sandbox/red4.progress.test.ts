// Red review (red4): maxProgressBytes bounded progress text, not the number of messages. A million 1-byte
// messages (1,000 fuel each) were a million tool.progress events for one call, for every watcher. Past
// MAX_PROGRESS_MESSAGES_PER_CALL they are dropped, with one note.
import { describe, expect, it } from 'vitest';
import { MAX_PROGRESS_MESSAGES_PER_CALL } from '../../host/sandbox/plugin-messages.js';
import { createSandbox } from '../../host/sandbox/index.js';

const wat = `(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "input_load_u64" (func $input_load_u64 (param i64) (result i64)))
  (import "wasmhooks:host" "progress" (func $progress (param i64)))
  (memory (export "memory") 1)
  (func (export "run") (result i32) (local $i i64) (local $n i64) (local $b i64)
    (local.set $n (call $input_load_u64 (i64.const 0)))
    (local.set $b (call $alloc (i64.const 1)))
    (call $store_u8 (local.get $b) (i32.const 46))
    (block $end (loop $next
      (br_if $end (i64.ge_u (local.get $i) (local.get $n)))
      (call $progress (local.get $b))
      (local.set $i (i64.add (local.get $i) (i64.const 1)))
      (br $next)))
    (i32.const 0)))`;

describe('progress messages per call', () => {
  it(`are delivered up to ${MAX_PROGRESS_MESSAGES_PER_CALL}, then one note; the call itself succeeds`, async () => {
    const wabt = await (await import('wabt')).default();
    const mod = wabt.parseWat('progress.wat', wat);
    const bytes = new Uint8Array(mod.toBinary({}).buffer);
    mod.destroy();
    const seen: string[] = [];
    const sandbox = await createSandbox(bytes, { name: 'progress-count', limits: { timeoutMs: 5000 }, host: { onProgress: (m) => void seen.push(m) } });
    try {
      const n = new Uint8Array(8);
      new DataView(n.buffer).setBigUint64(0, 50_000n, true);
      const out = await sandbox.call('run', n);
      expect(out.ok).toBe(true);
      expect(seen.length).toBe(MAX_PROGRESS_MESSAGES_PER_CALL + 1);
      expect(seen.at(-1)).toMatch(/more progress dropped/);
      seen.length = 0;
      new DataView(n.buffer).setBigUint64(0, 3n, true);
      expect((await sandbox.call('run', n)).ok).toBe(true);
      expect(seen).toEqual(['.', '.', '.']); // the count is per call
    } finally {
      await sandbox.close();
    }
  });
});
