// An Extism tool entry has one schema (host/plugins/extism-tools.ts): wasmhooks.json's `tools` and loadPlugin's
// `tools` option give each entry of one table the same verdict, and a refusal names the field in both. The same
// table runs against the build on Node, Deno and Bun in test/xrt/anylang.xrt.ts.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../host/config/load.js';
import { loadPlugin } from '../../host/plugins/load.js';
import { extismVowels } from '../anylang/helpers.js';
import { EXTISM_TOOL_ROWS, extismToolVerdicts } from './extism-tool-cases.js';

describe('an Extism tool entry, in wasmhooks.json and in loadPlugin options', () => {
  it('gets one verdict from both, and a refusal names its field with the same words', async () => {
    expect(EXTISM_TOOL_ROWS.filter((r) => r.refused).length).toBeGreaterThan(10);
    expect(await extismToolVerdicts({ parseConfig, loadPlugin, vowels: await extismVowels() })).toEqual([]);
  });

  it('fills the loader\'s defaults in the parsed config too (input json; description left to the loader)', () => {
    const config = parseConfig({ plugins: [{ path: 'v.wasm', tools: [{ name: 'count_vowels' }] }] }, { file: 'wasmhooks.json', dir: '/' });
    expect(config.plugins?.[0]?.tools).toEqual([{ name: 'count_vowels', input: 'json' }]);
  });

  it('says what it expected and what it got, in the config file', () => {
    expect(() => parseConfig({ plugins: [{ path: 'v.wasm', tools: [{ name: 'a' }, { name: 'a' }] }] }, { file: 'wasmhooks.json', dir: '/' })).toThrow(
      'wasmhooks.json: plugins[0].tools[1].name: expected a name unique in this plugin (tools[0] is also named "a"), got "a"',
    );
  });
});
