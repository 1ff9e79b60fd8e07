/**
 * What workspace trust covers beyond the config's own bytes: the files it
 * names that run as code. A `git pull` that changes `hooks.mjs` (imported
 * into the CLI), a script a shell hook or an MCP server command runs, or an
 * unpinned plugin ran new code under the old trust (red14). The fingerprint
 * is those files' paths and sha256, and the folder the config's relative
 * paths resolved against (a link to a trusted config from another folder
 * resolves them elsewhere, and runs that folder's files and permissions).
 */
import { realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { readRegularFile } from '../config/read-file.js';
import { messageOf } from '../errors.js';
import { isStdio } from '../mcp/config.js';
import { sha256 } from '../sandbox/digest.js';
import { PROJECT_DIR_VAR } from '../shell/spec.js';

/** A hook module or a plugin is far smaller; a named file past this is refused, not hashed. */
const MAX_NAMED_FILE_BYTES = 256 << 20;
/** Words of one command looked at as possible file names (a command line is a few). */
const MAX_WORDS = 64;
/** Files of one hook module's relative imports followed (a hook and its helpers are a handful). */
const MAX_MODULES = 256;
/**
 * A relative module specifier written as a literal: `import … from './x.mjs'`, `export … from '../y.js'`,
 * `import('./z.js')`, `require('./w.cjs')`, `import './side.js'`. A computed specifier is not seen (docs/cli.md says so).
 */
const RELATIVE_IMPORT = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*(['"])(\.{1,2}\/[^'"\n]+)\1/g;

/** Stands for a named file that does not exist (it may appear later: that is a change). */
export const MISSING = 'missing';

export interface Fingerprint {
  /** Real path of the folder relative paths resolved against. */
  dir: string;
  /** Absolute path of each named file → sha256 (hex), or MISSING. */
  files: Record<string, string>;
}

/** The words of a command line that may name a file: split at blanks and shell punctuation, options and expansions left out. */
function words(command: readonly string[]): string[] {
  return command
    .flatMap((part) => part.split(/[\s;|&()<>`'"]+/))
    .filter((w) => w !== '' && !w.startsWith('-') && !w.includes('$'))
    .slice(0, MAX_WORDS);
}

/** A path a command names through Claude Code's project variable: `"$CLAUDE_PROJECT_DIR"/x.sh`, `${CLAUDE_PROJECT_DIR}/x.sh`. */
const PROJECT_PATH = new RegExp(`\\$(?:\\{${PROJECT_DIR_VAR}\\}|${PROJECT_DIR_VAR}\\b)"?(/[^\\s;|&()<>\`'"]*)`, 'g');

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false);
}

/**
 * Files a command names that exist as regular files under `cwd` (a word like `npm` or `test` names none),
 * and under `projectDir` those it names through `$CLAUDE_PROJECT_DIR` (a shell hook runs with it set).
 */
async function commandFiles(command: readonly string[], cwd: string, projectDir?: string): Promise<string[]> {
  const found: string[] = [];
  if (projectDir !== undefined) {
    for (const match of command.join(' ').matchAll(PROJECT_PATH)) {
      const path = resolve(projectDir, `.${match[1]!}`);
      if (await isFile(path)) found.push(path);
    }
  }
  for (const word of words(command)) {
    const path = resolve(cwd, word);
    if (await isFile(path)) found.push(path);
  }
  return found;
}

/** A hook module and the modules it imports by relative path, transitively (a pull that edits `./lib.mjs` changes what runs). */
async function moduleGraph(entry: string): Promise<string[]> {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length > 0 && seen.size < MAX_MODULES) {
    const file = queue.shift()!;
    const text = await readRegularFile(file, MAX_NAMED_FILE_BYTES).then((b) => new TextDecoder().decode(b), () => '');
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      const path = resolve(dirname(file), match[2]!);
      if (!seen.has(path) && (await isFile(path))) {
        seen.add(path);
        queue.push(path);
      }
    }
  }
  return [...seen];
}

/** The `$CLAUDE_PROJECT_DIR` a config's shell hook runs with (materialize.ts gives the config's folder as its baseDir). */
const projectDirOf = (h: NonNullable<ResolvedConfig['shellHooks']>[number], config: ResolvedConfig): string => {
  const own = h.env?.[PROJECT_DIR_VAR];
  return own === undefined ? config.dir : resolve(h.cwd ?? config.dir, own);
};

/**
 * The files `config` names that run: hook modules (with their relative imports), plugins loaded by path
 * without a sha256 pin (a pin is in the config's bytes already), and the
 * files a shell hook's command or a stdio MCP server's command line names.
 * `cwd` is where MCP servers start (their `cwd` is relative to it).
 */
async function namedFiles(config: ResolvedConfig, cwd: string): Promise<string[]> {
  const files = new Set<string>();
  for (const m of config.hookModules ?? []) for (const f of await moduleGraph(m.module)) files.add(f);
  for (const p of config.plugins ?? []) if (p.path !== undefined && p.sha256 === undefined) files.add(p.path);
  for (const h of config.shellHooks ?? []) {
    for (const f of await commandFiles([h.command], h.cwd ?? config.dir, projectDirOf(h, config))) files.add(f);
  }
  for (const server of Object.values(config.mcpServers ?? {})) {
    if (!isStdio(server)) continue;
    for (const f of await commandFiles([server.command, ...(server.args ?? [])], resolve(cwd, server.cwd ?? '.'))) files.add(f);
  }
  return [...files].sort();
}

/** The fingerprint of what `config` runs, as the files are now. Throws naming a file that cannot be read. */
export async function fingerprint(config: ResolvedConfig, cwd: string): Promise<Fingerprint> {
  const files: Record<string, string> = {};
  for (const path of await namedFiles(config, cwd)) {
    try {
      files[path] = await sha256(await readRegularFile(path, MAX_NAMED_FILE_BYTES));
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') files[path] = MISSING;
      else throw new Error(`cannot read ${path}, which ${config.file} names: ${messageOf(error)}`);
    }
  }
  return { dir: await realpath(config.dir).catch(() => config.dir), files };
}

/** Why `now` is not what was trusted (`then`), naming each file; undefined when they are the same. */
export function fingerprintChange(then: Fingerprint, now: Fingerprint): string | undefined {
  if (then.dir !== now.dir) return `its relative paths now resolve against ${now.dir}, not ${then.dir} where it was trusted (a link to it from another folder)`;
  const changes: string[] = [];
  for (const [path, digest] of Object.entries(now.files)) {
    const before = then.files[path];
    if (before === undefined) changes.push(`it now names ${path}`);
    else if (before !== digest) changes.push(digest === MISSING ? `${path} is gone` : `${path} changed`);
  }
  for (const path of Object.keys(then.files)) if (!(path in now.files)) changes.push(`it no longer runs ${path}`);
  return changes.length > 0 ? `${changes.join(', ')} since it was trusted` : undefined;
}

/**
 * Why the files `config`'s shell hooks run differ from the trusted
 * fingerprint (undefined: they do not). Shell hooks read their script at
 * every call, so the CLI asks this before each one, not only at start.
 */
export async function shellFilesChanged(config: ResolvedConfig, trusted: Fingerprint): Promise<string | undefined> {
  const changed: string[] = [];
  for (const h of config.shellHooks ?? []) {
    for (const path of await commandFiles([h.command], h.cwd ?? config.dir, projectDirOf(h, config))) {
      const now = await readRegularFile(path, MAX_NAMED_FILE_BYTES).then(sha256, () => MISSING);
      if (trusted.files[path] !== now) changed.push(path);
    }
  }
  return changed.length > 0
    ? `${changed.join(', ')} changed since ${config.file} was trusted; not run. Read it, then run \`wasmhooks trust ${config.file}\` and start again`
    : undefined;
}
