/**
 * Plugins published as npm packages: package.json carries a `wasmhooks`
 * field naming the .wasm (and optionally its signature), inside the package.
 *
 * @example
 * { "name": "@acme/guard", "version": "1.2.0", "wasmhooks": { "wasm": "build/guard.wasm", "signature": "build/guard.wasm.sig" } }
 * { "name": "@acme/guard", "version": "1.2.0", "wasmhooks": "build/guard.wasm" }
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { WasmhooksError, messageOf } from '../errors.js';

const inside = z.string().min(1).refine((p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..'), 'must be a path inside the package');

const packageJsonSchema = z.object({
  name: z.string().min(1),
  version: z.string().min(1),
  wasmhooks: z.union([inside, z.object({ wasm: inside, signature: inside.optional() }).strict()], {
    error: 'expected "wasmhooks": "path/to/plugin.wasm" or { "wasm": …, "signature": … }',
  }),
});

export interface PluginPackage {
  name: string;
  version: string;
  /** Absolute path of the .wasm. */
  wasm: string;
  /** Absolute path of its signature, when the package names one. */
  signature?: string;
}

/** Reads a plugin package's folder. */
export async function readPluginPackage(dir: string): Promise<PluginPackage> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  } catch (error) {
    throw new WasmhooksError('LOAD_FAILED', `cannot read ${join(dir, 'package.json')}: ${messageOf(error)}`);
  }
  const parsed = packageJsonSchema.safeParse(raw);
  if (!parsed.success) {
    throw new WasmhooksError('LOAD_FAILED', `${join(dir, 'package.json')} is not a wasmhooks plugin package: ${z.prettifyError(parsed.error)}`);
  }
  const field = typeof parsed.data.wasmhooks === 'string' ? { wasm: parsed.data.wasmhooks } : parsed.data.wasmhooks;
  return {
    name: parsed.data.name,
    version: parsed.data.version,
    wasm: resolve(dir, field.wasm),
    ...(field.signature ? { signature: resolve(dir, field.signature) } : {}),
  };
}
