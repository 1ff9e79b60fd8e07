/**
 * Finding the AssemblyScript toolchain and the guest SDK for `plugin build`
 * and `plugin new`: first in the plugin project (its node_modules), then
 * beside this wasmhooks install (the repository or the npm package).
 */
import { existsSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { CliError } from './exit.js';

/** The nearest `dir/rel` (walking up from `start`) that exists. */
export function findUp(start: string, rel: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const candidate = join(dir, rel);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The folder this module was loaded from (dist/ or host/cli/). */
const here = (): string => dirname(fileURLToPath(import.meta.url));

function find(projectDir: string, rel: string): string | undefined {
  return findUp(projectDir, rel) ?? findUp(here(), rel);
}

export interface Toolchain {
  /** `assemblyscript/bin/asc.js`. */
  asc: string;
  /** The guest SDK folder (holds package.json, asconfig.json). */
  sdk: string;
  /** A node_modules folder holding `@extism/as-pdk`. */
  pdkModules: string;
}

export function findToolchain(projectDir: string): Toolchain {
  const asc = find(projectDir, 'node_modules/assemblyscript/bin/asc.js');
  const sdkPkg = find(projectDir, 'node_modules/@wasmhooks/sdk-guest/package.json') ?? find(projectDir, 'sdk-guest/package.json');
  const pdk = find(projectDir, 'node_modules/@extism/as-pdk/package.json');
  const missing = [
    ...(asc ? [] : ['assemblyscript (npm install --save-dev assemblyscript@0.28.20)']),
    ...(sdkPkg ? [] : ['the guest SDK @wasmhooks/sdk-guest']),
    ...(pdk ? [] : ['@extism/as-pdk (npm install --save-dev @extism/as-pdk@1.0.0)']),
  ];
  if (!asc || !sdkPkg || !pdk) throw new CliError(`cannot build: missing ${missing.join(', ')}`);
  return { asc, sdk: dirname(sdkPkg), pdkModules: dirname(dirname(dirname(pdk))) };
}

/** The C SDK's folder (holding wasmhooks.h): in the project's wasmhooks package, else beside this install. */
export function findCSdk(projectDir: string): string {
  const header = find(projectDir, 'node_modules/wasmhooks/sdk-c/wasmhooks.h') ?? find(projectDir, 'sdk-c/wasmhooks.h');
  if (!header) throw new CliError('cannot build: the C SDK (sdk-c/wasmhooks.h, part of the wasmhooks package) was not found beside this install');
  return dirname(header);
}

/**
 * Plugins import "@wasmhooks/sdk-guest" as a package. asc resolves packages
 * from --path folders, so we hand it a folder holding a link to the SDK.
 */
export function sdkLinkDir(sdk: string): string {
  const id = createHash('sha256').update(sdk).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), `wasmhooks-asc-${id}`);
  const link = join(dir, '@wasmhooks', 'sdk-guest');
  mkdirSync(join(dir, '@wasmhooks'), { recursive: true });
  // Builds may run side by side: keep a link that is already right, and tolerate losing a race to create it.
  let current: string | undefined;
  try {
    current = readlinkSync(link);
  } catch {
    current = undefined;
  }
  if (current === sdk) return dir;
  rmSync(link, { force: true, recursive: false });
  try {
    symlinkSync(sdk, link, 'dir');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || readlinkSync(link) !== sdk) throw error;
  }
  return dir;
}
