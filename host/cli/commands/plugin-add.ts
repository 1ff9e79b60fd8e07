/**
 * `wasmhooks plugin add <name | npm package | https URL | path>`: records a
 * plugin in wasmhooks.json and wasmhooks.lock (source, version, sha256, the
 * grants consented to). Grants beyond what was consented before need
 * consent: --accept-grants, or a yes at the terminal after seeing the list.
 */
import { spawnSync } from 'node:child_process';
import { stat, writeFile } from 'node:fs/promises';
import { isTrusted, recordTrust } from '../workspace-trust.js';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline/promises';
import { CONFIG_FILE_NAME, loadConfig, MAX_CONFIG_BYTES, parseConfig } from '../../config/load.js';
import { readRegularFile } from '../../config/read-file.js';
import { findSignature } from '../../config/trust.js';
import { messageOf } from '../../errors.js';
import { emptyLock, grantLists, LOCK_FILE_NAME, lockKey, newGrants, readLock, writeLock, type GrantLists } from '../../plugins/lock.js';
import { readPluginPackage } from '../../plugins/package.js';
import { verifyPluginSignature } from '../../plugins/signature.js';
import { CliError, EXIT, type ExitCode } from '../exit.js';
import type { CliIO } from '../io.js';
import { isFirstPartyName, isUrl, readPluginBytes } from '../plugin-source.js';
import { inspectBytes } from './inspect.js';
import { printable } from '../printable.js';

export interface PluginAddFlags {
  config?: string;
  acceptGrants?: boolean;
  /** Asks at the terminal when stdin and stdout are TTYs (tests turn it off). */
  ask?: boolean;
}

interface Target {
  /** The locator written to wasmhooks.json (paths relative to its folder). */
  locator: { name: string } | { path: string } | { url: string };
  /** Absolute path or URL of the .wasm (for reading it and its signature). */
  where: string;
  source: string;
  signature?: string;
}

const isPackageRef = (ref: string) => ref.startsWith('npm:') || /^@[a-z0-9][\w.-]*\/[\w.-]/i.test(ref);

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isDirectory(), () => false);
}

