// Plain Extism plugins that do not speak our protocol (test/fixtures/corpus/, C
// built in the suite) give the same answers through the sandbox (instrumented)
// as through raw Extism.
import createPlugin from '@extism/extism';
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { createSandbox } from '../../host/sandbox/index.js';
import type { CallOutcome } from '../../host/sandbox/types.js';
import { corpus, type CorpusModule } from '../fixtures/corpus.js';
import { str, text } from './sandbox-helpers.js';

// alloc's run_test makes ~655k host calls: give the corpus room.
const ROOMY = { timeoutMs: 10_000, fuel: 1e15 };

async function raw(file: CorpusModule, fn: string, input: string): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  const plugin = await createPlugin({ wasm: [{ data: await corpus(file) }] }, { useWasi: false });
  try {
    const out = await plugin.call(fn, input);
    return { ok: true, text: out ? out.text() : '' };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  } finally {
    await plugin.close();
  }
}

const outputOf = (outcome: CallOutcome) => (outcome.ok ? str(outcome.output) : `${outcome.failure.code}: ${outcome.failure.message}`);

describe('corpus equivalence', () => {
  it('count_vowels (count-vowels) answers like raw Extism, on a fresh instance and after', async () => {
    const expected = await raw('count-vowels', 'count_vowels', 'hello world');
    expect(expected).toEqual({ ok: true, text: '{"count":3,"total":3,"vowels":"aeiouAEIOU"}' });
    const sandbox = await createSandbox(await corpus('count-vowels'), { limits: ROOMY });
    const first = await sandbox.call('count_vowels', text('hello world'));
    expect(outputOf(first)).toBe(expected.ok && expected.text);
    // State lives in the instance: `total` accumulates, as it does raw.
    const second = await sandbox.call('count_vowels', text('hello world'));
    expect(JSON.parse(outputOf(second))).toMatchObject({ count: 3, total: 6 });
    expect(first.fuelUsed).toBeGreaterThan(0);
  });

  it('alloc run_test succeeds with empty output', async () => {
    expect(await raw('alloc', 'run_test', '')).toEqual({ ok: true, text: '' });
    const sandbox = await createSandbox(await corpus('alloc'), { limits: ROOMY });
    const outcome = await sandbox.call('run_test', new Uint8Array(0));
    expect(outcome.ok && outcome.output.byteLength).toBe(0);
  });

  it('fail run_test is the plugin’s own error, with its own message', async () => {
    expect(await raw('fail', 'run_test', '')).toEqual({ ok: false, error: 'Plugin-originated error: Some error message' });
    const sandbox = await createSandbox(await corpus('fail'), { limits: ROOMY });
    const outcome = await sandbox.call('run_test', new Uint8Array(0));
    expect(!outcome.ok && outcome.failure).toEqual({ code: 'PLUGIN_ERROR', message: 'Some error message' });
    expect(sandbox.health).toBe('healthy');
  });

  it('memory alloc_memory succeeds within the cap and fails clearly beyond it', async () => {
    const input = '{"bytes":327680}';
    expect(await raw('memory', 'alloc_memory', input)).toMatchObject({ ok: true });
    const roomy = await createSandbox(await corpus('memory'), { limits: ROOMY });
    const fine = await roomy.call('alloc_memory', text(input));
    expect(fine.ok).toBe(true);
    expect(outputOf(fine)).toBe((await raw('memory', 'alloc_memory', input) as { text: string }).text);

    // 20 pages: its 17 initial pages fit, a 2 MB block does not.
    const tight = await createSandbox(await corpus('memory'), { limits: { ...ROOMY, maxMemoryPages: 20 } });
    const over = await tight.call('alloc_memory', text('{"bytes":2000000}'));
    expect(!over.ok && over.failure.code).toBe('MEMORY_LIMIT');
    expect(!over.ok && over.failure.message).toMatch(/cap of 20 pages/);
    const again = await tight.call('alloc_memory', text(input));
    expect(again.ok).toBe(true);

    // 2 pages: the module itself declares 17, so it is refused at load, saying so.
    const error = await createSandbox(await corpus('memory'), { limits: { maxMemoryPages: 2 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as Error).message).toMatch(/17 pages.*cap of 2 pages/);
  });

  it('memory alloc_var succeeds, and fails clearly beyond maxVarBytes', async () => {
    const input = '{"bytes":1024}';
    const roomy = await createSandbox(await corpus('memory'), { limits: ROOMY });
    expect((await roomy.call('alloc_var', text(input))).ok).toBe(true);
    const tight = await createSandbox(await corpus('memory'), { limits: { ...ROOMY, maxVarBytes: 100 } });
    const over = await tight.call('alloc_var', text(input));
    expect(!over.ok && over.failure).toMatchObject({ code: 'MEMORY_LIMIT', message: /a variable of 1025 bytes .* more than maxVarBytes \(100;/ });
  });
});

/** First-party plugins built by `npm run build:plugins` (not committed). */
async function builtPlugins(): Promise<URL[]> {
  const root = new URL('../../plugins/', import.meta.url);
  const names = await readdir(root).catch(() => [] as string[]);
  const found: URL[] = [];
  for (const name of names) {
    const file = new URL(`${name}/build/${name}.wasm`, root);
    if (await readFile(file).then(() => true, () => false)) found.push(file);
  }
  return found;
}

const firstParty = await builtPlugins();

describe('first-party plugins', () => {
  it.skipIf(firstParty.length === 0)('describe gives the same bytes raw and sandboxed (build them: npm run build:plugins)', async () => {
    for (const file of firstParty) {
      const bytes = new Uint8Array(await readFile(file));
      // Raw Extism must offer the host function our tool plugins import (progress).
      const functions = { 'wasmhooks:host': { progress: () => {} } };
      const plugin = await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false, functions });
      const expected = (await plugin.call('describe', new Uint8Array(0)))?.bytes() ?? new Uint8Array(0);
      await plugin.close();
      const sandbox = await createSandbox(bytes, { limits: ROOMY });
      const outcome = await sandbox.call('describe', new Uint8Array(0));
      expect(outcome.ok, file.pathname).toBe(true);
      expect(outcome.ok && [...outcome.output], file.pathname).toEqual([...expected]);
      await sandbox.close();
    }
  });
});
