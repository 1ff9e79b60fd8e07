/**
 * Bun reads two kinds of file from the working directory before any of
 * wasmhooks runs: `.env` files, loaded into the environment (`OPENAI_BASE_URL`
 * pointed the user's API key at a host of the repository's choosing; `PATH`,
 * `BASH_ENV` reach every command the Bash tool runs), and `bunfig.toml`
 * (`preload` runs a module first). A cloned repository ships both. On Bun the
 * CLI refuses to start while either is there and not turned off on Bun's
 * command line (`--no-env-file`, `--config=<file>`): what Bun already loaded
 * cannot be told apart from the user's own environment afterwards.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The files Bun loads into the environment from the working directory (each NODE_ENV's, to be safe). */
const ENV_FILES = ['.env', '.env.local', ...['development', 'production', 'test'].flatMap((mode) => [`.env.${mode}`, `.env.${mode}.local`])];

const exists = (path: string) => stat(path).then(() => true, () => false);

/**
 * Why the CLI must not go on under Bun in `cwd` (undefined: it may). `execArgv` is Bun's own command line
 * (`process.execArgv`): `--no-env-file` or `--env-file=…` turn the `.env` loading off, `--config`/`-c` the
 * working directory's bunfig.toml.
 */
export async function bunWorkspaceFiles(cwd: string, execArgv: readonly string[]): Promise<string | undefined> {
  const envOff = execArgv.some((a) => a === '--no-env-file' || a.startsWith('--env-file'));
  const configOff = execArgv.some((a) => a === '-c' || a.startsWith('-c=') || a.startsWith('--config'));
  const found: string[] = [];
  if (!envOff) for (const name of ENV_FILES) if (await exists(join(cwd, name))) found.push(name);
  const bunfig = !configOff && (await exists(join(cwd, 'bunfig.toml')));
  if (found.length === 0 && !bunfig) return undefined;
  const what = [
    ...(found.length > 0 ? [`loaded ${found.join(', ')} into the environment (a repository's .env can send your API key elsewhere with OPENAI_BASE_URL, or change what every command runs with PATH or BASH_ENV)`] : []),
    ...(bunfig ? ['read bunfig.toml (its preload has already run, if it has one)'] : []),
  ];
  return (
    `Bun ${what.join(' and ')} from ${cwd} before wasmhooks started. ` +
    `Start it with those turned off: bun --no-env-file --config=<your bunfig, or /dev/null> dist/cli.js …, or run it with Node.`
  );
}
