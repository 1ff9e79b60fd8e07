/**
 * Workspace trust for `wasmhooks.json`: a config can run code on this machine
 * (`hookModules` are imported into the CLI, `shellHooks` and stdio
 * `mcpServers` start processes), widen what runs unasked
 * (`permissionMode` `bypassPermissions`/`acceptEdits`, `allowedTools`, a
 * plugin's `allow`), grant plugins the user's files or the network, and raise
 * the loop's limits. A repository is cloned with its `wasmhooks.json`, so
 * `run`, `serve` and `mcp` refuse those parts until the user trusts that file
 * with `wasmhooks trust`, and its plugins' `allow` counts as no answer.
 * Trust is kept in the user's config directory, bound to the file's real
 * path, the sha256 of its bytes, the folder its paths resolve against and
 * the sha256 of each file it names that runs (trust-files.ts): any change
 * needs trusting again (as direnv's `allow` does for `.envrc`).
 */
import { chmod, mkdir, open, realpath, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import type { ResolvedConfig } from '../config/load.js';
import { messageOf } from '../errors.js';
import { parseJson } from '../json.js';
import { CliError, EXIT } from './exit.js';
import { LOOP_DEFAULTS } from '../agent/config.js';
import { DEFAULT_MCP_CALL_TIMEOUT_MS, DEFAULT_MCP_MAX_OUTPUT_CHARS, DEFAULT_MCP_START_TIMEOUT_MS } from '../mcp/config.js';
import { DEFAULT_LIMITS } from '../sandbox/types.js';
import { fingerprint, fingerprintChange, type Fingerprint } from './trust-files.js';

/** The trust file is small: a path and a hash per trusted config. A larger one is refused, not read. */
const MAX_TRUST_FILE_BYTES = 1 << 20;

const digest = z.string().regex(/^[0-9a-f]{64}$/);
const record = z.object({ sha256: digest, dir: z.string(), files: z.record(z.string(), z.string()) });
const trustFileSchema = z.object({
  version: z.union([z.literal(1), z.literal(2)]),
  /**
   * Real path of a config → what was trusted. A bare sha256 is a record of version 1 (before red14), which
   * did not cover the files the config names: it trusts nothing now, and says so.
   */
  trusted: z.record(z.string(), z.union([digest, record])),
});
type TrustFile = z.infer<typeof trustFileSchema>;
type Env = Readonly<Record<string, string | undefined>>;

/**
 * `$WASMHOOKS_CONFIG_DIR`, else `$XDG_CONFIG_HOME/wasmhooks`, else `~/.config/wasmhooks`. A relative
 * folder would be inside whatever folder the CLI runs in, a cloned repository that could ship its own
 * `trusted.json`: `WASMHOOKS_CONFIG_DIR` must be absolute, and a relative `XDG_CONFIG_HOME` is ignored
 * (as the XDG spec says).
 */
function userConfigDir(env: Env): string {
  const own = env['WASMHOOKS_CONFIG_DIR'];
  if (own) {
    if (!isAbsolute(own)) throw new CliError(`WASMHOOKS_CONFIG_DIR must be an absolute path (it is "${own}", which would be inside the folder the CLI runs in)`, EXIT.USAGE);
    return own;
  }
  const xdg = env['XDG_CONFIG_HOME'];
  const home = env['HOME'] && isAbsolute(env['HOME']) ? env['HOME'] : homedir();
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.config'), 'wasmhooks');
}

const trustFileOf = (env: Env) => join(userConfigDir(env), 'trusted.json');

/**
 * Limits a config may only lower unasked: above the default, a run costs the user's model account, memory
 * or time more (a plugin of 4 GiB and an hour per call, a thousand-fold maxTurns). Each is named with its default.
 */
function raised(values: object | undefined, defaults: object, prefix = ''): string[] {
  const base = defaults as Readonly<Record<string, unknown>>;
  return Object.entries(values ?? {})
    .filter(([key, value]) => typeof value === 'number' && typeof base[key] === 'number' && value > base[key])
    .map(([key, value]) => `${prefix}${key} ${String(value)} (above the default ${String(base[key])})`);
}

const LOOP_LIMITS = ['maxTurns', 'maxMessages', 'maxConversationChars', 'modelTimeoutMs'] as const;
const MCP_DEFAULTS = { timeoutMs: DEFAULT_MCP_CALL_TIMEOUT_MS, startTimeoutMs: DEFAULT_MCP_START_TIMEOUT_MS, maxOutputChars: DEFAULT_MCP_MAX_OUTPUT_CHARS };

/**
 * What a plugin entry opens beyond its sandbox and its defaults: the user's files, the network, the
 * embedder's functions, wasm exceptions (refused by default), limits above the host's.
 */
function widenedPlugin(entry: NonNullable<ResolvedConfig['plugins']>[number]): string[] {
  const out: string[] = [];
  const files = entry.grants?.filePaths;
  const paths = Array.isArray(files) ? files : Object.keys(files ?? {});
  if (paths.length > 0) out.push(`filePaths ${paths.join(', ')}`);
  if (entry.grants?.networkHosts?.length) out.push(`networkHosts ${entry.grants.networkHosts.join(', ')}`);
  if (entry.grants?.hostFunctions?.length) out.push(`hostFunctions ${entry.grants.hostFunctions.join(', ')}`);
  const preopens = typeof entry.wasi === 'object' ? Object.values(entry.wasi.preopens ?? {}) : [];
  if (preopens.length > 0) out.push(`wasi.preopens ${preopens.join(', ')}`);
  if (entry.allowExceptions === true) out.push('allowExceptions');
  return [...out, ...raised(entry.limits, DEFAULT_LIMITS, 'limits.')];
}

/**
 * The parts of `config` that run code, widen permissions, reach beyond the
 * sandbox or raise the loop's limits, named as a person finds them in the
 * file (empty: nothing to trust).
 */
export function trustedParts(config: ResolvedConfig): string[] {
  const parts: string[] = [];
  if (config.hookModules?.length) parts.push('hookModules (JavaScript imported into the CLI)');
  if (config.shellHooks?.length) parts.push('shellHooks (shell commands)');
  for (const [name, server] of Object.entries(config.mcpServers ?? {})) {
    if ('command' in server) parts.push(`mcpServers.${name} (starts ${JSON.stringify(server.command)})`);
  }
  if (config.permissionMode === 'bypassPermissions' || config.permissionMode === 'acceptEdits') {
    parts.push(`permissionMode "${config.permissionMode}"`);
  }
  if (config.allowedTools?.length) parts.push('allowedTools (tools that run without asking)');
  (config.plugins ?? []).forEach((entry, i) => {
    const widened = widenedPlugin(entry);
    if (widened.length > 0) parts.push(`plugins[${i}] grants (${widened.join('; ')})`);
  });
  for (const [name, server] of Object.entries(config.mcpServers ?? {})) {
    if (!('command' in server)) parts.push(...raised(server, MCP_DEFAULTS, `mcpServers.${name}.`));
  }
  parts.push(...raised(Object.fromEntries(LOOP_LIMITS.map((k) => [k, config[k]])), LOOP_DEFAULTS));
  return parts;
}

/** The trust file, or none; a damaged one trusts nothing and says so (fail closed). */
async function readTrust(file: string): Promise<{ data: TrustFile; problem?: string }> {
  const empty: TrustFile = { version: 1, trusted: {} };
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { data: empty };
    return { data: empty, problem: `cannot read ${file}: ${messageOf(error)}` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_TRUST_FILE_BYTES) return { data: empty, problem: `${file} is not a regular file of at most 1 MiB` };
    const buffer = new Uint8Array(info.size);
    const { bytesRead } = await handle.read(buffer, 0, info.size, 0);
    const json = parseJson(new TextDecoder().decode(buffer.subarray(0, bytesRead)), file);
    if (!json.ok) return { data: empty, problem: `${file} is damaged (${json.message}); nothing in it is trusted` };
    const parsed = trustFileSchema.safeParse(json.value);
    return parsed.success ? { data: parsed.data } : { data: empty, problem: `${file} is damaged (${parsed.error.issues[0]?.message ?? 'not a trust file'}); nothing in it is trusted` };
  } catch (error) {
    return { data: empty, problem: `${file} is damaged (${messageOf(error)}); nothing in it is trusted` };
  } finally {
    await handle.close();
  }
}

