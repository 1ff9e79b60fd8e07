// rdist (red team of how plugins and config reach a user's machine) on Node, Deno and Bun against the build.
// Each fails on the code before.
// 1. wasmhooks.lock, which comes with a cloned repository and is read on every load of its config: a FIFO hung
//    the load, a link to /dev/zero was read until the string length ran out, a huge one was read whole.
// 2. Under Bun, the CLI in a cloned repository ran with its .env in the environment (Bun loads it before any of
//    wasmhooks runs: OPENAI_BASE_URL took the user's OPENAI_API_KEY to the repository's host, with no trust asked)
//    and its bunfig.toml read (a preload ran): the CLI now refuses to start there unless Bun's command line turns
//    them off. Node and Deno load neither, and start.
// 3. The CLI's own plugin reader (plugin add, inspect, verify, replay) read a URL without cap or deadline (a
//    server streaming without end filled memory) and a path or plugin add's wasmhooks.json with readFile (a FIFO
//    in a cloned repository hung the command): it now uses the loader's readers (64 MiB, regular files or named
//    FIFOs read without blocking) and the config's reader.
// Vitest twin of 1: test/config/rdist-lock-file.test.ts. 2 and 3 spawn the CLI under each runtime.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
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

/** Lets a reader stuck opening `fifo` (the old code) go after `ms`, so that the command ends either way. */
function releaseLater(fifo: string, ms: number): () => void {
  const timer = setTimeout(() => {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // nobody waiting on it
    }
  }, ms);
  return () => clearTimeout(timer);
}

async function cliPluginReads(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-rdist-read-'));
  // A plugin server that sends 1 MiB chunks past the 64 MiB cap, without a length.
  const chunk = new Uint8Array(1 << 20);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/wasm' });
    let sent = 0;
    const more = () => {
      while (sent < 70) {
        sent++;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('error', () => {});
    more();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const said = (r: { code: number | null; stdout: string; stderr: string }) => `exit ${r.code}: ${r.stdout}${r.stderr}`;
  try {
    const big = await runCli(['plugin', 'inspect', `http://127.0.0.1:${port}/big.wasm`], dir);
    if (big.code === 0 || !/larger than the 67108864-byte limit|above the 67108864-byte limit/.test(big.stderr)) fail(`a download past 64 MiB: ${said(big)}`);

    execFileSync('mkfifo', [join(dir, 'p.wasm')]);
    const stop = releaseLater(join(dir, 'p.wasm'), 6_000);
    let started = performance.now();
    const fifo = await runCli(['plugin', 'inspect', './p.wasm'], dir);
    stop();
    if (fifo.code === 0 || performance.now() - started > 5_000) fail(`a plugin path that is a FIFO: ${Math.round(performance.now() - started)} ms, ${said(fifo)}`);

    execFileSync('mkfifo', [join(dir, 'wasmhooks.json')]);
    const release = releaseLater(join(dir, 'wasmhooks.json'), 6_000);
    started = performance.now();
    const add = await runCli(['plugin', 'add', 'calc'], dir);
    release();
    if (add.code === 0 || performance.now() - started > 5_000 || !add.stderr.includes('not a regular file')) fail(`plugin add with a wasmhooks.json that is a FIFO: ${Math.round(performance.now() - started)} ms, ${said(add)}`);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const scenarios: Record<string, () => Promise<void>> = {
  'a wasmhooks.lock that is a FIFO, a link to /dev/zero or past 4 MiB is refused unread, at once': nodeTwin('test/config/rdist-lock-file.test.ts', 'lockFileNotRegular', () =>
    lockFileNotRegular({ loadConfig: dist.loadConfig, materializeConfig: dist.materializeConfig as never })),
  'plugin inspect / add: a download past 64 MiB, a plugin path or a wasmhooks.json that is a FIFO fail at once': cliPluginReads,
  'the CLI under Bun refuses a working directory whose .env or bunfig.toml Bun loaded (the API key stays home); Node and Deno start': bunWorkspaceFilesRefused,
};
