// Runs the CLI as a real process. The CLI is bundled once per test file with
// esbuild (dependencies external), which starts about three times faster than tsx,
// split into chunks as dist/ is: a command's code loads only when it runs (a child
// running `run` took 0.86-0.94 s of CPU from one file, 0.27-0.33 s split).
import { spawn, type SpawnOptions } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { encodePluginInfo } from '../../host/protocol/pb-codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { cannedPlugin } from '../fixtures/canned.js';

export const repo = fileURLToPath(new URL('../..', import.meta.url));

let bundle: Promise<string> | undefined;

/** Bundles host/cli/main.ts inside the repo (so node_modules resolve) and returns its path. */
export function cliBundle(): Promise<string> {
  bundle ??= (async () => {
    // At the depth of dist/'s files below the repo: the first-party plugins are looked for up to three levels up.
    const outdir = join(repo, 'node_modules/.cache', `wasmhooks-cli-${process.pid}`);
    // One folder per test process (vitest ends its workers without an exit event): those of runs over an hour old go.
    await pruneBundles(join(repo, 'node_modules/.cache'), 3_600_000);
    await rm(outdir, { recursive: true, force: true }); // a reused pid's folder: made anew, so its age is this run's
    await build({
      entryPoints: { cli: join(repo, 'host/cli/main.ts') },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      target: 'es2022',
      outdir,
      outExtension: { '.js': '.mjs' },
      logLevel: 'silent',
    });
    return join(outdir, 'cli.mjs');
  })();
  return bundle;
}

async function pruneBundles(cache: string, olderThanMs: number): Promise<void> {
  const names = await readdir(cache).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith('wasmhooks-cli'))) {
    const path = join(cache, name);
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: Date.now() }));
    if (Date.now() - mtimeMs > olderThanMs) await rm(path, { recursive: true, force: true });
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cmd` with stdout and stderr collected; resolves when it exits (a `timeout` in `options` kills it then). */
export function runProcess(cmd: string, args: string[], options: SpawnOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function cli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return runProcess(process.execPath, ['--disable-warning=ExperimentalWarning', await cliBundle(), ...args], {
    cwd: options.cwd ?? repo,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', ...options.env },
  });
}

const v1 = wasmhooks.v1;

/** A plugin bound to PreToolUse on Bash that always answers `decision` (and asks for `configKeys`). */
export function cannedGuard(decision: 'allow' | 'deny', options: { name?: string; configKeys?: string[] } = {}): Uint8Array {
  const code = decision === 'allow' ? v1.Decision.DECISION_ALLOW : v1.Decision.DECISION_DENY;
  return cannedPlugin({
    describe: encodePluginInfo({
      name: options.name ?? `canned-${decision}`,
      version: '0.1.0',
      protocolVersion: 1,
      description: `always ${decision}s Bash`,
      hooks: [{ event: v1.HookEvent.HOOK_EVENT_PRE_TOOL_USE, matcher: 'Bash' }],
      tools: [{ name: 'Echo', description: 'echoes', inputSchemaJson: '{"type":"object"}' }],
      grants: { configKeys: options.configKeys ?? [] },
    }),
    hook: v1.HookResponse.encode({ decision: code, reason: `canned ${decision}` }).finish(),
    tool: v1.ToolResponse.encode({ content: 'echo' }).finish(),
  });
}

/** A fresh folder holding the given files (strings or bytes). */
export async function workspace(files: Record<string, string | Uint8Array | object>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-cli-'));
  for (const [name, content] of Object.entries(files)) {
    const data = typeof content === 'string' || content instanceof Uint8Array ? content : JSON.stringify(content, null, 2);
    await writeFile(join(dir, name), data);
  }
  return dir;
}

/** Two Bash calls (a harmless one and a destructive one), then a closing text. */
export const bashScript = {
  turns: [
    {
      text: 'Let me look around.',
      toolCalls: [
        { name: 'Bash', input: { command: 'ls -la' } },
        { name: 'Bash', input: { command: 'rm -rf /' } },
      ],
    },
    { text: 'All done here.' },
  ],
};
