// A plugin's load options have one schema each (host/plugins/options.ts, pluginOptionFields): a wasmhooks.json
// plugin entry and loadPlugin's options give each row of one table the same verdict, and a refusal names the
// field with the same words in both. The same table runs against the build on Node, Deno and Bun in
// test/xrt/plugins.xrt.ts.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../host/config/load.js';
import { loadPlugin } from '../../host/plugins/load.js';
import { parsePluginOptions } from '../../host/plugins/options.js';
import { extismVowels } from '../anylang/helpers.js';
import { PLUGIN_OPTION_ROWS, pluginOptionProblems } from './plugin-option-cases.js';

const where = { file: 'wasmhooks.json', dir: '/' };

describe('a plugin entry\'s options, in wasmhooks.json and in loadPlugin options', () => {
  it('get one verdict from both, and a refusal names its field with the same words', async () => {
    expect(PLUGIN_OPTION_ROWS.filter((r) => r.refused).length).toBeGreaterThan(20);
    const dir = fileURLToPath(new URL('../fixtures/', import.meta.url));
    expect(await pluginOptionProblems({ parseConfig, loadPlugin, vowels: await extismVowels(), dir })).toEqual([]);
  });

  it('leaves the defaults to the loader: a parsed config keeps what was written', () => {
    const config = parseConfig({ plugins: [{ path: 'v.wasm', grants: { configKeys: ['mode'] }, limits: { fuel: 5 } }] }, where);
    expect(config.plugins?.[0]).toEqual({ path: '/v.wasm', grants: { configKeys: ['mode'] }, limits: { fuel: 5 } });
    expect(parsePluginOptions('p', { grants: { configKeys: ['mode'] } })).toMatchObject({
      grants: { networkHosts: [], filePaths: [], configKeys: ['mode'], hostFunctions: [] },
      isolation: 'in-thread',
      limits: {},
    });
  });

  it('lists every problem of one entry, each with its field', () => {
    expect(() => parsePluginOptions('p', { limits: { fuel: 0 }, isolation: 'x' })).toThrow(
      'invalid options for plugin p: limits.fuel: expected a positive integer, got 0; isolation: expected "in-thread" or "worker", got "x"',
    );
  });
});
