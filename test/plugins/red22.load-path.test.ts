// Review red22: loading a plugin copied its bytes twice (the source's defensive copy, then createSandbox's) and
// hashed them twice (the pin's sha256, then the compiled-module cache's key): a 30 MB module paid ~30 ms and
// 30 MB for the copy and ~25 ms for the hash on the event loop, for nothing. loadPlugin now hands its own bytes
// and their digest to the sandbox. Fails on the old code (two sha256 of the module, two full copies).
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as digest from '../../host/sandbox/digest.js';
import { loadPlugin } from '../../host/plugins/load.js';
import { clearCompiledCache, compiledEntries } from '../../host/sandbox/compiled.js';
import { cannedPlugin } from '../fixtures/canned.js';
import { guardInfo } from '../fixtures/guard-wire.js';

vi.mock('../../host/sandbox/digest.js', async (original) => {
  const real = await original<typeof digest>();
  return { ...real, sha256: vi.fn(real.sha256) };
});

const INFO = guardInfo('red22', 6);
const hashed = (size: number) => vi.mocked(digest.sha256).mock.calls.filter(([bytes]) => bytes.byteLength === size).length;

/** Full-size copies of `size` bytes made while `work` runs. */
async function copies(size: number, work: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(Uint8Array.prototype, 'slice');
  try {
    await work();
    return spy.mock.results.filter((r) => (r.value as Uint8Array).byteLength === size).length;
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => {
  vi.mocked(digest.sha256).mockClear();
  clearCompiledCache();
});

describe('red22: the load path copies and hashes a module once', () => {
  it('loadPlugin({ bytes }): one copy, one sha256, and the cache key is that sha256 as before', async () => {
    const wasm = cannedPlugin({ describe: INFO, hook: null });
    const want = await digest.webSha256(wasm);
    clearCompiledCache();
    const made = await copies(wasm.byteLength, async () => {
      const plugin = await loadPlugin({ bytes: wasm, sha256: want });
      expect(plugin.sha256).toBe(want);
      await plugin.close();
    });
    expect(made).toBe(1);
    expect(hashed(wasm.byteLength)).toBe(1);
    expect((await compiledEntries()).map(([key]) => key.split(':')[0])).toEqual([want]);
  });

  it('bytes rewritten for WASI are hashed for the cache as they are (the pin digest is not theirs)', async () => {
    const wasm = cannedPlugin({ describe: INFO, hook: null }, {}, { hook: 0 });
    const plugin = await loadPlugin({ bytes: wasm }, { wasi: true });
    await plugin.close();
    const [key] = (await compiledEntries()).map(([k]) => k.split(':')[0]);
    expect(plugin.sha256).toBe(await digest.webSha256(wasm));
    expect(key).not.toBe(plugin.sha256);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });
});
