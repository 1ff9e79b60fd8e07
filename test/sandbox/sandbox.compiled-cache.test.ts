// The compiled-module cache (host/sandbox/compiled.ts): the same bytes under
// the same plan compile once per process; any change to the bytes or to an
// option that shapes the instrumented code compiles again; instances stay apart.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { COMPILED_CACHE_BYTES, COMPILED_CACHE_ENTRIES, clearCompiledCache } from '../../host/sandbox/compiled.js';
import { hostile, str, text } from './sandbox-helpers.js';

let salt = 0;
/** `wasm` with a custom section of its own: new bytes, same code. */
function unique(wasm: Uint8Array): Uint8Array {
  const payload = new TextEncoder().encode(`cache-test-${++salt}-${Math.random()}`);
  const section = [0, payload.length + 2, 1, 0x78, ...payload];
  const out = new Uint8Array(wasm.length + section.length);
  out.set(wasm);
  out.set(section, wasm.length);
  return out;
}

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n = Math.floor(n / 0x80);
  } while (n > 0);
  return out;
};

/** `wasm` grown by a custom section to about `size` bytes in all (the instrumenter keeps custom sections). */
function padded(wasm: Uint8Array, size: number): Uint8Array {
  const name = new TextEncoder().encode(`pad-${++salt}-${Math.random()}`);
  const length = size - wasm.length - 8; // the section's body: the name's length, the name, zeros
  const head = [0, ...leb(length), name.length, ...name];
  const out = new Uint8Array(wasm.length + 1 + leb(length).length + length);
  out.set(wasm);
  out.set(head, wasm.length);
  return out;
}

/** How many modules `fn` compiles (WebAssembly.compile and new WebAssembly.Module). */
async function compiles(fn: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(WebAssembly, 'compile');
  try {
    await fn();
    return spy.mock.calls.filter(([bytes]) => (bytes as Uint8Array).byteLength > 8).length; // not the engine's empty warm-up module
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => clearCompiledCache());

describe('compiled-module cache', () => {
  it('the same bytes and limits compile once; each sandbox still gets its own instance', async () => {
    const bytes = unique(await hostile('echo'));
    const opened: Awaited<ReturnType<typeof createSandbox>>[] = [];
    expect(await compiles(async () => opened.push(await createSandbox(bytes, { limits: { timeoutMs: 5_000 } })))).toBe(1);
    expect(await compiles(async () => opened.push(await createSandbox(bytes.slice(), { limits: { timeoutMs: 5_000, fuel: 1e9 } })))).toBe(0);
    const [a, b] = opened as [Awaited<ReturnType<typeof createSandbox>>, Awaited<ReturnType<typeof createSandbox>>];
    try {
      await a.call('run', text('one'));
      const ran = await a.call('run', text('hi'));
      expect(ran.ok && str(ran.output)).toBe('hi');
      // Two calls on a, none on b: b's instance has its own globals.
      const countA = await a.call('calls', new Uint8Array());
      const countB = await b.call('calls', new Uint8Array());
      expect(countA.ok && str(countA.output)).toBe('2');
      expect(countB.ok && str(countB.output)).toBe('0');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('other bytes, another memory cap, table cap, exception rule or metering compile again', async () => {
    const bytes = unique(await hostile('echo'));
    const load = async (b: Uint8Array, options: Parameters<typeof createSandbox>[1]) => (await createSandbox(b, options)).close();
    expect(await compiles(() => load(bytes, {}))).toBe(1);
    expect(await compiles(() => load(bytes, {}))).toBe(0);
    expect(await compiles(() => load(unique(bytes), {}))).toBe(1);
    expect(await compiles(() => load(bytes, { limits: { maxMemoryPages: 17 } }))).toBe(1);
    expect(await compiles(() => load(bytes, { limits: { maxTableElements: 99 } }))).toBe(1);
    expect(await compiles(() => load(bytes, { allowExceptions: true }))).toBe(1);
    expect(await compiles(() => load(bytes, { metering: 'exact' }))).toBe(1);
    expect(await compiles(() => load(bytes, { limits: { maxMemoryPages: 17 } }))).toBe(0);
  });

  it('a module that fails to load is not cached, and the cache is bounded', async () => {
    const bad = unique(await hostile('unknown-import'));
    await expect(createSandbox(bad)).rejects.toThrow();
    const echo = await hostile('echo');
    for (let i = 0; i < COMPILED_CACHE_ENTRIES + 3; i++) await (await createSandbox(unique(echo))).close();
    const first = unique(echo);
    expect(await compiles(async () => (await createSandbox(first)).close())).toBe(1);
    for (let i = 0; i < COMPILED_CACHE_ENTRIES; i++) await (await createSandbox(unique(echo))).close();
    // Pushed out by as many newer modules: compiled again.
    expect(await compiles(async () => (await createSandbox(first)).close())).toBe(1);
  }, 60_000);

  it('the cache is bounded by the bytes it holds too, least recently used first', async () => {
    const echo = await hostile('echo');
    const size = 5 * 1024 * 1024;
    const fit = Math.floor(COMPILED_CACHE_BYTES / (size + 1024)); // what the bytes bound keeps, far under the entry bound
    expect(fit).toBeLessThan(COMPILED_CACHE_ENTRIES);
    const load = async (b: Uint8Array) => (await createSandbox(b)).close();
    const first = padded(echo, size);
    const second = padded(echo, size);
    expect(await compiles(() => load(first))).toBe(1);
    expect(await compiles(() => load(second))).toBe(1);
    for (let i = 0; i < fit - 2; i++) await load(padded(echo, size));
    // `fit` modules held: both still cached; using `first` makes it the most recent.
    expect(await compiles(() => load(first))).toBe(0);
    await load(padded(echo, size));
    // One more than fits: the least recently used (`second`) went, `first` stayed.
    expect(await compiles(() => load(first))).toBe(0);
    expect(await compiles(() => load(second))).toBe(1);
    // A module larger than the whole bound loads, and is not kept (nor does it push the others out).
    const huge = padded(echo, COMPILED_CACHE_BYTES + 1024);
    expect(await compiles(() => load(huge))).toBe(1);
    expect(await compiles(() => load(huge))).toBe(1);
    expect(await compiles(() => load(first))).toBe(0);
  }, 120_000);
});
