/**
 * `wasmhooks plugin build [dir]`: compiles an AssemblyScript plugin
 * (`<dir>/assembly/index.ts`) with asc and the guest SDK's compiler options,
 * or a C plugin (`<dir>/src/*.c`) with clang and the C SDK (clang.ts), into
 * `<dir>/build/<name>.wasm`, as `npm run build:plugins` does in this repository.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import process from 'node:process';
import { basename, join, relative, resolve } from 'node:path';
import { messageOf } from '../../errors.js';
import { CliError, EXIT, type ExitCode } from '../exit.js';
import { ms } from '../format.js';
import type { CliIO } from '../io.js';
import { sha256 } from '../../sandbox/digest.js';
import { compileC } from '../clang.js';
import { findCSdk, findToolchain, sdkLinkDir } from '../toolchain.js';

export interface BuildFlags {
  out?: string;
  debug?: boolean;
}

/** The plugin's name: package.json's (without scope), else the folder's. */
function pluginName(dir: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
    if (typeof pkg.name === 'string' && pkg.name) return pkg.name.replace(/^@[^/]+\//, '');
  } catch {
    // No package.json: the folder names the plugin.
  }
  return basename(dir);
}

interface BuildResult {
  out: string;
  bytes: number;
  durationMs: number;
}

/** Compiles one plugin folder. Throws CliError with asc's output when compilation fails. */
async function buildPlugin(dirArg: string, flags: BuildFlags, cwd: string): Promise<BuildResult> {
  const dir = resolve(cwd, dirArg);
  const entry = join(dir, 'assembly', 'index.ts');
  const cSources = existsSync(join(dir, 'src')) ? readdirSync(join(dir, 'src')).filter((f) => f.endsWith('.c')).sort() : [];
  if (!existsSync(entry) && cSources.length > 0) {
    const out = flags.out ? resolve(cwd, flags.out) : join(dir, 'build', `${pluginName(dir)}.wasm`);
    const built = await compileC({ sources: cSources.map((f) => join(dir, 'src', f)), out, includeDirs: [findCSdk(dir)], debug: flags.debug ?? false });
    return { out: built.out, bytes: built.bytes, durationMs: built.durationMs };
  }
  if (!existsSync(entry)) {
    throw new CliError(`${dirArg}: no assembly/index.ts or src/*.c here; run plugin build in a plugin folder (see wasmhooks plugin new)`, EXIT.USAGE);
  }
  const tools = findToolchain(dir);
  const out = flags.out ? resolve(cwd, flags.out) : join(dir, 'build', `${pluginName(dir)}.wasm`);
  mkdirSync(resolve(out, '..'), { recursive: true });
  const args = [
    tools.asc,
    entry,
    '--config', join(tools.sdk, 'asconfig.json'),
    '--target', flags.debug ? 'debug' : 'release',
    '--path', sdkLinkDir(tools.sdk),
    '--path', tools.pdkModules,
    '--outFile', out,
  ];
  const started = performance.now();
  const { code, log } = await new Promise<{ code: number | null; log: string }>((done) => {
    const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (log += d.toString()));
    child.on('error', (e) => done({ code: null, log: messageOf(e) }));
    child.on('close', (c) => done({ code: c, log }));
  });
  if (code !== 0 || !existsSync(out)) throw new CliError(`asc failed to compile ${relative(cwd, entry) || entry}:\n${log.trim()}`);
  return { out, bytes: statSync(out).size, durationMs: performance.now() - started };
}

export async function buildCommand(dirArg: string | undefined, flags: BuildFlags, io: CliIO): Promise<ExitCode> {
  const result = await buildPlugin(dirArg ?? '.', flags, io.cwd);
  const digest = await sha256(new Uint8Array(readFileSync(result.out)));
  io.stdout.write(`built ${relative(io.cwd, result.out) || result.out}  ${(result.bytes / 1024).toFixed(1)} KiB  ${ms(result.durationMs)}\nsha256 ${digest}\n`);
  return EXIT.OK;
}
