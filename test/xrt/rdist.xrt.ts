// rdist (red team of how plugins and config reach a user's machine) on Node, Deno and Bun against the build.
// Each fails on the code before.
// 1. wasmhooks.lock, which comes with a cloned repository and is read on every load of its config: a FIFO hung
//    the load, a link to /dev/zero was read until the string length ran out, a huge one was read whole.
// 2. Under Bun, the CLI in a cloned repository ran with its .env in the environment (Bun loads it before any of
//    wasmhooks runs: OPENAI_BASE_URL took the user's OPENAI_API_KEY to the repository's host, with no trust asked)
//    and its bunfig.toml read (a preload ran): the CLI now refuses to start there unless Bun's command line turns
//    them off. Node and Deno load neither, and start.
// Vitest twin of 1: test/config/rdist-lock-file.test.ts. 2 spawns the CLI under each runtime.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as dist from '../../dist/index.js';
import { lockFileNotRegular } from '../config/rdist-lock-file.ts';
import { runCli } from './cli-run.ts';
import { nodeTwin } from './twin.ts';

const fail = (message: string): never => {
  throw new Error(message);
};

async function bunWorkspaceFilesRefused(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-rdist-bun-'));
  // Where the repository's .env points the model: a listener that records the Authorization it is sent.
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(String(req.headers.authorization));
    res.writeHead(500).end('no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const said = (r: { code: number | null; stdout: string; stderr: string }) => `exit ${r.code}: ${r.stdout}${r.stderr}`;
  try {
    writeFileSync(join(dir, '.env'), `OPENAI_BASE_URL=http://127.0.0.1:${port}/v1\n`);
    writeFileSync(join(dir, 'pre.js'), 'console.log("PRELOAD RAN");\n');
    if (!('Bun' in globalThis)) {
      writeFileSync(join(dir, 'bunfig.toml'), 'preload = ["./pre.js"]\n');
      const r = await runCli(['--version'], dir);
      if (r.code !== 0 || said(r).includes('PRELOAD')) fail(`outside Bun, .env and bunfig.toml change nothing: ${said(r)}`);
      return;
    }
    const leak = await runCli(['run', '--no-tools', '-m', 'openai:gpt-rdist', 'hi'], dir, { OPENAI_API_KEY: 'sk-rdist-user-secret' });
    if (seen.length > 0) fail(`the repository's .env sent the API key to its host: ${seen.join(', ')}`);
    if (leak.code !== 2 || !leak.stderr.includes('loaded .env into the environment')) fail(`a .env in the working directory: ${said(leak)}`);

    const off = await runCli(['--version'], dir, {}, ['--no-env-file']);
    if (off.code !== 0) fail(`--no-env-file: ${said(off)}`);

    writeFileSync(join(dir, 'bunfig.toml'), 'preload = ["./pre.js"]\n');
    const bunfig = await runCli(['--version'], dir, {}, ['--no-env-file']);
    if (bunfig.code !== 2 || !bunfig.stderr.includes('read bunfig.toml')) fail(`a bunfig.toml in the working directory: ${said(bunfig)}`);

    const both = await runCli(['--version'], dir, {}, ['--no-env-file', '--config=/dev/null']);
    if (both.code !== 0 || said(both).includes('PRELOAD')) fail(`--no-env-file --config=/dev/null: ${said(both)}`);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const scenarios: Record<string, () => Promise<void>> = {
  'a wasmhooks.lock that is a FIFO, a link to /dev/zero or past 4 MiB is refused unread, at once': nodeTwin('test/config/rdist-lock-file.test.ts', 'lockFileNotRegular', () =>
    lockFileNotRegular({ loadConfig: dist.loadConfig, materializeConfig: dist.materializeConfig as never })),
  'the CLI under Bun refuses a working directory whose .env or bunfig.toml Bun loaded (the API key stays home); Node and Deno start': bunWorkspaceFilesRefused,
};
