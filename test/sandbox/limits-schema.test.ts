// A plugin's limits have one schema (host/sandbox/limits-schema.ts): createSandbox, createRawSandbox,
// loadPlugin's options and a wasmhooks.json plugin entry give each row of one table the same verdict and the
// same line, except Infinity for timeoutMs and fuel, which only the sandbox API takes. The same table runs
// against the build on Node, Deno and Bun in test/xrt/plugins.xrt.ts.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../host/config/load.js';
import { loadPlugin } from '../../host/plugins/load.js';
import { createSandbox } from '../../host/sandbox/index.js';
import { createRawSandbox } from '../../host/sandbox/raw.js';
import { WasmhooksError } from '../../host/errors.js';
import { extismVowels } from '../anylang/helpers.js';
import { LIMIT_ROWS, limitProblems } from './limit-cases.ts';

describe('a plugin\'s limits, through createSandbox, createRawSandbox, loadPlugin and wasmhooks.json', () => {
  it('get one verdict and one line from all of them (Infinity: the sandbox API only)', async () => {
    expect(LIMIT_ROWS.filter((r) => r.refused && !r.sandboxAccepts).length).toBeGreaterThan(25);
    const dir = fileURLToPath(new URL('../fixtures/', import.meta.url));
    expect(await limitProblems({ parseConfig, loadPlugin, createSandbox, createRawSandbox, vowels: await extismVowels(), dir })).toEqual([]);
  });

  it('lists every bad limit of one call, each with its path and value', async () => {
    const error = await createSandbox(await extismVowels(), { limits: { fuel: 0.5, maxTableElements: 0, timout: 5 } as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as WasmhooksError).message).toBe(
      'invalid sandbox options: limits.fuel: expected a positive integer or Infinity, got 0.5; limits.maxTableElements: expected a positive integer, got 0; limits.timout: unknown field (check its spelling, or remove it)',
    );
  });
});
