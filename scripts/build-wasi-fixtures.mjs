#!/usr/bin/env node
// Builds the C test plugins that use WASI (test/fixtures/wasi/*.c) with
// clang, wasm-ld and wasi-libc from Debian:
//   test/fixtures/wasi/<name>.c  ->  test/fixtures/wasi/build/<name>.wasm
// A plugin newer than its sources is skipped. Without the toolchain, says
// what to install and exits 1 (the WASI tests need these plugins).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dir = join(repo, 'test/fixtures/wasi');
const out = join(dir, 'build');
const SYSROOT = '/usr';
const LIBC = '/usr/lib/wasm32-wasi/libc.a';

function missing() {
  const clang = spawnSync('clang', ['--version'], { encoding: 'utf8' });
  const ld = spawnSync('wasm-ld', ['--version'], { encoding: 'utf8' });
  const problems = [];
  if (clang.status !== 0) problems.push('clang');
  if (ld.status !== 0) problems.push('wasm-ld (package lld)');
  if (!existsSync(LIBC)) problems.push(`wasi-libc (${LIBC})`);
  return problems;
}

const sources = readdirSync(dir).filter((f) => f.endsWith('.c')).sort();
const headers = readdirSync(dir).filter((f) => f.endsWith('.h')).map((f) => join(dir, f));
const stale = sources.filter((c) => {
  const wasm = join(out, `${basename(c, '.c')}.wasm`);
  if (!existsSync(wasm)) return true;
  const built = statSync(wasm).mtimeMs;
  return [join(dir, c), ...headers, fileURLToPath(import.meta.url)].some((f) => statSync(f).mtimeMs > built);
});
for (const c of sources.filter((s) => !stale.includes(s))) console.log(`up to date ${relative(repo, join(out, `${basename(c, '.c')}.wasm`))}`);
if (stale.length > 0) {
  const problems = missing();
  if (problems.length > 0) {
    console.error(
      `cannot build the WASI test plugins: missing ${problems.join(', ')}.\n` +
        'On Debian/Ubuntu: sudo apt-get install clang lld wasi-libc',
    );
    process.exit(1);
  }
  mkdirSync(out, { recursive: true });
  for (const c of stale) {
    const wasm = join(out, `${basename(c, '.c')}.wasm`);
    // A reactor (exports _initialize, no main); -nodefaultlibs because Debian's
    // clang lacks the wasm32 compiler-rt builtins, which these plugins do not need.
    const args = ['--target=wasm32-wasi', `--sysroot=${SYSROOT}`, '-mexec-model=reactor', '-O2', '-Wall', '-nodefaultlibs', '-o', wasm, join(dir, c), '-lc'];
    const run = spawnSync('clang', args, { encoding: 'utf8' });
    if (run.status !== 0) {
      console.error(`FAILED ${relative(repo, join(dir, c))}:\n${run.stderr}`);
      process.exit(1);
    }
    if (run.stderr.trim()) console.log(run.stderr);
    console.log(`built ${relative(repo, wasm)}  ${(statSync(wasm).size / 1024).toFixed(1)} KiB`);
  }
}
