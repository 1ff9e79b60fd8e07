// red16, class "host memory outside the caps": with allowExceptions, an exception caught with
// catch_ref/catch_all_ref is an exnref, which a table, a global or a local keeps alive outside
// linear memory. A tag of 1,000 v128 parameters made each exception 16 KB: a table of them grew a
// Deno process by 450 MiB in 30 successful calls (hostMemoryBound is ≈ 180 MiB), toward 1.6 GB at
// the table cap; an exnref parameter chains exceptions without end from one global. A tag now
// carries at most 16 bytes of numbers (instrument/counts.ts), defined or imported; past it the load
// is INVALID_WASM naming the tag. Fails on the old code (every such module loaded). try_table and
// exnref themselves run on Deno and Bun only; the exhaust is measured in test/xrt/red16.xrt.ts.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { tagModule } from '../fixtures/hostile/red16.js';

const I32 = 0x7f, I64 = 0x7e, V128 = 0x7b, EXTERNREF = 0x6f, EXNREF = 0x69;

async function load(bytes: Uint8Array) {
  const sandbox = await createSandbox(bytes, { allowExceptions: true, limits: { timeoutMs: 5_000 } });
  try {
    return await sandbox.call('run', new Uint8Array());
  } finally {
    await sandbox.close();
  }
}

describe('red16: an exception carries at most 16 bytes of numbers', () => {
  it.each([
    ['1,000 v128', Array(1_000).fill(V128), /tag 0 has 16000 bytes of parameters; the sandbox takes at most 16 bytes of numbers/],
    ['two v128', [V128, V128], /tag 0 has 32 bytes of parameters/],
    ['an exnref', [EXNREF], /tag 0 has a reference among its parameters/],
    ['an externref', [I32, EXTERNREF], /tag 0 has a reference among its parameters/],
  ])('a tag of %s is INVALID_WASM, defined or imported', async (_, params, message) => {
    for (const imported of [false, true]) {
      const refused = load(tagModule(params, imported));
      await expect(refused).rejects.toMatchObject({ code: 'INVALID_WASM' });
      await expect(refused).rejects.toThrow(message);
    }
  });

  it.each([['one i32', [I32]], ['two i64', [I64, I64]], ['one v128', [V128]], ['none', []]])('a tag of %s loads and runs', async (_, params) => {
    expect((await load(tagModule(params))).ok).toBe(true);
  });
});
