/**
 * Workspace trust for `wasmhooks.json`: a config can run code on this machine
 * (`hookModules` are imported into the CLI, `shellHooks` and stdio
 * `mcpServers` start processes) and widen what runs unasked
 * (`permissionMode` `bypassPermissions`/`acceptEdits`, `allowedTools`). A
 * repository is cloned with its `wasmhooks.json`, so `run`, `serve` and `mcp`
 * refuse those parts until the user trusts that file with `wasmhooks trust`.
 * Trust is kept in the user's config directory, bound to the file's real path
 * and the sha256 of its bytes: any change to the file needs trusting again
 * (as direnv's `allow` does for `.envrc`).
 */
import { chmod, mkdir, open, realpath, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { ResolvedConfig } from '../config/load.js';
import { messageOf } from '../errors.js';
import { parseJson } from '../json.js';
import { CliError, EXIT } from './exit.js';

/** The trust file is small: a path and a hash per trusted config. A larger one is refused, not read. */
const MAX_TRUST_FILE_BYTES = 1 << 20;

const trustFileSchema = z.object({
  version: z.literal(1),
  /** Real path of a config → sha256 (hex) of the bytes that were trusted. */
  trusted: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});
type TrustFile = z.infer<typeof trustFileSchema>;

/** `$WASMHOOKS_CONFIG_DIR`, else `$XDG_CONFIG_HOME/wasmhooks`, else `~/.config/wasmhooks`. */
function userConfigDir(env: Readonly<Record<string, string | undefined>>): string {
  if (env['WASMHOOKS_CONFIG_DIR']) return env['WASMHOOKS_CONFIG_DIR'];
  const base = env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config');
  return join(base, 'wasmhooks');
}

const trustFileOf = (env: Readonly<Record<string, string | undefined>>) => join(userConfigDir(env), 'trusted.json');

/**
 * The parts of `config` that run code or widen permissions, named as a
 * person finds them in the file (empty: nothing to trust).
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

/**
 * Throws a usage error naming the file and its untrusted parts, unless the
 * user trusted these exact bytes at this real path. Configs without such
 * parts (or not read from a file) pass.
 */
export async function checkWorkspaceTrust(config: ResolvedConfig, env: Readonly<Record<string, string | undefined>>): Promise<void> {
  const parts = trustedParts(config);
  if (parts.length === 0 || config.sha256 === undefined) return;
  const file = trustFileOf(env);
  const { data, problem } = await readTrust(file);
  const path = await realpath(config.file).catch(() => config.file);
  const known = data.trusted[path];
  if (known === config.sha256) return;
  const why = known === undefined ? 'is not trusted on this machine' : 'changed since it was trusted';
  throw new CliError(
    `${config.file} ${why}, and it can run code or widen permissions: ${parts.join(', ')}. ` +
      `Read it, then run \`wasmhooks trust ${config.file}\` to allow it (trust is kept in ${file}, for these exact contents), or remove those keys.` +
      (problem ? ` (${problem})` : ''),
    EXIT.USAGE,
  );
}

/** Records (or, with `revoke`, removes) trust in `config` as it is now. Returns the trust file's path. */
export async function recordTrust(config: ResolvedConfig, env: Readonly<Record<string, string | undefined>>, revoke = false): Promise<string> {
  if (config.sha256 === undefined) throw new CliError('only a config file can be trusted', EXIT.USAGE);
  const file = trustFileOf(env);
  const { data, problem } = await readTrust(file);
  // A damaged file is not silently replaced: the user sees why and removes it.
  if (problem) throw new CliError(problem, EXIT.ERROR);
  const path = await realpath(config.file);
  const trusted = { ...data.trusted };
  if (revoke) delete trusted[path];
  else trusted[path] = config.sha256;
  const dir = userConfigDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // Written whole then renamed: a reader never sees half a file.
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ version: 1, trusted } satisfies TrustFile, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(temp, 0o600);
  await rename(temp, file);
  return file;
}

/** Whether `config` as it is now is trusted (for `plugin add`, which keeps trust across its own edit). */
export async function isTrusted(config: ResolvedConfig, env: Readonly<Record<string, string | undefined>>): Promise<boolean> {
  if (config.sha256 === undefined) return false;
  const { data } = await readTrust(trustFileOf(env));
  return data.trusted[await realpath(config.file).catch(() => config.file)] === config.sha256;
}
