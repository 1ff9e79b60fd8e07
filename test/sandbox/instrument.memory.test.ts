import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { fixture, meter } from './instrument-helpers.js';

const fuel = meter(1_000_000_000n).imports;

async function grower(name: string, maxMemoryPages: number, imports: WebAssembly.Imports = {}) {
  const { bytes } = instrument(await fixture(name), { maxMemoryPages });
  const { instance } = await WebAssembly.instantiate(bytes, { ...imports, ...fuel });
  return instance.exports.grow as (n: number) => number;
}

describe('memory cap', () => {
  it('lowers a declared maximum to the cap; memory.grow past it returns -1', async () => {
    const grow = await grower('memory', 256);
    expect(grow(254)).toBe(2);
    expect(grow(1)).toBe(-1);
    expect(grow(0)).toBe(256);
  });

  it('keeps a declared maximum that is already below the cap', async () => {
    const grow = await grower('memory', 5000);
    expect(grow(998)).toBe(2);
    expect(grow(1)).toBe(-1);
  });

  it('adds a maximum where there was none', async () => {
    const grow = await grower('features', 8);
    expect(grow(7)).toBe(1);
    expect(grow(1)).toBe(-1);
  });

  it('refuses a memory whose initial size is already above the cap, saying what to raise', async () => {
    const wasm = await fixture('memory');
    let error: unknown;
    try {
      instrument(wasm, { maxMemoryPages: 1 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as WasmhooksError).code).toBe('INVALID_WASM');
    expect((error as WasmhooksError).message).toContain('memory 0 starts at 2 pages, above the cap of 1 pages (raise limits.maxMemoryPages)');
  });

  it('caps an imported memory too: the provided memory must fit under the cap', async () => {
    const within = new WebAssembly.Memory({ initial: 1, maximum: 16 });
    const grow = await grower('memory-import', 16, { env: { mem: within } });
    expect(grow(15)).toBe(1);
    expect(grow(1)).toBe(-1);
    const unbounded = new WebAssembly.Memory({ initial: 1 });
    await expect(grower('memory-import', 16, { env: { mem: unbounded } })).rejects.toThrow(WebAssembly.LinkError);
  });

  it('rejects an impossible cap', async () => {
    expect(() => instrument(new Uint8Array(8), { maxMemoryPages: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });
});

// Red review (red4): each memory was capped alone, so a module of 64 memories held 64 × maxMemoryPages
// (1 GiB of RSS for ~3M fuel on Deno and Bun, which run multi-memory; Node 20 refuses it at validate).
describe('memory cap with multi-memory', () => {
  const memories = async (decls: string[], maxMemoryPages: number): Promise<string[]> => {
    const wabt = await (await import('wabt')).default();
    // wabt reads multi_memory; its typings do not list it.
    const features = { multi_memory: true } as Record<string, boolean>;
    const mod = wabt.parseWat('mm.wat', `(module ${decls.map((d, i) => `(memory $m${i} ${d})`).join(' ')})`, features);
    const source = new Uint8Array(mod.toBinary({}).buffer);
    mod.destroy();
    const out = wabt.readWasm(instrument(source, { maxMemoryPages }).bytes, { ...features, readDebugNames: false });
    try {
      return [...out.toText({}).matchAll(/\(memory \(;\d+;\) (\d+ \d+)\)/g)].map((m) => m[1]!);
    } finally {
      out.destroy();
    }
  };

  it('all memories together hold at most maxMemoryPages: the cap is shared', async () => {
    expect(await memories(['1 256', '1 256', '1'], 256)).toEqual(['1 85', '1 85', '1 85']);
    expect(await memories(['2 3', '10'], 20)).toEqual(['2 3', '10 14']);
    expect(await memories(['1'], 256)).toEqual(['1 256']); // one memory: the whole cap, as before
    const many = await memories(Array.from({ length: 64 }, () => '1 256'), 256);
    expect(many.reduce((sum, m) => sum + Number(m.split(' ')[1]), 0)).toBeLessThanOrEqual(256);
  });

  it('refuses memories whose minimums together pass the cap', async () => {
    let error: unknown;
    try {
      await memories(['200', '200'], 256);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as WasmhooksError).message).toContain("the module's 2 memories start with 400 pages together, above the cap of 256 pages that they share");
  });
});
