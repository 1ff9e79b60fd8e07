/**
 * hk5: a large module is validated and instrumented off the caller's thread
 * (host/sandbox/off-thread.ts), so loading it no longer freezes the event
 * loop (a 57 MB module held it 1.8 s). The result is the bytes the inline
 * instrumenter makes, refusals are the same typed errors with the same
 * messages, an abort ends the worker, and the compiled-module cache still
 * holds the result.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { clearCompiledCache, compileInstrumented, compiledEntries } from '../../host/sandbox/compiled.js';
import { SELF_CHECKED } from '../../host/sandbox/engine-imports.js';
import { instrument, type InstrumentOptions } from '../../host/sandbox/instrument/index.js';
import { OFF_THREAD_BYTES, instrumentLoad, validateLoad } from '../../host/sandbox/off-thread.js';
import { createRawSandbox } from '../../host/sandbox/raw.js';
import { bigModule, brokenBigModule, worstStall } from '../fixtures/big-module.js';

const PLAN: Required<InstrumentOptions> = {
  maxMemoryPages: 256,
  maxTableElements: 100_000,
  allowExceptions: false,
  selfChecked: SELF_CHECKED,
  metering: 'fast',
  deferStart: true,
};
/**
 * Far below what a 25 MB inline instrumentation holds the thread (1–2 s on a loaded 2-core machine), above
 * what a loaded machine adds to the off-thread load (CI read 300.7 ms once against the 300 it was).
 */
const STALL_LIMIT_MS = 500;

async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WasmhooksError);
  return { code: (error as WasmhooksError).code, message: (error as WasmhooksError).message };
}

describe('a large load leaves the event loop free', () => {
  // The first off-thread load of a process starts the instrument worker from the sources (bundled once per
  // process: node-thread.ts): that start is test set-up, not the load's stall.
  beforeAll(async () => {
    await createRawSandbox(bigModule(2 * OFF_THREAD_BYTES), { name: 'warm-up' });
  }, 120_000);

  it('createRawSandbox of a 25 MB module stalls the loop far less than instrumenting it inline', async () => {
    const bytes = bigModule(25e6);
    const { value: raw, stallMs } = await worstStall(() => createRawSandbox(bytes, { name: 'big' }));
    expect(raw.module).toBeInstanceOf(WebAssembly.Module);
    expect(stallMs).toBeLessThan(STALL_LIMIT_MS);
  }, 120_000);

  it('compileInstrumented of a 25 MB module too, and the cache then holds it', async () => {
    clearCompiledCache();
    const bytes = bigModule(25e6 + 1);
    const { value: first, stallMs } = await worstStall(() => compileInstrumented(bytes.slice(), PLAN, { name: 'big' }));
    expect(stallMs).toBeLessThan(STALL_LIMIT_MS);
    const again = await compileInstrumented(bytes.slice(), PLAN, { name: 'big' });
    expect(again.module).toBe(first.module);
    expect((await compiledEntries()).length).toBe(1);
    clearCompiledCache();
  }, 120_000);
});

describe('the worker makes what the inline instrumenter makes', () => {
  it('byte for byte', async () => {
    const bytes = bigModule(3e6);
    expect(bytes.byteLength).toBeGreaterThan(OFF_THREAD_BYTES);
    // A copy: the job takes its bytes over (moved to the worker).
    const offThread = await instrumentLoad(bytes.slice(), PLAN, { name: 'big', validate: true });
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(Buffer.from(offThread).equals(Buffer.from(instrument(bytes, PLAN).bytes))).toBe(true);
  }, 60_000);

  it('refuses an invalid module with the inline error, naming the function and offset', async () => {
    const bytes = brokenBigModule(2e6);
    const inline = await refusal(instrumentLoad(bytes.slice(), PLAN, { name: 'broken', validate: true, offThreadBytes: Infinity }));
    const worker = await refusal(instrumentLoad(bytes.slice(), PLAN, { name: 'broken', validate: true }));
    expect(worker).toEqual(inline);
    expect(worker.code).toBe('INVALID_WASM');
    expect(worker.message).toMatch(/function \d+ .*unknown opcode 0xff at byte offset \d+/);
    expect(await refusal(validateLoad(bytes.slice(), PLAN, { name: 'broken' }))).toEqual(inline);
  }, 60_000);

  it('refuses a module past an instantiation cap with the inline error', async () => {
    const bytes = bigModule(1e5, 3_000);
    const inline = await refusal(instrumentLoad(bytes.slice(), PLAN, { name: 'wide', offThreadBytes: Infinity }));
    const worker = await refusal(instrumentLoad(bytes.slice(), PLAN, { name: 'wide', offThreadBytes: 0 }));
    expect(worker).toEqual(inline);
    expect(worker.message).toContain('3000 exports, above the sandbox\'s cap of 2048');
  }, 60_000);
});

describe('an abort ends the load and its worker', () => {
  it('rejects with LOAD_FAILED at once, and the worker burns no more CPU', async () => {
    const bytes = bigModule(40e6);
    const controller = new AbortController();
    const loading = instrumentLoad(bytes, PLAN, { name: 'big', signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    const error = await refusal(loading);
    expect(error.code).toBe('LOAD_FAILED');
    expect(error.message).toContain('big: the load was aborted');
    // Give terminate() a moment, then measure: a live worker would spend about a core on the instrumenter.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const used = process.cpuUsage(before);
    expect((used.user + used.system) / 1000).toBeLessThan(500);
  }, 60_000);

  it('one aborted load does not end another awaiting the same module', async () => {
    clearCompiledCache();
    const bytes = bigModule(4e6);
    const controller = new AbortController();
    const aborted = compileInstrumented(bytes.slice(), PLAN, { name: 'a', signal: controller.signal });
    const kept = compileInstrumented(bytes.slice(), PLAN, { name: 'b' });
    controller.abort();
    expect((await refusal(aborted)).code).toBe('LOAD_FAILED');
    expect((await kept).module).toBeInstanceOf(WebAssembly.Module);
    clearCompiledCache();
  }, 60_000);
});
