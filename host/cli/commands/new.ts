/** `wasmhooks plugin new <name> [--lang c]`: scaffolds a plugin project on the guest SDK (AssemblyScript) or the C SDK. */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { CliError, EXIT, type ExitCode } from '../exit.js';
import type { CliIO } from '../io.js';
import { scaffoldFiles } from '../scaffold.js';
import { scaffoldFilesC } from '../scaffold-c.js';
import { findUp } from '../toolchain.js';
import type { PluginLang } from '../plugin-langs.js';


export interface NewFlags {
  dir?: string;
  lang?: PluginLang;
}

const NAME = /^[a-z][a-z0-9-]{0,62}$/;

export async function newCommand(name: string, flags: NewFlags, io: CliIO): Promise<ExitCode> {
  if (!NAME.test(name)) {
    throw new CliError(`plugin name "${name}": use lower-case letters, digits and dashes, starting with a letter (e.g. my-guard)`, EXIT.USAGE);
  }
  const dir = resolve(io.cwd, flags.dir ?? name);
  if (existsSync(dir) && (!statSync(dir).isDirectory() || readdirSync(dir).length > 0)) {
    throw new CliError(`${relative(io.cwd, dir) || dir} already exists and is not empty; pick another name or --dir`, EXIT.USAGE);
  }
  const files = flags.lang === 'c' ? scaffoldFilesC(name) : scaffoldFiles(name);
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  const where = relative(io.cwd, dir) || '.';
  const hints = nextSteps(io.cwd, where, name);
  // C builds need a compiler npm does not bring.
  if (flags.lang === 'c') hints.push('  (the C build needs clang and lld: Debian/Ubuntu sudo apt-get install clang lld)');
  io.stdout.write([`created ${where}/ (${Object.keys(files).join(', ')})`, '', 'next:', ...hints, ''].join('\n'));
  return EXIT.OK;
}

/** Hints that work where the command ran: inside a wasmhooks checkout, its own scripts; elsewhere, the project's. */
function nextSteps(cwd: string, where: string, name: string): string[] {
  const pkg = findUp(cwd, 'package.json');
  let inRepo = false;
  try {
    inRepo = pkg !== undefined && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'wasmhooks';
  } catch {
    inRepo = false;
  }
  if (inRepo) {
    const root = dirname(pkg as string);
    const rel = relative(root, resolve(cwd, where)) || '.';
    const cd = relative(cwd, root) ? [`  cd ${relative(cwd, root)}`] : [];
    return [...cd, `  npm run wasmhooks -- plugin build ${rel}`, `  npm run wasmhooks -- plugin test ${rel}/build/${name}.wasm --events ${rel}/test/cases.jsonl`];
  }
  return [`  cd ${where}`, '  npm install', '  npm test        # builds build/' + name + '.wasm and checks test/cases.jsonl'];
}
