/** One configured plugin entry to a loaded plugin: the entry's source and options, a failure naming the entry. */
import { WasmhooksError, messageOf } from '../errors.js';
import { loadPlugin } from '../plugins/load.js';
import type { WasmPlugin } from '../plugins/plugin.js';
import type { PluginSource } from '../plugins/source.js';
import type { PluginEntry } from './schema.js';

function pluginOptions(entry: PluginEntry) {
  return {
    ...(entry.limits ? { limits: entry.limits } : {}),
    ...(entry.grants ? { grants: entry.grants } : {}),
    ...(entry.config ? { config: entry.config } : {}),
    ...(entry.failurePolicy ? { failurePolicy: entry.failurePolicy } : {}),
    ...(entry.isolation ? { isolation: entry.isolation } : {}),
  };
}

/** Loads one configured plugin; a failure names the config entry. */
export async function loadConfiguredPlugin(entry: PluginEntry, where: string): Promise<WasmPlugin> {
  const pin = entry.sha256 ? { sha256: entry.sha256 } : {};
  const source: PluginSource =
    entry.name !== undefined ? { name: entry.name, ...pin }
    : entry.path !== undefined ? { path: entry.path, ...pin }
    : { url: entry.url!, sha256: entry.sha256! };
  try {
    return await loadPlugin(source, pluginOptions(entry));
  } catch (error) {
    const code = error instanceof WasmhooksError ? error.code : 'LOAD_FAILED';
    throw new WasmhooksError(code, `${where}: ${messageOf(error)}`, { cause: error });
  }
}
