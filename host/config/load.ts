/**
 * Reading `wasmhooks.json`: parse, validate, and resolve every relative path
 * against the file's folder, so the rest of the host sees absolute paths only.
 */
import { basename, defaultCwd, resolvePath } from '../agent/paths.js';
import { WasmhooksError, messageOf } from '../errors.js';
import { sha256 } from '../sandbox/digest.js';
import { issueLines } from './issues.js';
import { readRegularFile } from './read-file.js';
import { configSchemas, type ConfigFile, type HookModuleEntry, type PluginEntry } from './schema.js';

export const CONFIG_FILE_NAME = 'wasmhooks.json';

/** A config is a few KiB; past 4 MiB it is refused unread (one in a cloned repository could be any size). */
export const MAX_CONFIG_BYTES = 4 << 20;

/** A validated config with absolute paths, and where it came from. */
export interface ResolvedConfig extends Omit<ConfigFile, 'hookModules' | '$schema'> {
  /** Absolute path of the file (or `<inline>`). */
  file: string;
  /** Folder that relative paths were resolved against. */
  dir: string;
  /** Normalised to `{ module, export? }` with an absolute module path. */
  hookModules?: Array<{ module: string; export?: string }>;
  /** sha256 (hex) of the file's bytes as read and parsed (`loadConfig` only): what the CLI's workspace trust is bound to. */
  sha256?: string;
}

const abs = (dir: string, path: string) => resolvePath(dir, path);

function resolvePlugin(dir: string, entry: PluginEntry): PluginEntry {
  const out: PluginEntry = { ...entry };
  if (entry.path !== undefined) out.path = abs(dir, entry.path);
  if (entry.signature !== undefined && !/^https?:\/\//i.test(entry.signature)) out.signature = abs(dir, entry.signature);
  const paths = entry.grants?.filePaths;
  if (paths !== undefined) {
    // Host-side paths resolve; the plugin-visible side of a mapping stays as written.
    out.grants = {
      ...entry.grants,
      filePaths: Array.isArray(paths)
        ? paths.map((p) => abs(dir, p))
        : Object.fromEntries(Object.entries(paths).map(([host, guest]) => [abs(dir, host), guest])),
    };
  }
  const wasi = entry.wasi;
  if (typeof wasi === 'object' && wasi.preopens) {
    out.wasi = { ...wasi, preopens: Object.fromEntries(Object.entries(wasi.preopens).map(([guest, host]) => [guest, abs(dir, host)])) };
  }
  return out;
}

const resolveModule = (dir: string, entry: HookModuleEntry) =>
  typeof entry === 'string'
    ? { module: abs(dir, entry) }
    : { module: abs(dir, entry.module), ...(entry.export ? { export: entry.export } : {}) };

/**
 * Validates a parsed config. `file` names it in errors; `dir` is the base of
 * relative paths.
 *
 * @example
 * const config = parseConfig(JSON.parse(text), { file: 'wasmhooks.json', dir: process.cwd() });
 */
export function parseConfig(raw: unknown, where: { file: string; dir: string }): ResolvedConfig {
  const parsed = configSchemas().configSchema.safeParse(raw);
  const label = where.file === '<inline>' ? 'config' : basename(where.file);
  if (!parsed.success) {
    const lines = issueLines(parsed.error.issues, raw).map((line) => `${label}: ${line}`);
    throw new WasmhooksError(
      'INVALID_CONFIG',
      lines.length === 1 ? lines[0]! : `${where.file} has ${lines.length} errors:\n  ${lines.join('\n  ')}`,
    );
  }
  const { $schema: _schema, hookModules, plugins, shellHooks, ...rest } = parsed.data;
  const dir = where.dir;
  return {
    ...rest,
    file: where.file,
    dir,
    ...(plugins ? { plugins: plugins.map((p) => resolvePlugin(dir, p)) } : {}),
    ...(hookModules ? { hookModules: hookModules.map((m) => resolveModule(dir, m)) } : {}),
    ...(shellHooks ? { shellHooks: shellHooks.map((h) => ({ ...h, cwd: h.cwd === undefined ? dir : abs(dir, h.cwd) })) } : {}),
  };
}

/** Reads and validates a config file. Errors name the file, the path inside it and what was expected. */
export async function loadConfig(path: string): Promise<ResolvedConfig> {
  const file = resolvePath(defaultCwd(), path);
  let bytes: Uint8Array;
  try {
    // A FIFO or a device (`--config /dev/zero`, a link in a cloned repository) is no config.
    bytes = await readRegularFile(file, MAX_CONFIG_BYTES);
  } catch (error) {
    throw new WasmhooksError('INVALID_CONFIG', `cannot read config ${path}: ${messageOf(error)}`, { cause: error });
  }
  const text = new TextDecoder().decode(bytes);
  const digest = await sha256(bytes);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new WasmhooksError('INVALID_CONFIG', `${basename(file)}: not valid JSON: ${messageOf(error)}`, { cause: error });
  }
  return { ...parseConfig(raw, { file, dir: resolvePath(file, '..') }), sha256: digest };
}

/** `dir/wasmhooks.json` when it exists. */
export async function findConfig(dir: string): Promise<string | undefined> {
  const candidate = resolvePath(resolvePath(defaultCwd(), dir), CONFIG_FILE_NAME);
  const { stat } = await import('node:fs/promises');
  try {
    return (await stat(candidate)).isFile() ? candidate : undefined;
  } catch {
    return undefined;
  }
}