/** Where the plugin named on the command line is, installing an npm package that is not there yet. */
async function resolveTarget(ref: string, cwd: string, dir: string, io: CliIO): Promise<Target> {
  const rel = (abs: string) => relative(dir, abs).split('\\').join('/');
  if (isFirstPartyName(ref)) return { locator: { name: ref }, where: ref, source: `first-party:${ref}` };
  if (isUrl(ref)) return { locator: { url: ref }, where: ref, source: ref };
  if (isPackageRef(ref)) {
    const spec = ref.replace(/^npm:/, '');
    const name = spec.startsWith('@') ? `@${spec.slice(1).split('@')[0]}` : spec.split('@')[0]!;
    if (!/^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/i.test(name)) throw new CliError(`${ref}: not an npm package name`, EXIT.USAGE);
    const pkgDir = join(dir, 'node_modules', name);
    if (!(await isDirectory(pkgDir))) {
      io.stderr.write(`installing ${spec} (npm install --save-dev --ignore-scripts)\n`);
      // No install scripts: adding a plugin must not run a stranger's code on this machine.
      const r = spawnSync('npm', ['install', '--save-dev', '--ignore-scripts', spec], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      if (r.status !== 0) throw new CliError(`npm install ${spec} failed: ${(r.stderr || r.error?.message || '').trim().slice(-500)}`);
    }
    const pkg = await readPluginPackage(pkgDir);
    return { locator: { path: rel(pkg.wasm) }, where: pkg.wasm, source: `npm:${pkg.name}@${pkg.version}`, ...(pkg.signature ? { signature: pkg.signature } : {}) };
  }
  const abs = resolve(cwd, ref);
  if (await isDirectory(abs)) {
    const pkg = await readPluginPackage(abs);
    return { locator: { path: rel(pkg.wasm) }, where: pkg.wasm, source: `package:${pkg.name}@${pkg.version}`, ...(pkg.signature ? { signature: pkg.signature } : {}) };
  }
  return { locator: { path: rel(abs) }, where: abs, source: `path:${rel(abs)}` };
}

async function readRawConfig(file: string): Promise<Record<string, unknown>> {
  try {
    // As loadConfig reads it: the config of a cloned repository may be a FIFO (it hung plugin add) or a device.
    return JSON.parse(new TextDecoder().decode(await readRegularFile(file, MAX_CONFIG_BYTES))) as Record<string, unknown>;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return {};
    throw new CliError(`cannot read ${file}: ${messageOf(error)}`, EXIT.USAGE);
  }
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  try {
    return /^(y|yes)$/i.test((await rl.question(question)).trim());
  } catch {
    return false;
  } finally {
    rl.close();
  }
}

/** Config grants from lists, leaving out empty ones. */
function configGrants(g: GrantLists): Record<string, string[]> | undefined {
  const out = Object.fromEntries(Object.entries(g).filter(([, v]) => v.length > 0));
  return Object.keys(out).length > 0 ? out : undefined;
}

export async function pluginAddCommand(ref: string, flags: PluginAddFlags, io: CliIO): Promise<ExitCode> {
  const file = flags.config ? resolve(io.cwd, flags.config) : join(io.cwd, CONFIG_FILE_NAME);
  const dir = dirname(file);
  const raw = await readRawConfig(file);
  const config = parseConfig(raw, { file, dir });
  const target = await resolveTarget(ref, io.cwd, dir, io);
  const plugin = await readPluginBytes(target.where, io.cwd);
  const report = await inspectBytes(ref, plugin.bytes, plugin.sha256);
  if (!report.describe.ok) throw new CliError(`${ref} is not a usable plugin: describe failed (${report.describe.failure.code}): ${report.describe.failure.message}`);
  const info = report.describe.info;

  let signedBy: string | undefined;
  if (!('name' in target.locator)) {
    const envelope = await findSignature({ ...(isUrl(target.where) ? { url: target.where } : { path: target.where }), signature: target.signature }, ref);
    if (envelope || config.requireSignature) signedBy = await verifyPluginSignature(plugin.bytes, envelope, config.trustedKeys ?? {}, ref);
  }

  const lockFile = join(dir, LOCK_FILE_NAME);
  const lock = (await readLock(lockFile)) ?? emptyLock();
  const key = lockKey(target.locator, dir);
  const previous = lock.plugins[key];
  const requested = grantLists(info.grants);
  const extra = newGrants(previous?.grants ?? grantLists(undefined), requested);
  if (extra.length > 0 && flags.acceptGrants !== true) {
    // The plugin names itself: an escape sequence in its name could hide the list below (ESC [8m) before the operator answers.
    const what = `${printable(info.name)} ${printable(info.version)}${previous ? ` (upgrading from ${printable(previous.version)}, which was granted ${newGrants(grantLists(undefined), previous.grants).join(', ') || 'nothing'})` : ''}`;
    // The grants are the plugin's own strings too. newGrants quotes them as JSON, which escapes C0 but not
    // C1 or the bidi controls: a host "\u202eevil.com" read as another host in the very list consented to (rv13).
    const list = extra.map((g) => `  + ${printable(g)}`).join('\n');
    const interactive = flags.ask !== false && process.stdin.isTTY === true && io.stdout.isTTY;
    if (!interactive) {
      throw new CliError(`${what} asks for grants you have not consented to:\n${list}\nnot added; re-run with --accept-grants to consent`, EXIT.ERROR);
    }
    io.stdout.write(`${what} asks for grants you have not consented to:\n${list}\n`);
    if (!(await confirm('Grant them? [y/N] '))) {
      io.stderr.write('not added: the grants were not consented\n');
      return EXIT.ERROR;
    }
  }

  // wasmhooks.json: the entry for this locator, updated in place (its limits, config and policy kept).
  const entries = Array.isArray(raw.plugins) ? [...(raw.plugins as Array<Record<string, unknown>>)] : [];
  const index = (config.plugins ?? []).findIndex((p) => lockKey(p, dir) === key);
  const { name: _n, path: _p, url: _u, sha256: _s, grants: _g, ...kept } = index >= 0 ? entries[index]! : {};
  const grants = configGrants(requested);
  const entry = { ...target.locator, ...('url' in target.locator ? { sha256: plugin.sha256 } : {}), ...kept, ...(target.signature ? { signature: relative(dir, target.signature) } : {}), ...(grants ? { grants } : {}) };
  if (index >= 0) entries[index] = entry;
  else entries.push(entry);
  // A trusted config stays trusted across this edit (the user just consented to the plugin and its grants); an untrusted one stays untrusted.
  const before = await loadConfig(file).catch(() => undefined);
  const wasTrusted = before !== undefined && (await isTrusted(before, io.env, io.cwd));
  await writeFile(file, `${JSON.stringify({ ...raw, plugins: entries }, null, 2)}\n`);
  if (wasTrusted) await recordTrust(await loadConfig(file), io.env, io.cwd);

  lock.plugins[key] = { source: target.source, name: info.name, version: info.version, sha256: plugin.sha256, grants: requested, ...(signedBy ? { signedBy } : {}) };
  await writeLock(lockFile, lock);
  const granted = newGrants(grantLists(undefined), requested);
  // The plugin's name, version and grants, and the previous lock entry's version (a file anyone may have written).
  io.stdout.write(
    printable(
      `${!previous ? 'added' : previous.sha256 === plugin.sha256 ? 'unchanged' : 'upgraded'} ${info.name} ${previous && previous.sha256 !== plugin.sha256 ? `${previous.version} → ` : ''}${info.version} (${target.source}, sha256 ${plugin.sha256.slice(0, 12)}…${signedBy ? `, signed by ${signedBy}` : ''}) in ${relative(io.cwd, file) || file} and ${LOCK_FILE_NAME}; grants: ${granted.join(', ') || 'none'}`,
    ) + '\n',
  );
  return EXIT.OK;
}
