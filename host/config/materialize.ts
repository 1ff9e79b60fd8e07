/**
 * From a validated config to live parts: loaded WASM plugins, imported JS
 * hook modules and shell hooks, ready to hand to `createHost`.
 */
import { basename, fileUrl } from '../agent/paths.js';
import { WasmhooksError, messageOf } from '../errors.js';
import { HOOK_EVENT_NAMES, type HookEventName, type HooksConfig } from '../hooks/types.js';
import type { PluginContribution } from '../tools/types.js';
import type { WasmPlugin } from '../plugins/plugin.js';
import { shellHooks } from '../shell/hook.js';
import type { ResolvedConfig } from './load.js';
import type { MaterializeOptions } from './entry.js';
import { loadTrustedPlugin, trustContext } from './trust.js';
import { isRecord } from '../json.js';

export type { MaterializeOptions } from './entry.js';

export interface ConfigParts {
  plugins: WasmPlugin[];
  /** The shell hooks as one contribution, when there are any. */
  shell?: PluginContribution;
  /** JS hooks of every hook module, merged in file order. */
  hooks: HooksConfig;
  /** Closes the plugins' sandboxes. */
  close(): Promise<void>;
}


const EXPECTED_MODULE = 'expected the module to export (default, or as `hooks`) an object like { PreToolUse: [{ matcher: "Bash", hooks: [async (input) => ({})] }] }';

/** Checks the shape of an imported hooks object; the registry checks the rest (events fired, timeouts). */
function asHooksConfig(value: unknown, where: string): HooksConfig {
  if (!isRecord(value)) throw new WasmhooksError('INVALID_CONFIG', `${where}: ${EXPECTED_MODULE}, got ${typeof value}`);
  for (const [event, groups] of Object.entries(value)) {
    if (!(HOOK_EVENT_NAMES as readonly string[]).includes(event)) {
      throw new WasmhooksError('INVALID_CONFIG', `${where}: "${event}" is not a hook event (expected one of ${HOOK_EVENT_NAMES.join(', ')})`);
    }
    if (!Array.isArray(groups)) throw new WasmhooksError('INVALID_CONFIG', `${where}: ${event}: expected an array of { matcher, hooks } groups`);
    groups.forEach((group: unknown, i) => {
      if (!isRecord(group) || !Array.isArray(group.hooks) || !group.hooks.every((h) => typeof h === 'function')) {
        throw new WasmhooksError('INVALID_CONFIG', `${where}: ${event}[${i}]: expected { matcher?, hooks: [function, …] }`);
      }
    });
  }
  return value as HooksConfig;
}

/** Imports one hook module and returns its hooks. */
async function importHookModule(entry: { module: string; export?: string }, where: string): Promise<HooksConfig> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(fileUrl(entry.module).href)) as Record<string, unknown>;
  } catch (error) {
    throw new WasmhooksError('INVALID_CONFIG', `${where}: cannot import ${entry.module}: ${messageOf(error)}`, { cause: error });
  }
  const name = entry.export ?? (mod.default !== undefined ? 'default' : 'hooks');
  if (!(name in mod)) {
    throw new WasmhooksError('INVALID_CONFIG', `${where}: ${entry.module} has no export "${name}"; ${EXPECTED_MODULE}`);
  }
  return asHooksConfig(mod[name], `${where} (${entry.module})`);
}

/** Concatenates hook groups per event, in order. */
export function mergeHooks(...configs: HooksConfig[]): HooksConfig {
  const out: HooksConfig = {};
  for (const config of configs) {
    for (const [event, groups] of Object.entries(config) as Array<[HookEventName, HooksConfig[HookEventName]]>) {
      out[event] = [...(out[event] ?? []), ...(groups ?? [])];
    }
  }
  return out;
}

/**
 * Loads everything a config names. On failure, whatever was loaded is closed.
 *
 * @example
 * const parts = await materializeConfig(await loadConfig('wasmhooks.json'));
 * const host = createHost({ plugins: [...parts.plugins, ...(parts.shell ? [parts.shell] : [])], hooks: parts.hooks });
 */
export async function materializeConfig(config: ResolvedConfig, options: MaterializeOptions = {}): Promise<ConfigParts> {
  const label = config.file === '<inline>' ? 'config' : basename(config.file);
  const plugins: WasmPlugin[] = [];
  const close = async () => {
    await Promise.all(plugins.map((p) => p.close()));
  };
  try {
    // The lock (wasmhooks.lock beside the file) and the signature policy apply to every entry.
    const trust = await trustContext(config, config.dir);
    for (const [i, entry] of (config.plugins ?? []).entries()) {
      plugins.push(await loadTrustedPlugin(entry, `${label}: plugins[${i}]`, trust, true, options));
    }
    const modules: HooksConfig[] = [];
    for (const [i, entry] of (config.hookModules ?? []).entries()) {
      modules.push(await importHookModule(entry, `${label}: hookModules[${i}]`));
    }
    const specs = config.shellHooks ?? [];
    return {
      plugins,
      ...(specs.length > 0 ? { shell: shellHooks(specs, { baseDir: config.dir }) } : {}),
      hooks: mergeHooks(...modules),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
