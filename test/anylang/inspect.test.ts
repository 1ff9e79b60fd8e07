// `plugin inspect` on plugins in other languages: what a WASI plugin needs,
// an Extism plugin's exports usable as tools, and the grants (with the pin)
// a wasmhooks.json beside it gives.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../host/sandbox/digest.js';
import { cli, workspace } from '../cli/helpers.js';
import { hostile } from '../sandbox/sandbox-helpers.js';
import { extismVowels, wasiGuard } from './helpers.js';

describe('plugin inspect, any language', () => {
  it('a C plugin on wasi-libc: describes (with WASI on for inspection only) and says it needs WASI', async () => {
    const dir = await workspace({ 'guard.wasm': await wasiGuard() });
    const r = await cli(['plugin', 'inspect', 'guard.wasm'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^wasi-guard 0\.1\.0\n  A C guard on wasi-libc\n/);
    expect(r.stdout).toMatch(/needs WASI\n  \d+ preview1 functions; loads only with "wasi"/);
    expect(r.stdout).not.toMatch(/granted by wasmhooks.json/);
  });

  it('an Extism plugin: its exports usable as tools, the host functions it needs, and the grant and pin from the config', async () => {
    const bytes = await extismVowels();
    const bare = await workspace({ 'vowels.wasm': bytes });
    const plain = await cli(['plugin', 'inspect', 'vowels.wasm'], { cwd: bare });
    expect(plain.code).toBe(1);
    expect(plain.stdout).toMatch(/exports usable as tools \(4\)\n  count_vowels, repeat, ask_host, spin/);
    expect(plain.stdout).toMatch(/needs host functions\n  lookup \(extism:host\/user; grant with grants.hostFunctions\)/);

    const dir = await workspace({
      'vowels.wasm': bytes,
      'wasmhooks.json': { plugins: [{ path: 'vowels.wasm', sha256: await sha256(bytes), tools: [{ name: 'count_vowels' }], grants: { hostFunctions: ['lookup'] } }] },
    });
    const r = await cli(['plugin', 'inspect', 'vowels.wasm'], { cwd: dir });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/granted by wasmhooks.json\n  pin +[0-9a-f]{64} \(matches\)\n  host functions lookup\n  wasi +off\n  as tools +count_vowels/);
    const json = JSON.parse((await cli(['plugin', 'inspect', 'vowels.wasm', '--json'], { cwd: dir })).stdout) as { configured: { pinMatches: boolean; grants: unknown } };
    expect(json.configured).toMatchObject({ pinMatches: true, grants: { hostFunctions: ['lookup'] } });
  });

  it('shows a WASI grant from the config (args, env, read-only directories)', async () => {
    const dir = await workspace({
      'guard.wasm': await wasiGuard(),
      'wasmhooks.json': { plugins: [{ path: 'guard.wasm', wasi: { args: ['g'], env: { K: 'v' }, preopens: { '/rules': 'rules' } } }] },
    });
    await mkdir(join(dir, 'rules'));
    const r = await cli(['plugin', 'inspect', 'guard.wasm'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/wasi +args \[g\], env \[K=v\], dirs \[\/rules → .*\/rules \(read-only\)\]/);
    expect(r.stdout).toMatch(/pin +none/);
  });

  it("runs describe with WASI's base only: the config's args, env and directories are shown, not granted", async () => {
    const dir = await workspace({
      'guard.wasm': await hostile('preopen-probe'),
      'wasmhooks.json': { plugins: [{ path: 'guard.wasm', wasi: { args: ['g'], env: { K: 'v' }, preopens: { '/keys': 'keys' } } }] },
    });
    await mkdir(join(dir, 'keys'));
    const r = await cli(['plugin', 'inspect', 'guard.wasm'], { cwd: dir });
    // Old code: describe ran with the repository's preopen (here of ./keys; as well of ~/.ssh) before any trust.
    expect(r.stdout).toMatch(/^sees-nothing 1\.0\.0\n/);
    expect(r.stdout).toMatch(/dirs \[\/keys → .*\/keys \(read-only\)\]/);
  });
});