/** Why `config` as it is now is not what the user trusted (undefined: it is), with the trust file's problem if any. */
async function untrusted(config: ResolvedConfig, env: Env, cwd: string): Promise<{ why?: string; problem?: string; file: string; now?: Fingerprint }> {
  const file = trustFileOf(env);
  const { data, problem } = await readTrust(file);
  const path = await realpath(config.file).catch(() => config.file);
  const known = data.trusted[path];
  const tail = problem ? { problem } : {};
  if (known === undefined) return { why: 'is not trusted on this machine', file, ...tail };
  if (typeof known === 'string') return { why: 'was trusted by an earlier wasmhooks, which did not cover the files it names', file, ...tail };
  if (known.sha256 !== config.sha256) return { why: 'changed since it was trusted', file, ...tail };
  const now = await current(config, cwd);
  const change = fingerprintChange(known, now);
  return change ? { why: change, file, ...tail } : { file, now };
}

/** The fingerprint of what the config runs now; a named file that cannot be read is a usage error naming it. */
async function current(config: ResolvedConfig, cwd: string): Promise<Fingerprint> {
  return fingerprint(config, cwd).catch((error: unknown) => {
    throw new CliError(messageOf(error), EXIT.USAGE);
  });
}

/**
 * Whether the user trusted `config` as it is now: its bytes at this real
 * path, the folder its paths resolve against, and the files it names that
 * run: then the fingerprint checked (the named files' sha256, to load
 * exactly those bytes). Throws a usage error naming the file, its untrusted
 * parts and what changed when it has such parts and is not trusted. A config
 * with none (or not read from a file) passes, untrusted (undefined): the
 * caller then takes its plugins' `allow` as no answer (setup.ts).
 */
