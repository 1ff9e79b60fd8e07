import { describe, expect, it } from 'vitest';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { BULK_BYTES_PER_FUEL_LOG2 } from '../../host/sandbox/instrument/opcodes.js';
import { fixture, fuelUsed, meter } from './instrument-helpers.js';

async function load(name: string, slice: bigint, limit = Infinity) {
  const { bytes, checksInserted } = instrument(await fixture(name), { maxMemoryPages: 16 });
  const fuel = meter(slice, limit);
  const { instance } = await WebAssembly.instantiate(bytes, fuel.imports);
  return { instance, fuel: fuel.state, checksInserted, call: (n: string, ...a: number[]) => (instance.exports[n] as (...a: number[]) => number)(...a) };
}

describe('fuel', () => {
  it('an infinite loop keeps calling refuel until refuel throws, which traps the call', async () => {
    const { call, fuel } = await load('fuel', 1000n, 25);
    expect(() => call('spin')).toThrow('out of fuel');
    expect(fuel.calls).toBe(26);
  });

  it('the first check refuels at once (the global starts at 0), even in a start function', async () => {
    const { bytes } = instrument(await fixture('start-loop'), { maxMemoryPages: 16 });
    const fuel = meter(10_000n, 3);
    await expect(WebAssembly.instantiate(bytes, fuel.imports)).rejects.toThrow('out of fuel');
    expect(fuel.state.calls).toBe(4);
  });

  it('fuel burnt scales with the work done', async () => {
    const used = async (n: number) => {
      const { instance, call, fuel } = await load('fuel', 1_000_000_000n);
      expect(call('count', n)).toBe(n);
      return Number(fuelUsed(instance, fuel.handedOut));
    };
    const [u100, u1000, u10000] = [await used(100), await used(1000), await used(10_000)];
    expect(u1000 / u100).toBeGreaterThan(9);
    expect(u1000 / u100).toBeLessThan(11);
    expect(u10000 / u1000).toBeGreaterThan(9.5);
    expect(u10000 / u1000).toBeLessThan(10.5);
    // Each iteration is charged for the 8 instructions of the loop body.
    expect(u10000 - u1000).toBe(9000 * 8);
  });

  it('recursion is charged at every function entry', async () => {
    const { instance, call, fuel } = await load('fuel', 1_000_000_000n);
    call('down', 10);
    const ten = fuelUsed(instance, fuel.handedOut);
    call('down', 1000);
    const thousand = fuelUsed(instance, fuel.handedOut) - ten;
    expect(Number(thousand) / Number(ten)).toBeGreaterThan(80);
  });

  it('small slices give the same result, with one refuel per slice spent', async () => {
    const { instance, call, fuel } = await load('fuel', 7n);
    expect(call('count', 5000)).toBe(5000);
    const used = fuelUsed(instance, fuel.handedOut);
    expect(Math.abs(fuel.calls - Number(used) / 7)).toBeLessThan(2);
  });

  it('the host can read and set the fuel global between calls', async () => {
    const { instance, call, fuel } = await load('fuel', 1_000_000n);
    const g = instance.exports.__wasmhooks_fuel as WebAssembly.Global;
    expect(g.value).toBe(0n);
    call('count', 10);
    expect(fuel.calls).toBe(1);
    expect(g.value).toBeLessThan(1_000_000n);
    g.value = 1n;
    call('count', 10);
    expect(fuel.calls).toBe(2);
    g.value = 10n ** 15n;
    call('count', 10);
    expect(fuel.calls).toBe(2);
  });

  it('inserts one check per function entry and loop header, two per memory.fill/copy/init, and one per chunk loop', async () => {
    // fuel.wat: 5 functions, 3 loops, 2 bulk memory ops; a bulk op's charge is written on its short path and
    // after its chunks (chunks.ts); a long fill runs in one loop of chunks, a long copy in one of two (forward,
    // or from the end when the destination lies above the source).
    expect((await load('fuel', 1n)).checksInserted).toBe(15);
  });

  it('memory.fill is charged by length (1 per byte), before it runs', async () => {
    const { instance, call, fuel } = await load('fuel', 1_000_000_000n);
    call('fill', 0);
    const base = fuelUsed(instance, fuel.handedOut);
    call('fill', 1 << 20);
    const mib = fuelUsed(instance, fuel.handedOut) - base;
    expect(Number(mib) - (1 << 20) / 2 ** BULK_BYTES_PER_FUEL_LOG2).toBeGreaterThanOrEqual(0);
    expect(Number(mib) - (1 << 20) / 2 ** BULK_BYTES_PER_FUEL_LOG2).toBeLessThan(100);
    // A length past every byte the memory may hold (it traps) is counted up to the memory cap.
    const before = fuelUsed(instance, fuel.handedOut);
    expect(() => call('fill', 0xffff_fff0)).toThrow();
    expect(Number(fuelUsed(instance, fuel.handedOut) - before)).toBeLessThan((16 * 65_536) / 2 ** BULK_BYTES_PER_FUEL_LOG2 + 100);
  });

  it('a loop of large copies overdraws a small slice on every iteration', async () => {
    const { bytes } = instrument(await fixture('fuel'), { maxMemoryPages: 16 });
    const seen: bigint[] = [];
    let fuelGlobal: WebAssembly.Global | undefined;
    const refuel = (): bigint => {
      if (fuelGlobal) seen.push(fuelGlobal.value as bigint);
      if (seen.length > 20) throw new Error('out of fuel');
      return 10_000n;
    };
    const { instance } = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel } });
    fuelGlobal = instance.exports.__wasmhooks_fuel as WebAssembly.Global;
    expect(() => (instance.exports.fill_forever as (n: number) => void)(1 << 19)).toThrow('out of fuel');
    // Each refuel comes from a copy of 512 KiB (32,768 fuel) on a 10,000 slice.
    expect(seen.slice(1).every((v) => v <= 10_000n - 32_768n)).toBe(true);
  });
});
