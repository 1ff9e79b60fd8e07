/**
 * Compiling C plugins to wasm with clang + wasm-ld: one implementation for
 * `wasmhooks plugin build` on a C project and for the repository's own C
 * sources (scripts/build-c.ts). Freestanding by default (no libc: the C SDK
 * in sdk-c/ needs none); a source that asks for WASI links Debian's wasi-libc.
 *
 * A source may carry one build line, read by this module:
 *   `wasmhooks-build: wasi initial-pages=17`
 * (`wasi`: link wasi-libc as a reactor; `initial-pages=N`: the module's
 * declared memory, in 64 KiB pages).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import process from 'node:process';
import { CliError } from './exit.js';

/** What to install, said once, for every way the toolchain can be missing. */
export const CLANG_INSTALL_HINT =
  'install clang and lld (wasm-ld): Debian/Ubuntu `sudo apt-get install -y clang lld` (add `wasi-libc` for WASI plugins); ' +
  'Fedora `sudo dnf install clang lld`; macOS `brew install llvm lld` and put `$(brew --prefix llvm)/bin` on PATH; ' +
  'or set WASMHOOKS_CLANG to a clang that has the wasm32 target';

export interface Clang {
  /** The clang executable. */
  path: string;
  /** `clang --version`'s first line (part of a build's cache key). */
  version: string;
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

let found: Clang | undefined;

/** The clang to use, checked to have a wasm linker; throws CliError saying what to install. */
export function findClang(): Clang {
  if (found) return found;
  const names = ['clang', ...[19, 18, 17, 16, 15, 14].map((v) => `clang-${v}`)];
  const path = process.env.WASMHOOKS_CLANG || names.map(onPath).find((p) => p !== undefined);
  if (!path) throw new CliError(`cannot compile C: clang is not on PATH; ${CLANG_INSTALL_HINT}`);
  const probe = spawnSync(path, ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) throw new CliError(`cannot compile C: \`${path} --version\` failed (${probe.error?.message ?? probe.stderr.trim()}); ${CLANG_INSTALL_HINT}`);
  const linker = spawnSync(path, ['--target=wasm32', '-print-prog-name=wasm-ld'], { encoding: 'utf8' }).stdout.trim();
  // clang answers the bare name when it has no linker of its own; then the driver looks on PATH.
  if (!(linker.includes('/') ? existsSync(linker) : onPath(linker || 'wasm-ld'))) {
    throw new CliError(`cannot compile C: clang is here (${path}) but its WebAssembly linker wasm-ld is not; ${CLANG_INSTALL_HINT}`);
  }
  found = { path, version: probe.stdout.split('\n')[0]?.trim() ?? '' };
  return found;
}

export interface BuildLine {
  wasi: boolean;
  initialPages?: number;
}

/** The `wasmhooks-build:` line of the sources, if any (the first one found wins). */
function buildLine(sources: readonly string[]): BuildLine {
  for (const file of sources) {
    const match = /wasmhooks-build:([^\n]*)/.exec(readFileSync(file, 'utf8'));
    if (!match) continue;
    const line: BuildLine = { wasi: false };
    for (const word of match[1]!.trim().split(/\s+/).filter(Boolean)) {
      const pages = /^initial-pages=(\d{1,5})$/.exec(word);
      if (word === 'wasi') line.wasi = true;
      else if (pages) line.initialPages = Number(pages[1]);
      else throw new CliError(`${file}: unknown word "${word}" in its wasmhooks-build line (known: wasi, initial-pages=N)`);
    }
    return line;
  }
  return { wasi: false };
}

export interface CompileOptions {
  /** The .c files of one module. */
  sources: readonly string[];
  out: string;
  /** Folders for `#include` (the C SDK's folder goes here). */
  includeDirs: readonly string[];
  debug?: boolean;
}

/** The clang arguments for one module (exported for docs and tests). */
export function clangArgs(options: CompileOptions, line: BuildLine = buildLine(options.sources)): string[] {
  const target = line.wasi
    ? ['--target=wasm32-wasi', '-mexec-model=reactor', '-nodefaultlibs', '-lc']
    : ['--target=wasm32', '-nostdlib', '-ffreestanding'];
  return [
    ...target,
    // memcpy/memset become memory.copy/memory.fill: no libc needed for them.
    '-mbulk-memory',
    options.debug ? '-O0' : '-O2',
    ...(options.debug ? ['-g'] : []),
    '-Wall',
    '-Wextra',
    ...options.includeDirs.map((d) => `-I${d}`),
    '-Wl,--no-entry',
    // The stack below the data: an overflow traps instead of overwriting the plugin's globals.
    '-Wl,--stack-first',
    ...(options.debug ? [] : ['-Wl,--strip-debug']),
    ...(line.initialPages ? [`-Wl,--initial-memory=${line.initialPages * 65536}`] : []),
    '-o',
    options.out,
    ...options.sources,
  ];
}

export interface CompileResult {
  out: string;
  bytes: number;
  durationMs: number;
  /** clang's warnings, if any. */
  log: string;
}

/** Compiles one module; throws CliError with clang's output when it fails. */
export async function compileC(options: CompileOptions): Promise<CompileResult> {
  const clang = findClang();
  const line = buildLine(options.sources);
  if (line.wasi && !existsSync('/usr/include/wasm32-wasi/stdio.h') && !process.env.WASMHOOKS_CLANG) {
    // Only Debian's layout is known here; elsewhere clang's own error speaks.
    if (existsSync('/etc/debian_version')) throw new CliError(`cannot compile a WASI plugin: wasi-libc is missing; sudo apt-get install -y wasi-libc`);
  }
  mkdirSync(dirname(options.out), { recursive: true });
  // Written beside, then renamed: a reader never sees half a module.
  const partial = `${options.out}.${process.pid}.partial`;
  const args = clangArgs({ ...options, out: partial }, line);
  const started = performance.now();
  const { code, log } = await new Promise<{ code: number | null; log: string }>((done) => {
    const child = spawn(clang.path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (log += d.toString()));
    child.on('error', (e) => done({ code: null, log: e.message }));
    child.on('close', (c) => done({ code: c, log }));
  });
  if (code !== 0 || !existsSync(partial)) {
    rmSync(partial, { force: true });
    const hint = /wasm32-wasi|-lc\b|crt1/.test(log) && line.wasi ? `\n(WASI plugins need wasi-libc: sudo apt-get install -y wasi-libc)` : '';
    throw new CliError(`clang failed to compile ${options.sources.join(' ')}:\n${log.trim()}${hint}`);
  }
  renameSync(partial, options.out);
  return { out: options.out, bytes: statSync(options.out).size, durationMs: performance.now() - started, log: log.trim() };
}
