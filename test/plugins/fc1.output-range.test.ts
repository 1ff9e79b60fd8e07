// fc1: `output_set(address, length)` names a range; Extism's JavaScript host outputs the whole block
// the address falls in, whatever the offset and length (its Rust host, and the ABI, the range). A
// guard that wrote its `deny` into the start of a reused block whose stale tail held an `allow`
// (protobuf: the last field wins) was read as allowing, and a range past the block's end was taken.
// Now the range is the output (in-thread and in a worker), and a range past the block is refused.
import { describe, expect, it } from 'vitest';
import { loadPlugin } from '../../host/plugins/load.js';
import { createSandbox } from '../../host/sandbox/index.js';
import type { HookInput } from '../../host/hooks/types.js';
import { rangePlugin } from '../fixtures/canned.js';
import { guardInfo, rmInput, wire } from '../fixtures/guard-wire.js';
import { field } from '../xrt/wat.js';

const LIMITS = { timeoutMs: 10_000 };
const bytes = (...fields: number[][]) => new Uint8Array(fields.flat());
const INFO = guardInfo('reuser', 6);
/** deny, then a stale allow: the block a guard reused. */
const BLOCK = wire(field(1, 3), field(1, 2));

const input: HookInput = rmInput;

describe.each(['in-thread', 'worker'] as const)('output_set names a range (%s)', (isolation) => {
  it('a guard whose deny sits before a stale allow in its block denies', async () => {
    const wasm = rangePlugin({ describe: { data: INFO, offset: 0, length: INFO.length }, hook: { data: BLOCK, offset: 0, length: 2 } });
    const plugin = await loadPlugin({ bytes: wasm }, { isolation, limits: LIMITS });
    try {
      expect(await plugin.callHook(input)).toMatchObject({ ok: true, output: { decision: 'deny' } });
    } finally {
      await plugin.close();
    }
  });

  it('the sandbox: the output is exactly the range; a range past the block is refused (TRAP)', async () => {
    const data = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const wasm = rangePlugin({
      whole: { data, offset: 0, length: 6 },
      head: { data, offset: 0, length: 2 },
      middle: { data, offset: 2, length: 3 },
      none: { data, offset: 6, length: 0 },
      past: { data, offset: 4, length: 3 },
      // A read of a missing block hands the rest of the call to Extism's own accessors: the range still holds.
      handoff: { data, offset: 1, length: 2, missingRead: true },
    });
    const sandbox = await createSandbox(wasm, { isolation, limits: LIMITS, quarantine: { maxConsecutiveFailures: 100 } });
    const out = async (fn: string) => {
      const o = await sandbox.call(fn, new Uint8Array());
      return o.ok ? [...o.output] : `${o.failure.code}: ${o.failure.message}`;
    };
    try {
      expect(await out('whole')).toEqual([...data]);
      expect(await out('head')).toEqual([1, 2]);
      expect(await out('middle')).toEqual([3, 4, 5]);
      expect(await out('none')).toEqual([]);
      expect(await out('past')).toMatch(/^TRAP: .*output_set: 3 bytes at offset 4 run past the end of the block \(6 bytes\)/);
      expect(await out('middle')).toEqual([3, 4, 5]);
      expect(await out('handoff')).toEqual([2, 3]);
    } finally {
      await sandbox.close();
    }
  });
});
