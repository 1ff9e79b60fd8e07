/**
 * From the command line and `wasmhooks.json` to a running host: config
 * found and validated, plugins loaded, flags applied over the file.
 */
import { resolve } from 'node:path';
import { findConfig, loadConfig, type ResolvedConfig } from '../config/load.js';
import { materializeConfig, mergeHooks, type ConfigParts } from '../config/materialize.js';
import { loadTrustedPlugin, trustContext } from '../config/trust.js';
import { WasmhooksError } from '../errors.js';
import { createHost, type Host } from '../host.js';
import type { HostOptions } from '../host-options.js';
import type { HooksConfig } from '../hooks/types.js';
import type { PluginContribution, ToolHandler } from '../tools/types.js';
import { resolveModel } from '../models/resolve.js';
import type { Model } from '../models/types.js';
import type { CanUseTool, PermissionMode } from '../permissions/types.js';
import type { WasmPlugin } from '../plugins/plugin.js';
import { CliError, EXIT } from './exit.js';
import { sourceOf } from './plugin-source.js';
import { checkConfiguredGuards, workspaceParts, type WorkspaceFlags } from './workspace.js';
import { checkWorkspaceTrust } from './workspace-trust.js';
import { MISSING, shellFilesChanged } from './trust-files.js';
import type { PluginEntry } from '../config/schema.js';
import { checkedBeforeEachRun, withoutApproval } from '../hooks/wrap.js';
import type { CliIO } from './io.js';
import { demoModel, loadScript } from './script.js';

/** Flags shared by `run` and `serve`. */
export interface HostFlags {
  config?: string;
  model?: string;
  baseUrl?: string;
  script?: string;
  plugin?: string[];
  permissionMode?: PermissionMode;
  maxTurns?: number;
  systemPrompt?: string;
}

export interface HostSetup {
  host: Host;
  model: Model;
  config?: ResolvedConfig;
  plugins: WasmPlugin[];
  /** The workspace tools offered (empty with --no-tools, and for `mcp`). */
  tools: ToolHandler[];
  close(): Promise<void>;
}

/** Config errors are the operator's input, like flags: reported as usage errors. */
function asCliError(error: unknown): never {
  if (error instanceof WasmhooksError && error.code === 'INVALID_CONFIG') throw new CliError(error.message, EXIT.USAGE);
  throw error;
}

export async function readConfig(flags: HostFlags, io: CliIO): Promise<ResolvedConfig | undefined> {
  const path = flags.config ? resolve(io.cwd, flags.config) : await findConfig(io.cwd);
  if (!path) return undefined;
  return loadConfig(path).catch(asCliError);
}

async function pickModel(flags: HostFlags, config: ResolvedConfig | undefined, io: CliIO): Promise<Model> {
  const spec = flags.model ?? config?.model ?? 'scripted';
  if (flags.script && spec !== 'scripted') throw new CliError(`--script only applies to the scripted model, not ${spec}`, EXIT.USAGE);
  const script = flags.script ? await loadScript(resolve(io.cwd, flags.script)) : undefined;
  try {
    return resolveModel(spec, { env: io.env, scripted: () => script ?? demoModel(), ...(flags.baseUrl ? { baseURL: flags.baseUrl } : {}) });
  } catch (error) {
    if (error instanceof WasmhooksError && error.code === 'INVALID_CONFIG') {
      throw new CliError(`${flags.model ? '--model' : 'model'}: ${error.message}`, EXIT.USAGE);
    }
    throw error;
  }
}

/**
 * Builds a host. `extra.hooks` (the recorder, say) are registered first, so
 * they see each hook input before any configured hook changes it.
 */
