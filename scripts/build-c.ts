#!/usr/bin/env -S npx tsx
/**
 * Builds the repository's C wasm modules with clang + wasm-ld (host/cli/clang.ts):
 *   <dir>/src/*.c           -> <dir>/build/<dir name>.wasm   (one module per folder:
 *                              plugins/*, test/fixtures/*, examples/*)
 *   test/fixtures/corpus/*.c -> test/fixtures/corpus/build/<file name>.wasm (one module per file:
 *                              plain Extism plugins that stand in for third-party wasm)
 * A module is rebuilt only when the hash of its inputs (sources, the C SDK's
 * headers, clang's arguments and version) differs from the one stored beside it.
 * Usage: tsx scripts/build-c.ts [--force] [name ...]   (also run by npm run build:plugins)
 * Also run by the vitest global setup (test/setup/build-c.ts), so a plain
 * `npx vitest run <file>` finds its C fixtures built.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { clangArgs, compileC, findClang } from '../host/cli/clang.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const sdk = join(repo, 'sdk-c');

interface Target {
  name: string;
  sources: string[];
  /** Every file whose bytes decide the output. */
  inputs: string[];
  out: string;
}

const cFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.c')).sort().map((f) => join(dir, f));
const headers = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.h')).sort().map((f) => join(dir, f));
/** Every header of the C SDK, in its subfolders too. */
const sdkHeaders = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? sdkHeaders(join(dir, e.name)) : e.name.endsWith('.h') ? [join(dir, e.name)] : []));

/** Every C module of the repository. */
export function targets(): Target[] {
  const found: Target[] = [];
  for (const parent of ['plugins', 'test/fixtures', 'examples']) {
    const abs = join(repo, parent);
    if (!existsSync(abs)) continue;
    for (const name of readdirSync(abs).sort()) {
      const src = join(abs, name, 'src');
      if (!existsSync(src)) continue;
      const sources = cFiles(src);
      if (sources.length) found.push({ name, sources, inputs: [...sources, ...headers(src)], out: join(abs, name, 'build', `${name}.wasm`) });
    }
  }
  const corpus = join(repo, 'test/fixtures/corpus');
  for (const file of existsSync(corpus) ? cFiles(corpus) : []) {
    const name = basename(file, '.c');
    found.push({ name, sources: [file], inputs: [file], out: join(corpus, 'build', `${name}.wasm`) });
  }
  return found;
}

function inputKey(t: Target, clangVersion: string): string {
  const hash = createHash('sha256').update(clangVersion).update('\0');
  // Paths relative to the repo, so that a copy of the repository elsewhere keeps its cache.
  hash.update(clangArgs({ sources: t.sources.map((s) => relative(repo, s)), out: 'out.wasm', includeDirs: ['sdk-c'] }).join(' '));
  for (const file of [...t.inputs, ...sdkHeaders(sdk)]) hash.update('\0').update(relative(repo, file)).update('\0').update(readFileSync(file));
  return hash.digest('hex');
}

const keyFile = (t: Target) => join(t.out, '..', `.${t.name}.inputs-sha256`);

export interface BuildCOptions {
  force?: boolean;
  names?: readonly string[];
  log?: (line: string) => void;
}

/** Builds what is out of date; throws (CliError) when clang is missing or a module fails to compile. */
export async function buildC(options: BuildCOptions = {}): Promise<{ built: string[]; upToDate: string[] }> {
  const log = options.log ?? ((line: string) => console.log(line));
  const all = targets();
  const unknown = (options.names ?? []).filter((n) => !all.some((t) => t.name === n));
  if (unknown.length) throw new Error(`unknown plugin or C module(s): ${unknown.join(', ')}; C modules: ${all.map((t) => t.name).join(', ')} (AssemblyScript plugins: see scripts/build-plugins.mjs)`);
  const chosen = options.names?.length ? all.filter((t) => options.names!.includes(t.name)) : all;
  const clang = findClang();
  const built: string[] = [];
  const upToDate: string[] = [];
  const failures: string[] = [];
  // Two at a time: the machine is shared, and clang on these sources takes well under a second each.
  const queue = [...chosen];
  const worker = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      const key = inputKey(t, clang.version);
      const where = relative(repo, t.out);
      if (!options.force && existsSync(t.out) && existsSync(keyFile(t)) && readFileSync(keyFile(t), 'utf8') === key) {
        upToDate.push(where);
        continue;
      }
      try {
        const r = await compileC({ sources: t.sources, out: t.out, includeDirs: [sdk] });
        writeFileSync(keyFile(t), key);
        built.push(where);
        log(`built ${where}  ${(r.bytes / 1024).toFixed(1)} KiB  ${(r.durationMs / 1000).toFixed(1)} s${r.log ? `\n${r.log}` : ''}`);
      } catch (error) {
        failures.push(`FAILED ${where}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all([worker(), worker()]);
  if (failures.length) throw new Error(failures.join('\n'));
  return { built, upToDate };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  try {
    const { upToDate } = await buildC({ force: args.includes('--force'), names: args.filter((a) => a !== '--force') });
    for (const where of upToDate) console.log(`up to date ${where}`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
