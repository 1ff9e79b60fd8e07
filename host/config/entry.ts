/** One configured plugin entry to a loaded plugin: the entry's source and options, a failure naming the entry. */
import { WasmhooksError, messageOf } from '../errors.js';
import { loadPlugin } from '../plugins/load.js';
import type { WasmPlugin } from '../plugins/plugin.js';
import type { PluginOptions } from '../plugins/options.js';
import type { PluginSource } from '../plugins/source.js';
import type { HostFunctions } from '../sandbox/host-functions.js';
import type { PluginEntry } from './schema.js';

/** The loading options a config entry sets (everything but its source). */
export function pluginOptions(entry: PluginEntry): PluginOptions {
  return {
    ...(entry.limits ? { limits: entry.limits } : {}),
    ...(entry.grants ? { grants: entry.grants } : {}),
    ...(entry.config ? { config: entry.config } : {}),
    ...(entry.failurePolicy ? { failurePolicy: entry.failurePolicy } : {}),
    ...(entry.isolation ? { isolation: entry.isolation } : {}),
    ...(entry.wasi !== undefined ? { wasi: entry.wasi } : {}),
    ...(entry.tools ? { tools: entry.tools } : {}),
    ...(entry.pluginName ? { pluginName: entry.pluginName } : {}),
    ...(entry.allowExceptions !== undefined ? { allowExceptions: entry.allowExceptions } : {}),
  };
}

/** What the embedding application adds to a config: code a JSON file cannot hold. */
export interface MaterializeOptions {
  /** Host functions on offer to plugins; each plugin gets those in its `grants.hostFunctions`. */
  hostFunctions?: HostFunctions;
}

/** Loads one configured plugin; a failure names the config entry. */
export async function loadConfiguredPlugin(entry: PluginEntry, where: string, options: MaterializeOptions = {}): Promise<WasmPlugin> {
  const pin = entry.sha256 ? { sha256: entry.sha256 } : {};
  const source: PluginSource =
    entry.name !== undefined ? { name: entry.name, ...pin }
    : entry.path !== undefined ? { path: entry.path, ...pin }
    : { url: entry.url!, sha256: entry.sha256! };
  try {
    return await loadPlugin(source, { ...pluginOptions(entry), ...(options.hostFunctions ? { hostFunctions: options.hostFunctions } : {}) });
  } catch (error) {
    const code = error instanceof WasmhooksError ? error.code : 'LOAD_FAILED';
    throw new WasmhooksError(code, `${where}: ${messageOf(error)}`, { cause: error });
  }
}
