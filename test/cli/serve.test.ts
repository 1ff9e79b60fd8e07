import { spawn } from 'node:child_process';
import process from 'node:process';
import { beforeAll, describe, expect, it } from 'vitest';
import { cannedGuard, cliBundle, workspace } from './helpers.js';

beforeAll(async () => {
  await cliBundle();
}, 60_000);

/**
 * Runs `wasmhooks serve --port 0 …args` in `dir` until its banner matches `banner` (whose
 * first group is the URL), then `use(url)`; SIGTERM after, and the exit code must be 0.
 */
async function withServe(dir: string, args: string[], banner: RegExp, use: (url: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', await cliBundle(), 'serve', '--port', '0', ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = banner.exec(out);
        if (m) resolve(m[1]!);
      });
      void exited.then(() => reject(new Error(`serve exited early: ${stderr}`)));
    });
    await use(url);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
}

describe('wasmhooks serve', () => {
  it('serves the HTTP API over a host built from the flags, and stops cleanly on SIGTERM', async () => {
    const dir = await workspace({ 'deny.wasm': cannedGuard('deny') });
    await withServe(dir, ['--plugin', 'deny.wasm'], /serving on (http:\/\/\S+) \(model scripted, 3 plugins, 6 workspace tools\)/, async (url) => {
      const plugins = (await (await fetch(`${url}/plugins`)).json()) as { plugins: Array<{ name: string }> };
      expect(plugins.plugins.map((p) => p.name)).toEqual(['canned-deny', 'guard-shell', 'path-guard']);
      const created = await fetch(`${url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(created.status).toBe(201);
    });
  });
});

describe('wasmhooks serve with requireSignature', () => {
  it('POST /plugins refuses an unsigned plugin (SIGNATURE → 400) and serves the workspace tools only when asked', async () => {
    const dir = await workspace({ 'g.wasm': cannedGuard('deny'), 'wasmhooks.json': { requireSignature: true, trustedKeys: {} } });
    const args = ['--allow-plugin-loading', '--no-tools', '--no-default-guards'];
    await withServe(dir, args, /serving on (http:\/\/\S+) \(model scripted, 0 plugins, 0 workspace tools\)/, async (url) => {
      const r = await fetch(`${url}/plugins`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: `${dir}/g.wasm` }) });
      expect(r.status).toBe(400);
      const text = JSON.stringify(await r.json());
      expect(text, text).toMatch(/"code":"bad_request","message":"plugin .*g\.wasm is not signed .*requireSignature is on/);
    });
  });
});
