// red38, class "work done outside every limit": declarative element segments are not built at
// instantiation, so red16 left them out of the element cap, but engines read every entry when they
// compile the module, on the caller's thread. 30M entries naming one function (a 30 MB module) held
// Bun's event loop 1.2 s (60 MB: 2.7 s), Node's 0.18 s and Deno's 0.24 s, in createSandbox (the
// instrumentation runs in a worker; the compile does not). A declarative segment only declares functions
// for ref.func, each once at most: together they now hold at most the module's functions, else the load
// is INVALID_WASM, before any compile. Fails on the old code (the bomb loaded). Cross-runtime twin:
// test/xrt/red38.xrt.ts.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { elementBomb } from '../fixtures/hostile/red16.js';

async function load(bytes: Uint8Array) {
  const sandbox = await createSandbox(bytes, { limits: { timeoutMs: 5_000 } });
  try {
    return await sandbox.call('run', new Uint8Array());
  } finally {
    await sandbox.close();
  }
}

describe('red38: declarative element segments hold at most the module\'s functions', () => {
  it('4,000,000 entries declaring one function are INVALID_WASM at load', async () => {
    const refused = load(elementBomb(40, 100_000, 3));
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_WASM' });
    await expect(refused).rejects.toThrow(/declarative element segments hold more entries than its 1 functions/);
  });

  it('one entry per function loads; two for one function do not', async () => {
    expect((await load(elementBomb(1, 1, 3))).ok).toBe(true);
    await expect(load(elementBomb(2, 1, 3))).rejects.toMatchObject({ code: 'INVALID_WASM' });
  });
});
