// Runs the built CLI (dist/cli.js) as a child of this runtime (Node, Deno or Bun), for the CLI scenarios.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** This runtime's command line for the CLI with `args` (and, under Bun, Bun's own flags `bunFlags`). */
function command(args: string[], bunFlags: string[]): string[] {
  if ('Deno' in globalThis) return [process.execPath, 'run', '-A', cli, ...args];
  if ('Bun' in globalThis) return [process.execPath, ...bunFlags, cli, ...args];
  return [process.execPath, '--disable-warning=ExperimentalWarning', cli, ...args];
}

export function runCli(args: string[], cwd: string, env: Record<string, string> = {}, bunFlags: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [bin, ...rest] = command(args, bunFlags);
  return new Promise((resolve, reject) => {
    const child = spawn(bin!, rest, { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Uint8Array) => (stdout += new TextDecoder().decode(d)));
    child.stderr!.on('data', (d: Uint8Array) => (stderr += new TextDecoder().decode(d)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
