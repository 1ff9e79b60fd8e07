// The first-party plugins the package ships pre-instrumented (plugins/prebuilt.json,
// written by scripts/preinstrument.ts during `build:plugins`; why that is safe:
// host/sandbox/compiled.ts). Each shipped file must be byte for byte what the
// instrumenter makes of its plugin today; loading by name with the default
// options uses it; other options, and a file that is not the recorded one, do not.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPlugin } from '../../host/plugins/index.js';
import { firstPartyPlugins, prebuiltReader } from '../../host/plugins/first-party.js';
import { clearCompiledCache, clearPrebuilt, compiledEntries, registerPrebuilt } from '../../host/sandbox/compiled.js';
import { sha256 } from '../../host/sandbox/digest.js';

const plugins = new URL('../../plugins/', import.meta.url);
const shipped = JSON.parse(readFileSync(new URL('prebuilt.json', plugins), 'utf8')) as Record<string, { file: string; sha256: string; bytes: number }>;
// As scripts/preinstrument.ts loads them (path-guard needs its config key; grants change neither bytes nor options).
const options = { grants: { configKeys: ['workspace'] }, config: { workspace: '/tmp' } };
const input = { session_id: 's', cwd: '/tmp', turn: 1, iteration: 1, permission_mode: 'default' as const, hook_event_name: 'PreToolUse' as const, tool_name: 'Bash', tool_input: { command: 'ls -la' }, tool_use_id: 't' };

/** Loads `name` with no cached module and returns the key and instrumented bytes it compiled. */
async function compiledBy(name: string, extra: Record<string, unknown> = {}): Promise<[string, Uint8Array]> {
  clearCompiledCache();
  const plugin = await loadPlugin({ name }, { ...options, ...extra });
  await plugin.close();
  const entries = await compiledEntries();
  expect(entries).toHaveLength(1);
  return entries[0]!;
}

afterEach(() => clearCompiledCache());

