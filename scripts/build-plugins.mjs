#!/usr/bin/env node
// Builds every first-party plugin (plugins/<name>/) and the test plugins
// (test/fixtures/<name>/ with an assembly/index.ts) from AssemblyScript source:
//   <dir>/assembly/index.ts  ->  <dir>/build/<name>.wasm
// with the compiler options in sdk-guest/asconfig.json (target "release").
// Usage: node scripts/build-plugins.mjs [--force] [name ...]   (no names: build all)
// A plugin whose .wasm is newer than its sources, the SDK and the compiler is
// skipped; --force rebuilds it anyway. Then the C modules (plugins/<name>/src/*.c
// and the C test fixtures) are built by scripts/build-c.ts with clang + lld:
// all of them when no names are given, else the names that are not AssemblyScript.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';

const repo = fileURLToPath(new URL('..', import.meta.url));
const asc = join(repo, 'node_modules/assemblyscript/bin/asc.js');
const config = join(repo, 'sdk-guest/asconfig.json');

function sources() {
  const dirs = [];
  for (const parent of ['plugins', 'test/fixtures']) {
    const abs = join(repo, parent);
    if (!existsSync(abs)) continue;
    for (const name of readdirSync(abs).sort()) {
      const dir = join(abs, name);
      if (existsSync(join(dir, 'assembly/index.ts'))) dirs.push(dir);
    }
  }
  return dirs;
}

// In-repo plugins import "@wasmhooks/sdk-guest" as a package, exactly as
// third-party plugins do. asc resolves packages from node_modules folders and
// --path entries, so we point a --path at a folder holding a link to sdk-guest/.
function sdkPathDir() {
  const id = createHash('sha256').update(repo).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), `wasmhooks-asc-${id}`);
  const link = join(dir, '@wasmhooks', 'sdk-guest');
  const target = join(repo, 'sdk-guest');
  mkdirSync(join(dir, '@wasmhooks'), { recursive: true });
  let current = null;
  try { current = readlinkSync(link); } catch { /* no link yet */ }
  // Left alone when already right, so two builds at once do not pull it from under each other.
  if (current !== target) {
    rmSync(link, { force: true });
    symlinkSync(target, link, 'dir');
  }
  return dir;
}

function newestMtime(paths) {
  let newest = 0;
  for (const p of paths) {
    if (!existsSync(p)) continue;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) newest = Math.max(newest, newestMtime([join(p, name)]));
    } else {
      newest = Math.max(newest, st.mtimeMs);
    }
  }
  return newest;
}

function upToDate(dir) {
  const out = join(dir, 'build', `${basename(dir)}.wasm`);
  if (!existsSync(out)) return false;
  const inputs = [
    join(dir, 'assembly'),
    join(repo, 'sdk-guest/assembly'), join(repo, 'sdk-guest/index.ts'), join(repo, 'sdk-guest/exports.ts'), config,
    join(repo, 'node_modules/assemblyscript/package.json'), join(repo, 'node_modules/@extism/as-pdk/package.json'),
  ];
  return statSync(out).mtimeMs > newestMtime(inputs);
}

function build(dir, pathDir) {
  const name = basename(dir);
  const out = join(dir, 'build', `${name}.wasm`);
  mkdirSync(join(dir, 'build'), { recursive: true });
  const args = [
    asc, join(dir, 'assembly/index.ts'),
    '--config', config, '--target', 'release',
    '--path', pathDir, '--path', join(repo, 'node_modules'),
    '--outFile', out,
  ];
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    child.on('close', (code) => {
      const ok = code === 0 && existsSync(out);
      resolve({ name, dir, out, ok, log, ms: performance.now() - started, bytes: ok ? statSync(out).size : 0 });
    });
  });
}

async function main() {
  const force = process.argv.includes('--force');
  const wanted = process.argv.slice(2).filter((a) => a !== '--force');
  const all = sources();
  const chosen = wanted.length ? all.filter((d) => wanted.includes(basename(d))) : all;
  const fresh = force ? [] : chosen.filter(upToDate);
  for (const d of fresh) console.log(`up to date ${relative(repo, join(d, 'build', `${basename(d)}.wasm`))}`);
  const dirs = chosen.filter((d) => !fresh.includes(d));
  // Names that are not AssemblyScript plugins go to the C build, which knows its own (and says which).
  const notAs = wanted.filter((w) => !all.some((d) => basename(d) === w));
  const pathDir = sdkPathDir();
  const queue = [...dirs];
  const results = [];
  const workers = Array.from({ length: Math.min(availableParallelism(), queue.length) }, async () => {
    for (let dir = queue.shift(); dir; dir = queue.shift()) results.push(await build(dir, pathDir));
  });
  await Promise.all(workers);
  results.sort((a, b) => a.name.localeCompare(b.name));
  for (const r of results) {
    const where = relative(repo, r.out);
    if (r.ok) console.log(`built ${where}  ${(r.bytes / 1024).toFixed(1)} KiB  ${(r.ms / 1000).toFixed(1)} s`);
    else console.error(`FAILED ${relative(repo, r.dir)}:\n${r.log}`);
    if (r.ok && r.log.trim()) console.log(r.log);
  }
  if (results.some((r) => !r.ok)) process.exit(1);
  if (wanted.length === 0 || notAs.length > 0) {
    const tsx = join(repo, 'node_modules/tsx/dist/cli.mjs');
    const args = [tsx, join(repo, 'scripts/build-c.ts'), ...(force ? ['--force'] : []), ...notAs];
    const code = await new Promise((resolve) => spawn(process.execPath, args, { cwd: repo, stdio: 'inherit' }).on('close', resolve));
    if (code !== 0) process.exit(typeof code === 'number' ? code : 1);
  }
  writeManifest();
  // The same plugins instrumented with loadPlugin's defaults, shipped beside them (scripts/preinstrument.ts).
  const tsx = join(repo, 'node_modules/tsx/dist/cli.mjs');
  const code = await new Promise((resolve) => spawn(process.execPath, ['--no-warnings', tsx, join(repo, 'scripts/preinstrument.ts')], { cwd: repo, stdio: 'inherit' }).on('close', resolve));
  if (code !== 0) process.exit(typeof code === 'number' ? code : 1);
}

// plugins/first-party.json: what `loadPlugin({ name })` may load and the
// sha256 each build must have (the package ships both, so a tampered file in
// node_modules is refused). Written only when it would change.
function writeManifest() {
  const manifest = {};
  for (const name of readdirSync(join(repo, 'plugins')).sort()) {
    const dir = join(repo, 'plugins', name);
    const out = join(dir, 'build', `${name}.wasm`);
    if (!existsSync(out)) continue;
    const bytes = readFileSync(out);
    manifest[name] = { file: relative(join(repo, 'plugins'), out), sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
  }
  const path = join(repo, 'plugins/first-party.json');
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  if (!existsSync(path) || readFileSync(path, 'utf8') !== text) writeFileSync(path, text);
}

await main();
