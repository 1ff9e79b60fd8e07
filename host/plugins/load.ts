/**
 * Loading a plugin: bytes (pinned) → sandbox (instrumented) → `describe`
 * (validated, protocol major checked, grants compared) → a `WasmPlugin`.
 */
import { WasmhooksError, type WasmhooksErrorCode } from '../errors.js';
import { decodePluginInfo, type PluginInfo } from '../protocol/codec.js';
import { warmUp } from '../sandbox/extism.js';
import { logLevel } from '../sandbox/plugin-messages.js';
import { createOwnedSandbox } from '../sandbox/index.js';
import type { PluginFailure } from '../failure.js';
import { LOAD_MIN_TIMEOUT_MS, type SandboxedModule } from '../sandbox/types.js';
import { wasiGrant } from '../sandbox/wasi/options.js';
import { extismInfo, nameFromOrigin } from './extism-tools.js';
import { checkPluginIdentity } from './identity.js';
import { checkGrants, grantedHostFunctions, grantedPaths } from './grants.js';
import { parsePluginOptions, type PluginOptions } from './options.js';
import { describeSource, isWasm, parseSource, readSource, type PluginSource } from './source.js';
import { WasmPlugin, type WasmPluginParts } from './plugin.js';
import { returnCodeCheck } from './return-code.js';


/**
 * Refuses bytes that are not wasm. What they were (size, first bytes: an HTML error page says `3c 21 44 4f`)
 * is told for bytes and downloads only: a file's are not, since `POST /plugins` takes any path on the server,
 * and its answer would read out the size and first bytes of every file the server can open (`/etc/hostname`
 * whole, `/proc/self/environ`'s first variable). Whoever loads a local file can look at it there.
 */
function checkMagic(origin: string, bytes: Uint8Array, file: boolean): void {
  if (isWasm(bytes)) return;
  const head = [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  const what = file ? (bytes.length === 0 ? 'it is empty' : 'it does not start with 00 61 73 6d') : `${bytes.length} bytes, starting ${head || '<empty>'}; expected 00 61 73 6d`;
  throw new WasmhooksError('INVALID_WASM', `plugin ${origin} is not a WebAssembly module (${what}). Point at the built .wasm file.`);
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
  const parsed = parseSource(source);
  const opts = parsePluginOptions(describeSource(parsed), options);
  // Extism loads (and builds its warm-up plugin) while the plugin's files are read and hashed.
  if (opts.isolation === 'in-thread') void warmUp();
  const resolved = await readSource(parsed);
  const { origin, bytes } = resolved;
  checkMagic(origin, bytes, 'path' in parsed);

  const logs: WasmPluginParts['logs'] = new Set();
  const config = Object.fromEntries(
    Object.entries(opts.config).filter(([key]) => opts.grants.configKeys.includes(key)),
  );
  const hostFunctions = grantedHostFunctions(origin, bytes, opts);
  // The load's signal (a POST /plugins whose client left or whose time ran out) ends a large module's
  // off-thread validation and instrumentation too, worker and all.
  const signal = 'signal' in parsed ? parsed.signal : undefined;
  // The bytes are this load's own (read here, or copied from the caller's by readSource), their digest checked
  // against the pin: the sandbox takes them over, neither copied nor hashed again.
  const sandbox = await createOwnedSandbox(
    bytes,
    {
      ...(signal ? { signal } : {}),
      name: origin,
      limits: opts.limits,
      isolation: opts.isolation,
      allowExceptions: opts.allowExceptions,
      config,
      ...(opts.grants.networkHosts.length > 0 ? { allowedHosts: opts.grants.networkHosts } : {}),
      ...(Object.keys(grantedPaths(opts.grants)).length > 0 ? { allowedPaths: grantedPaths(opts.grants) } : {}),
      host: {
        onLog: (level, message) => {
          const known = logLevel(level);
          for (const listener of logs) listener(known, message);
        },
      },
      ...(opts.wasi !== undefined ? { wasi: opts.wasi } : {}),
      ...(Object.keys(hostFunctions).length > 0 ? { hostFunctions } : {}),
    },
    resolved.sha256,
  );
  const parts = { sandbox, sha256: resolved.sha256, origin, options: opts, logs, wasi: wasiGrant(opts.wasi) };

  try {
    if (opts.tools) {
      const info = extismInfo(opts.pluginName ?? nameFromOrigin(origin), opts.tools, sandbox, origin);
      checkPluginIdentity(info, origin);
      return new WasmPlugin({ ...parts, info, extismTools: opts.tools });
    }
    return new WasmPlugin({ ...parts, info: await describe(sandbox, origin, opts) });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

/** Calls and validates `describe`, checks the exports it implies and the grants it asks for. */
async function describe(sandbox: SandboxedModule, origin: string, opts: ReturnType<typeof parsePluginOptions>): Promise<PluginInfo> {
  if (!sandbox.exports.includes('describe')) {
    throw new WasmhooksError(
      'MISSING_EXPORT',
      `plugin ${origin} does not export "describe" (it exports: ${sandbox.exports.join(', ') || 'nothing'}). Build it with the wasmhooks guest SDK, which provides describe, hook and tool, or use its exports as tools with the "tools" option.`,
    );
  }
  const timeoutMs = Math.max(sandbox.limits.timeoutMs, LOAD_MIN_TIMEOUT_MS);
  const described = await sandbox.call('describe', new Uint8Array(), { limits: { timeoutMs }, ...returnCodeCheck(origin, 'describe') });
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
  checkPluginIdentity(info.value, origin);
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
  return info.value;
}
