import { readFile } from 'node:fs/promises';
import createPlugin from '@extism/extism';
import { describe, expect, it } from 'vitest';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { corpus, type CorpusModule } from '../fixtures/corpus.js';


type Outcome = { ok: true; output: string } | { ok: false; error: string };

/** One call on a fresh raw Extism plugin, in-thread, with a `refuel` import that never runs dry. */
async function run(bytes: Uint8Array, fn: string, input: string): Promise<{ outcome: Outcome; refuels: number }> {
  let refuels = 0;
  const plugin = await createPlugin(
    { wasm: [{ data: bytes }] },
    {
      useWasi: true,
      functions: {
        'wasmhooks:sandbox': {
          refuel: () => {
            refuels++;
            return 1_000_000_000n;
          },
          gate: () => 0,
        },
      },
    },
  );
  try {
    const out = await plugin.call(fn, input);
    return { outcome: { ok: true, output: out?.text() ?? '' }, refuels };
  } catch (e) {
    return { outcome: { ok: false, error: (e as Error).message }, refuels };
  } finally {
    await plugin.close();
  }
}

const cases: [file: CorpusModule, fn: string, input: string, check: (o: Outcome) => void][] = [
  ['count-vowels', 'count_vowels', 'hello world', (o) => expect(o).toEqual({ ok: true, output: '{"count":3,"total":3,"vowels":"aeiouAEIOU"}' })],
  ['alloc', 'run_test', '', (o) => expect(o).toEqual({ ok: true, output: '' })],
  ['fail', 'run_test', '', (o) => expect(o.ok === false && o.error).toContain('Some error message')],
  ['memory', 'alloc_memory', '{"bytes":327680}', (o) => expect(o.ok).toBe(true)],
  ['memory', 'alloc_var', '{"bytes":1024}', (o) => expect(o.ok).toBe(true)],
];

describe('plain Extism plugins (test/fixtures/corpus)', () => {
  for (const [file, fn, input, check] of cases) {
    it(`${file} ${fn}: instrumented output equals the original's`, async () => {
      const wasm = await corpus(file);
      const { bytes, checksInserted } = instrument(wasm, { maxMemoryPages: 256 });
      expect(WebAssembly.validate(bytes)).toBe(true);
      expect(checksInserted).toBeGreaterThan(0);
      const original = await run(wasm, fn, input);
      const instrumented = await run(bytes, fn, input);
      check(original.outcome);
      expect(instrumented.outcome).toEqual(original.outcome);
      expect(original.refuels).toBe(0);
      expect(instrumented.refuels).toBeGreaterThanOrEqual(1);
    });
  }
});

describe('large real-world modules', () => {
  it('playwright-core webp_codec.wasm (565 KB, Emscripten) still validates', async () => {
    const wasm = new Uint8Array(await readFile(new URL('../../node_modules/playwright-core/lib/webp_codec.wasm', import.meta.url)));
    const { bytes, functionsInstrumented } = instrument(wasm, { maxMemoryPages: 65536 });
    expect(functionsInstrumented).toBeGreaterThan(500);
    expect(WebAssembly.validate(bytes)).toBe(true);
  });

  // Emscripten builds from npm devDependencies: not Extism plugins, just big real modules.
  it.each([
    ['sql.js sql-wasm.wasm (SQLite)', '../../node_modules/sql.js/dist/sql-wasm.wasm', 1000],
    ['vscode-oniguruma onig.wasm', '../../node_modules/vscode-oniguruma/release/onig.wasm', 200],
  ])('%s still validates after instrumentation', async (_name, path, atLeast) => {
    const wasm = new Uint8Array(await readFile(new URL(path, import.meta.url)));
    const { bytes, functionsInstrumented, checksInserted } = instrument(wasm, { maxMemoryPages: 65536 });
    expect(functionsInstrumented).toBeGreaterThan(atLeast);
    expect(checksInserted).toBeGreaterThan(functionsInstrumented);
    expect(WebAssembly.validate(bytes)).toBe(true);
  });
});