export async function checkWorkspaceTrust(config: ResolvedConfig, env: Env, cwd: string): Promise<Fingerprint | undefined> {
  if (config.sha256 === undefined) return undefined;
  const parts = trustedParts(config);
  const { why, problem, file, now } = await untrusted(config, env, cwd);
  if (why === undefined) return now;
  if (parts.length === 0) return undefined;
  throw new CliError(
    `${config.file} ${why}, and it can run code or widen permissions: ${parts.join(', ')}. ` +
      `Read it (and the files it names), then run \`wasmhooks trust ${config.file}\` to allow it (trust is kept in ${file}, for these exact contents), or remove those keys.` +
      (problem ? ` (${problem})` : ''),
    EXIT.USAGE,
  );
}

/** Records (or, with `revoke`, removes) trust in `config` as it is now, with the files it names. Returns the trust file's path and the files covered. */
export async function recordTrust(config: ResolvedConfig, env: Env, cwd: string, revoke = false): Promise<{ store: string; files: string[] }> {
  if (config.sha256 === undefined) throw new CliError('only a config file can be trusted', EXIT.USAGE);
  const file = trustFileOf(env);
  const { data, problem } = await readTrust(file);
  // A damaged file is not silently replaced: the user sees why and removes it.
  if (problem) throw new CliError(problem, EXIT.ERROR);
  const path = await realpath(config.file);
  const trusted = { ...data.trusted };
  const now = revoke ? undefined : await current(config, cwd);
  if (now) trusted[path] = { sha256: config.sha256, ...now };
  else delete trusted[path];
  const dir = userConfigDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // Written whole then renamed: a reader never sees half a file.
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ version: 2, trusted } satisfies TrustFile, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(temp, 0o600);
  await rename(temp, file);
  return { store: file, files: Object.keys(now?.files ?? {}) };
}

/** Whether `config` as it is now is trusted (for `plugin add`, which keeps trust across its own edit). */
export async function isTrusted(config: ResolvedConfig, env: Env, cwd: string): Promise<boolean> {
  if (config.sha256 === undefined) return false;
  return (await untrusted(config, env, cwd)).why === undefined;
}

/**
 * `plugin test` runs a plugin with its config entry's limits and grants: an
 * entry that reaches beyond the sandbox (the user's files, the network) needs
 * the config trusted, as `run` does (a cloned repository's plugin read
 * ~/.ssh and sent it on, under `plugin test`).
 */
export async function checkEntryTrust(config: ResolvedConfig, entry: NonNullable<ResolvedConfig['plugins']>[number], env: Env, cwd: string): Promise<void> {
  const widened = widenedPlugin(entry);
  if (widened.length === 0 || (await isTrusted(config, env, cwd))) return;
  throw new CliError(
    `${config.file} is not trusted on this machine (or changed since), and its entry for ${entry.path ?? entry.url ?? entry.name} grants ${widened.join('; ')}. ` +
      `Read it, then run \`wasmhooks trust ${config.file}\`, or test the plugin with another --config.`,
    EXIT.USAGE,
  );
}
