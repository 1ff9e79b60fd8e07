/**
 * Loading a plugin: bytes (pinned) → sandbox (instrumented) → `describe`
 * (validated, protocol major checked, grants compared) → a `WasmPlugin`.
 */
import { WasmhooksError, type WasmhooksErrorCode } from '../errors.js';
import { decodePluginInfo } from '../protocol/codec.js';
import { createSandbox } from '../sandbox/index.js';
import type { PluginFailure } from '../sandbox/types.js';
import { checkGrants, grantedPaths } from './grants.js';
import { parsePluginOptions, type PluginOptions } from './options.js';
import { resolveSource, type PluginSource } from './source.js';
import { WasmPlugin } from './plugin.js';

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

function checkMagic(origin: string, bytes: Uint8Array): void {
  if (WASM_MAGIC.every((b, i) => bytes[i] === b)) return;
  const head = [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  throw new WasmhooksError(
    'INVALID_WASM',
    `plugin ${origin} is not a WebAssembly module (${bytes.length} bytes, starting ${head || '<empty>'}; expected 00 61 73 6d). Point at the built .wasm file.`,
  );
}

const failureCode = (failure: PluginFailure): WasmhooksErrorCode =>
  failure.code === 'PROTOCOL_MISMATCH' || failure.code === 'BAD_OUTPUT' ? failure.code : 'LOAD_FAILED';

/**
 * Loads, sandboxes and validates a plugin.
 *
 * @example
 * const guard = await loadPlugin({ path: 'plugins/guard-shell/build/guard-shell.wasm' });
 * const host = createHost({ plugins: [guard] });
 */
export async function loadPlugin(source: PluginSource, options?: PluginOptions): Promise<WasmPlugin> {
  const resolved = await resolveSource(source);
  const { origin, bytes } = resolved;
  const opts = parsePluginOptions(origin, options);
  checkMagic(origin, bytes);

  const progress = { current: undefined as ((message: string) => void) | undefined };
  const config = Object.fromEntries(
    Object.entries(opts.config).filter(([key]) => opts.grants.configKeys.includes(key)),
  );
  const sandbox = await createSandbox(bytes, {
    name: origin,
    limits: opts.limits,
    isolation: opts.isolation,
    allowExceptions: opts.allowExceptions,
    config,
    ...(opts.grants.networkHosts.length > 0 ? { allowedHosts: opts.grants.networkHosts } : {}),
    ...(Object.keys(grantedPaths(opts.grants)).length > 0 ? { allowedPaths: grantedPaths(opts.grants) } : {}),
    host: { onProgress: (message) => progress.current?.(message) },
  });

  try {
    if (!sandbox.exports.includes('describe')) {
      throw new WasmhooksError(
        'MISSING_EXPORT',
        `plugin ${origin} does not export "describe" (it exports: ${sandbox.exports.join(', ') || 'nothing'}). Build it with the wasmhooks guest SDK, which provides describe, hook and tool.`,
      );
    }
    const described = await sandbox.call('describe', new Uint8Array());
    if (!described.ok) {
      throw new WasmhooksError(
        failureCode(described.failure),
        `plugin ${origin}: describe failed (${described.failure.code}): ${described.failure.message}`,
      );
    }
    const info = decodePluginInfo(described.output);
    if (!info.ok) {
      throw new WasmhooksError(failureCode(info.failure), `plugin ${origin}: ${info.failure.message}`);
    }
    const needed = [
      ...(info.value.hooks.length > 0 ? ['hook'] : []),
      ...(info.value.tools.length > 0 ? ['tool'] : []),
    ].filter((name) => !sandbox.exports.includes(name));
    if (needed.length > 0) {
      throw new WasmhooksError(
        'MISSING_EXPORT',
        `plugin ${origin} (${info.value.name}) declares ${needed.map((n) => (n === 'hook' ? 'hooks' : 'tools')).join(' and ')} but does not export ${needed.map((n) => `"${n}"`).join(' and ')}`,
      );
    }
    checkGrants(`${info.value.name} (${origin})`, info.value.grants, opts.grants);
    return new WasmPlugin({ info: info.value, sandbox, sha256: resolved.sha256, origin, options: opts, progress });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}
