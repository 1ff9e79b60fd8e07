// wasmhooks.json: an Extism plugin's exports as tools, a WASI grant with a
// preopen relative to the file, and host functions from the embedder.
import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig, materializeConfig, parseConfig } from '../../host/config/index.js';
import type { HostFunction } from '../../host/sandbox/host-functions.js';

const fixture = (p: string) => fileURLToPath(new URL(`../fixtures/${p}`, import.meta.url));
const W = { file: '<inline>', dir: '/tmp' };
const ctx = { signal: new AbortController().signal, toolUseId: 't1', context: {} } as never;
const lookup: HostFunction = { params: ['i64'], results: ['i64'], fn: (c, o) => c.store(`host says ${c.readText(o as bigint)}`) };

describe('config: plugins in any language', () => {
  it('loads an Extism plugin as tools and a WASI plugin with a relative preopen', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'anylang-config-'));
    await mkdir(join(dir, 'rules'));
    await writeFile(join(dir, 'rules', 'policy.txt'), 'no rm');
    await copyFile(fixture('extism-vowels/build/extism-vowels.wasm'), join(dir, 'vowels.wasm'));
    await copyFile(fixture('wasi/build/guard.wasm'), join(dir, 'guard.wasm'));
    await writeFile(
      join(dir, 'wasmhooks.json'),
      JSON.stringify({
        plugins: [
          { path: 'vowels.wasm', pluginName: 'vowels', tools: [{ name: 'count_vowels', input: 'text' }, { name: 'ask_host', input: 'text' }], grants: { hostFunctions: ['lookup'] } },
          { path: 'guard.wasm', wasi: { env: { MODE: 'strict' }, preopens: { '/rules': 'rules' } } },
        ],
      }),
    );
    const parts = await materializeConfig(await loadConfig(join(dir, 'wasmhooks.json')), { hostFunctions: { lookup } });
    try {
      const [vowels, guard] = parts.plugins;
      expect(vowels!.tools().map((t) => t.name)).toEqual(['count_vowels', 'ask_host']);
      expect(await vowels!.callTool('ask_host', { input: 'hi' }, ctx)).toEqual({ content: 'host says hi', isError: false });
      expect(guard!.pin.wasi).toEqual({ args: [], env: ['MODE=strict'], preopens: { '/rules': join(dir, 'rules') } });
      const read = await guard!.sandbox.call('read_file', new TextEncoder().encode('/rules/policy.txt'));
      expect(read.ok && new TextDecoder().decode(read.output)).toBe('read 5 bytes: no rm');
    } finally {
      await parts.close();
    }
  });

  it('explains bad wasi and tools entries', () => {
    expect(() => parseConfig({ plugins: [{ path: 'a.wasm', wasi: 'yes' }] }, W)).toThrow(/plugins\[0\]\.wasi.*expected true, false or/s);
    expect(() => parseConfig({ plugins: [{ path: 'a.wasm', wasi: { preopens: { rules: './r' } } }] }, W)).toThrow(/preopens: expected absolute plugin paths/);
    expect(() => parseConfig({ plugins: [{ path: 'a.wasm', tools: [{ name: 'bad name' }] }] }, W)).toThrow(/1-64 letters/);
  });
});
