import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { loadConfig, parseConfig } from '../../host/config/load.js';
import { materializeConfig } from '../../host/config/materialize.js';
import { pluginOptionFields } from '../../host/plugins/options.js';
import { configSchemas } from '../../host/config/schema.js';
import { encodePluginInfo } from '../../host/protocol/pb-codec.js';
import { sha256 } from '../../host/plugins/index.js';
import { cannedPlugin } from '../fixtures/canned.js';
import { schemaText } from '../../schema/generate.js';

async function configError(raw: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-config-'));
  const file = join(dir, 'wasmhooks.json');
  await writeFile(file, typeof raw === 'string' ? raw : JSON.stringify(raw));
  const error = await loadConfig(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WasmhooksError);
  expect((error as WasmhooksError).code).toBe('INVALID_CONFIG');
  return (error as Error).message;
}

describe('wasmhooks.json', () => {
  it('names the file, the path inside it, what was expected and what it got', async () => {
    expect(await configError({ plugins: [{ path: 'g.wasm', limits: { timeoutMs: -1 } }] })).toBe(
      'wasmhooks.json: plugins[0].limits.timeoutMs: expected a positive integer, got -1',
    );
    expect(await configError({ plugins: [{ url: 'https://example.com/g.wasm' }] })).toBe(
      'wasmhooks.json: plugins[0].sha256: a plugin loaded from a URL needs a sha256 pin, but it is missing',
    );
    expect(await configError({ shellHooks: [{ event: 'PreToolUse' }] })).toBe(
      'wasmhooks.json: shellHooks[0].command: expected a shell command as a string, but it is missing',
    );
    expect(await configError({ permissionMode: 'yolo' })).toMatch(/permissionMode: expected "default", .*, got "yolo"/);
    expect(await configError({ maxTurn: 3 })).toBe('wasmhooks.json: maxTurn: unknown field (check its spelling, or remove it)');
    expect(await configError({ hookModules: [{ module: 4 }] })).toBe(
      'wasmhooks.json: hookModules[0].module: expected a path to an ES module, got 4',
    );
  });

  it('lists every error at once', async () => {
    const message = await configError({ maxTurns: 0, shellHooks: [{ event: 'Nope', command: 'x' }] });
    expect(message).toMatch(/has 2 errors/);
    expect(message).toMatch(/maxTurns: expected a positive integer, got 0/);
    expect(message).toMatch(/shellHooks\[0\]\.event: expected a hook event .*got "Nope"/);
  });

  it('reports invalid JSON and a missing file', async () => {
    expect(await configError('{ "model": ')).toMatch(/^wasmhooks.json: not valid JSON/);
    await expect(loadConfig('/does/not/exist.json')).rejects.toThrow(/cannot read config/);
  });

  it('resolves relative paths against the file\'s folder', () => {
    const config = parseConfig(
      {
        plugins: [{ path: 'plugins/g.wasm', grants: { filePaths: { data: '/data' } } }, { path: '/abs/p.wasm', grants: { filePaths: ['ws'] } }],
        hookModules: ['./hooks.mjs', { module: 'other.mjs', export: 'guards' }],
        shellHooks: [{ event: 'Stop', command: 'true' }, { event: 'Stop', command: 'true', cwd: 'scripts' }],
      },
      { file: '/proj/wasmhooks.json', dir: '/proj' },
    );
    expect(config.plugins?.[0]).toMatchObject({ path: '/proj/plugins/g.wasm', grants: { filePaths: { '/proj/data': '/data' } } });
    expect(config.plugins?.[1]).toMatchObject({ path: '/abs/p.wasm', grants: { filePaths: ['/proj/ws'] } });
    expect(config.hookModules).toEqual([{ module: '/proj/hooks.mjs' }, { module: '/proj/other.mjs', export: 'guards' }]);
    expect(config.shellHooks?.map((h) => h.cwd)).toEqual(['/proj', '/proj/scripts']);
  });

  it('takes a plugin entry\'s options from the plugin loader\'s own schemas (test/plugins/plugin-option-schema.test.ts: one verdict)', () => {
    const entry = configSchemas().pluginEntrySchema.shape;
    const fields = pluginOptionFields();
    for (const key of Object.keys(fields) as Array<keyof typeof fields>) expect(entry[key].unwrap(), key).toBe(fields[key]);
  });

  it('loads plugins, hook modules and shell hooks', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-config-'));
    const wasm = cannedPlugin({ describe: encodePluginInfo({ name: 'canned', version: '1.0.0', protocolVersion: 1 }) });
    await writeFile(join(dir, 'canned.wasm'), wasm);
    await writeFile(
      join(dir, 'hooks.mjs'),
      'export default { PreToolUse: [{ matcher: "Bash", hooks: [async () => ({ decision: "deny", reason: "js" })] }] };\n',
    );
    await writeFile(
      join(dir, 'wasmhooks.json'),
      JSON.stringify({
        plugins: [{ path: 'canned.wasm', sha256: await sha256(wasm), limits: { timeoutMs: 500 } }],
        hookModules: ['hooks.mjs'],
        shellHooks: [{ event: 'PreToolUse', matcher: 'Bash', command: 'exit 2' }],
      }),
    );
    const parts = await materializeConfig(await loadConfig(join(dir, 'wasmhooks.json')));
    try {
      expect(parts.plugins.map((p) => [p.name, p.limits.timeoutMs])).toEqual([['canned', 500]]);
      expect(parts.hooks.PreToolUse?.[0]?.matcher).toBe('Bash');
      expect(parts.shell?.hooks().map((h) => [h.kind, h.event])).toEqual([['shell', 'PreToolUse']]);
    } finally {
      await parts.close();
    }
  });

  it('names the config entry when a plugin or module fails to load', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-config-'));
    await writeFile(join(dir, 'canned.wasm'), cannedPlugin({ describe: encodePluginInfo({ name: 'c', protocolVersion: 1 }) }));
    const pinned = parseConfig({ plugins: [{ path: 'canned.wasm', sha256: '0'.repeat(64) }] }, { file: join(dir, 'wasmhooks.json'), dir });
    await expect(materializeConfig(pinned)).rejects.toThrow(/^wasmhooks.json: plugins\[0\]: plugin .* does not match its pin/);
    await writeFile(join(dir, 'bad.mjs'), 'export default { PreToolUse: [{ hooks: ["not a function"] }] };\n');
    const mod = parseConfig({ hookModules: ['bad.mjs'] }, { file: join(dir, 'wasmhooks.json'), dir });
    await expect(materializeConfig(mod)).rejects.toThrow(/hookModules\[0\] .*PreToolUse\[0\]: expected \{ matcher\?, hooks/);
  });

  it('publishes an up-to-date JSON schema (run npm run gen:schema when this fails)', async () => {
    const committed = await readFile(new URL('../../schema/wasmhooks.schema.json', import.meta.url), 'utf8');
    expect(committed).toBe(schemaText());
  });
});