export async function setupHost(
  flags: HostFlags,
  io: CliIO,
  extra: { hooks?: HooksConfig; canUseTool?: CanUseTool; model?: Model; workspace?: WorkspaceFlags } = {},
): Promise<HostSetup> {
  const loaded = await readConfig(flags, io);
  // Before anything of the file runs: its code-running and permission-widening parts need the user's trust.
  const checked = loaded ? await checkWorkspaceTrust(loaded, io.env, io.cwd) : undefined;
  const trusted = checked !== undefined;
  // A trusted config's unpinned plugins load exactly the bytes the trust check hashed (a file swapped in between
  // would load with the trust's power to approve).
  const config = loaded && checked ? pinTrusted(loaded, checked.files) : loaded;
  if (extra.workspace && config) checkConfiguredGuards(extra.workspace, config.plugins ?? [], trusted, config.file);
  const model = extra.model ?? (await pickModel(flags, config, io));
  const parts: ConfigParts = config
    ? await materializeConfig(config).catch(asCliError)
    : { plugins: [], hooks: {}, close: async () => {} };
  const added: WasmPlugin[] = [];
  let host: Host | undefined;
  const closeAll = async () => {
    await Promise.all([parts.close(), ...added.map((p) => p.close()), host?.close()]);
  };
  try {
    // Not config entries, so not in the lock; requireSignature still applies to them.
    const trust = await trustContext(config, io.cwd);
    for (const [i, path] of (flags.plugin ?? []).entries()) {
      added.push(await loadTrustedPlugin(sourceOf(path, io.cwd), `--plugin ${flags.plugin?.[i]}`, trust, false));
    }
    const named = new Set([...(config?.plugins ?? []).map((p) => p.name), ...(flags.plugin ?? [])].filter((n) => n !== undefined));
    const workspace = extra.workspace ? await workspaceParts(extra.workspace, io.cwd, named) : { tools: [], readOnly: [], guards: [] };
    for (const guard of workspace.guards) added.push(await loadTrustedPlugin(guard.entry, guard.where, trust, false));
    // The plugins of a config the user has not trusted cannot approve a call: their allow meets the question.
    const note = config && !trusted ? `${config.file} is not trusted, so its plugins' allow counts as no answer (wasmhooks trust ${config.file})` : undefined;
    const own = note ? parts.plugins.map((p) => withoutApproval(p, note)) : parts.plugins;
    // A trusted config's shell hooks run their scripts only as they were trusted (they are read at every call).
    const shell = parts.shell && config && checked ? checkedBeforeEachRun(parts.shell, () => shellFilesChanged(config, checked)) : parts.shell;
    const plugins: PluginContribution[] = [...own, ...added, ...(shell ? [shell] : [])];
    const options: HostOptions = {
      model,
      plugins,
      ...(workspace.tools.length > 0 ? { tools: workspace.tools } : {}),
      hooks: mergeHooks(extra.hooks ?? {}, parts.hooks),
      ...pick('canUseTool', extra.canUseTool),
      cwd: io.cwd,
      ...pick('permissionMode', flags.permissionMode ?? config?.permissionMode),
      ...pick('maxTurns', flags.maxTurns ?? config?.maxTurns),
      ...pick('maxMessages', config?.maxMessages),
      ...pick('maxConversationChars', config?.maxConversationChars),
      ...pick('modelTimeoutMs', config?.modelTimeoutMs),
      ...pick('systemPrompt', flags.systemPrompt ?? config?.systemPrompt),
      ...pick('allowedTools', workspace.readOnly.length > 0 ? [...(config?.allowedTools ?? []), ...workspace.readOnly] : config?.allowedTools),
      ...pick('disallowedTools', config?.disallowedTools),
      ...pick('mcpServers', config?.mcpServers),
    };
    host = createHost(options);
    return { host, model, ...(config ? { config } : {}), plugins: [...parts.plugins, ...added], tools: workspace.tools, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** `config` with each plugin loaded by path and not pinned pinned to the sha256 the trust check saw. */
function pinTrusted(config: ResolvedConfig, files: Readonly<Record<string, string>>): ResolvedConfig {
  if (!config.plugins) return config;
  const pin = (entry: PluginEntry): PluginEntry => {
    const digest = entry.path !== undefined && entry.sha256 === undefined ? files[entry.path] : undefined;
    return digest !== undefined && digest !== MISSING ? { ...entry, sha256: digest } : entry;
  };
  return { ...config, plugins: config.plugins.map(pin) };
}

function pick<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