describe('pre-instrumented first-party plugins', () => {
  it('ships every first-party plugin, each file what the instrumenter makes of it today', async () => {
    const all = await firstPartyPlugins(); // registers the shipped files, then they are set aside
    clearPrebuilt();
    expect(Object.keys(shipped)).toHaveLength(all.length);
    for (const { name } of all) {
      const [key, fresh] = await compiledBy(name);
      const entry = shipped[key];
      expect(entry, `${name}: no shipped file for ${key} (run npm run build:plugins)`).toBeDefined();
      const bytes = new Uint8Array(readFileSync(new URL(entry!.file, plugins)));
      expect(Buffer.compare(bytes, fresh), `${name}: ${entry!.file} is stale (run npm run build:plugins)`).toBe(0);
      expect(await sha256(bytes)).toBe(entry!.sha256);
    }
  });

  it('loading by name with the default options uses the shipped file; other options instrument anew', async () => {
    await firstPartyPlugins();
    clearPrebuilt();
    const [key] = await compiledBy('guard-shell');
    const entry = shipped[key]!;
    let reads = 0;
    const real = prebuiltReader(new URL(entry.file, plugins), entry.sha256);
    registerPrebuilt(key, async () => (reads++, real()));
    clearCompiledCache();
    const plugin = await loadPlugin({ name: 'guard-shell' });
    expect(reads).toBe(1);
    const r = await plugin.callHook(input);
    expect(r).toMatchObject({ ok: true, output: { decision: 'allow' } });
    expect(await plugin.callHook({ ...input, tool_input: { command: 'rm -rf /' } })).toMatchObject({ ok: true, output: { decision: 'deny' } });
    await plugin.close();
    const [other] = await compiledBy('guard-shell', { limits: { maxMemoryPages: 128 } });
    expect(other).not.toBe(key);
    expect(reads).toBe(1);
    clearPrebuilt();
  });

  it('a shipped file that is missing or not the recorded one is not used: the plugin is instrumented at load', async () => {
    const entry = Object.values(shipped)[0]!;
    const good = prebuiltReader(new URL(entry.file, plugins), entry.sha256);
    expect((await good())?.length).toBe(entry.bytes);
    const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-prebuilt-'));
    const altered = new Uint8Array(readFileSync(new URL(entry.file, plugins)));
    altered[altered.length - 1]! ^= 1;
    writeFileSync(join(dir, 'altered.wasm'), altered);
    expect(await prebuiltReader(pathToFileURL(join(dir, 'altered.wasm')), entry.sha256)()).toBeUndefined();
    expect(await prebuiltReader(pathToFileURL(join(dir, 'missing.wasm')), entry.sha256)()).toBeUndefined();

    await firstPartyPlugins();
    clearPrebuilt();
    const [key, fresh] = await compiledBy('guard-shell');
    registerPrebuilt(key, prebuiltReader(pathToFileURL(join(dir, 'altered.wasm')), entry.sha256));
    const [again, bytes] = await compiledBy('guard-shell');
    expect(again).toBe(key);
    expect(Buffer.compare(bytes, fresh)).toBe(0);
    clearPrebuilt();
  });

  it('the build reads its own plugins/ only: not a manifest further up (node_modules/plugins/), nor its "instrumented" files', async () => {
    // The package as installed, but without its own plugins/: node_modules/wasmhooks/dist/<chunk>. The lookup
    // went on to node_modules/plugins/first-party.json, which any package named "plugins" could ship (naming
    // any bytes guard-shell), with a prebuilt.json of its own for the compiled-cache key of guard-shell's
    // bytes with the default options: the host ran those bytes as guard-shell instrumented.
    const repo = fileURLToPath(new URL('../../', import.meta.url));
    const root = join(repo, 'node_modules/.cache/wasmhooks-prebuilt-trust', String(process.pid));
    rmSync(root, { recursive: true, force: true });
    const foreign = join(root, 'node_modules/plugins');
    mkdirSync(join(foreign, 'guard-shell/build'), { recursive: true });
    const own = (await firstPartyPlugins()).find((p) => p.name === 'guard-shell')!;
    clearPrebuilt();
    copyFileSync(own.url, join(foreign, 'guard-shell/build/guard-shell.wasm'));
    writeFileSync(join(foreign, 'first-party.json'), JSON.stringify({ 'guard-shell': { file: 'guard-shell/build/guard-shell.wasm', sha256: own.sha256, bytes: own.bytes } }));
    const [key, fresh] = await compiledBy('guard-shell');
    // Any bytes at all; here the honest module with a custom section appended (valid, loads, and not the instrumenter's).
    const name = new TextEncoder().encode('not-ours');
    const foreignBytes = Buffer.concat([fresh, Buffer.from([0, name.length + 1, name.length]), name]);
    const digest = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    writeFileSync(join(foreign, 'guard-shell/build/guard-shell.instrumented.wasm'), foreignBytes);
    writeFileSync(join(foreign, 'prebuilt.json'), JSON.stringify({ [key]: { file: 'guard-shell/build/guard-shell.instrumented.wasm', sha256: digest(foreignBytes) } }));
    const outfile = join(root, 'node_modules/wasmhooks/dist/index.js');
    await build({
      stdin: {
        contents: `import { loadPlugin } from './host/plugins/index.ts';
import { compiledEntries } from './host/sandbox/compiled.ts';
import { createHash } from 'node:crypto';
try {
  const plugin = await loadPlugin({ name: 'guard-shell' });
  await plugin.close();
  for (const [, bytes] of await compiledEntries()) console.log(createHash('sha256').update(bytes).digest('hex'));
} catch (error) {
  console.log(error.code, error.message);
}`,
        resolveDir: repo,
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      target: 'es2022',
      outfile,
      logLevel: 'silent',
    });
    const compiled = () => {
      const run = spawnSync(process.execPath, ['--no-warnings', outfile], { encoding: 'utf8', timeout: 60_000 });
      expect(run.stderr).toBe('');
      return run.stdout.trim().split('\n');
    };
    try {
      const [refused] = compiled();
      expect(refused).toMatch(/^LOAD_FAILED the first-party plugins are not built .*node_modules\/wasmhooks\/plugins\/first-party\.json/);
      expect(refused).not.toMatch(/node_modules\/plugins\//);
      // The same files in the package's own folder (node_modules/wasmhooks/plugins/) are trusted like its code: used.
      cpSync(foreign, join(root, 'node_modules/wasmhooks/plugins'), { recursive: true });
      expect(compiled()).toEqual([digest(foreignBytes)]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
