// Plugins written in C with the C SDK (sdk-c/) on every runtime, through the
// built ESM: the first-party path-guard-c decides like the AssemblyScript
// path-guard, a C plugin's tool runs in an agent run with progress and a Stop
// block, the C codec re-encodes the shared vectors byte for byte, and the
// built CLI scaffolds, builds (clang) and tests a C plugin.
// The .wasm files are built by scripts/build-c.ts (the vitest global setup).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost, createSandbox, loadPlugin, scriptedModel } from '../../dist/index.js';
import type { HookCommon, HookInput, HostEvent } from '../../dist/index.js';

const wasm = async (path: string) => new Uint8Array(await readFile(new URL(`../../${path}`, import.meta.url)));
const common: HookCommon = { session_id: 'xrt', cwd: '/work/app', turn: 1, iteration: 1, permission_mode: 'default' };
const read = (file_path: string): HookInput => ({ ...common, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path }, tool_use_id: 't1' });

/** The built CLI (dist/cli.js) under this runtime. */
function cli(args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  const entry = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
  const argv = 'Deno' in globalThis ? ['run', '-A', entry, ...args] : 'Bun' in globalThis ? [entry, ...args] : ['--disable-warning=ExperimentalWarning', entry, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Uint8Array) => (out += new TextDecoder().decode(d)));
    child.stderr!.on('data', (d: Uint8Array) => (out += new TextDecoder().decode(d)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

export const scenarios: Record<string, () => Promise<void>> = {
  'the CLI: plugin new --lang c, plugin build (clang), plugin test pass': async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-xrt-c-'));
    try {
      const created = await cli(['plugin', 'new', 'xrt-guard', '--lang', 'c'], dir);
      assert.equal(created.code, 0, created.out);
      const project = join(dir, 'xrt-guard');
      const built = await cli(['plugin', 'build'], project);
      assert.equal(built.code, 0, built.out);
      assert.match(built.out, /^built build\/xrt-guard\.wasm /);
      const tested = await cli(['plugin', 'test', 'build/xrt-guard.wasm', '--events', 'test/cases.jsonl'], project);
      assert.equal(tested.code, 0, tested.out);
      assert.match(tested.out, /5\/5 expectations met/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },

  'path-guard-c (C) decides like path-guard (AssemblyScript), reason for reason': async () => {
    const options = { grants: { configKeys: ['workspace'] }, config: { workspace: '/work/app,/tmp/scratch' } };
    const c = await loadPlugin({ bytes: await wasm('plugins/path-guard-c/build/path-guard-c.wasm') }, options);
    const as = await loadPlugin({ bytes: await wasm('plugins/path-guard/build/path-guard.wasm') }, options);
    try {
      assert.equal(c.info.name, 'path-guard-c');
      assert.deepEqual(c.info.hooks, as.info.hooks);
      for (const path of ['src/../../../etc/passwd', '/work/application/x', './src/index.ts', '~/.ssh/id_rsa', '/tmp/scratch/a', 'a\u0000b']) {
        const [fromC, fromAs] = [await c.callHook(read(path)), await as.callHook(read(path))];
        assert.ok(fromC.ok && fromAs.ok, JSON.stringify({ fromC, fromAs }));
        assert.equal(fromC.output.decision, fromAs.output.decision, path);
        assert.equal(fromC.output.reason, fromAs.output.reason, path);
      }
      const escape = await c.callHook(read('src/../../../etc/passwd'));
      assert.match((escape.ok && escape.output.reason) || '', /^path-guard: dotdot-escape: .*resolves to \/etc\/passwd/);
    } finally {
      await Promise.all([c.close(), as.close()]);
    }
  },

  'a C plugin in an agent run: its tool reports progress, its Stop hook blocks once': async () => {
    const plugin = await loadPlugin({ bytes: await wasm('test/fixtures/sdk-features-c/build/sdk-features-c.wasm') }, {
      grants: { configKeys: ['token'] },
      config: { token: 't' },
    });
    try {
      const host = createHost({
        plugins: [plugin],
        permissionMode: 'bypassPermissions',
        model: scriptedModel({
          turns: [{ toolCalls: [{ name: 'count', input: { to: 2 } }] }, { text: 'first try' }, { text: 'done' }],
        }),
      });
      const events: HostEvent[] = [];
      for await (const event of host.session().stream('count to two')) events.push(event);
      const output = events.find((e) => e.type === 'tool.output');
      assert.ok(output && output.type === 'tool.output', JSON.stringify(events.map((e) => e.type)));
      assert.match(JSON.stringify(output), /counted to 2 for /);
      assert.equal(events.filter((e) => e.type === 'tool.progress').length, 2);
      const stops = events.filter((e) => e.type === 'hook.end' && JSON.stringify(e).includes('the tests have not run yet'));
      assert.equal(stops.length, 1, JSON.stringify(events.filter((e) => e.type === 'hook.end')));
      const end = events.at(-1);
      assert.ok(end?.type === 'agent.end' && end.result.subtype === 'success', JSON.stringify(end));
    } finally {
      await plugin.close();
    }
  },

  'the C codec re-encodes the shared vectors byte for byte (vector-echo-c in the sandbox)': async () => {
    const vectors = JSON.parse(await readFile(new URL('../../proto/testdata/vectors.json', import.meta.url), 'utf8')) as { type: string; hex: string; canonicalHex?: string }[];
    const sandbox = await createSandbox(await wasm('test/fixtures/vector-echo-c/build/vector-echo-c.wasm'));
    const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    const bytes = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
    try {
      for (const v of vectors) {
        const head = new TextEncoder().encode(`${v.type.replace(/^wasmhooks\.v1\./, '')}\n`);
        const input = new Uint8Array([...head, ...bytes(v.hex)]);
        const outcome = await sandbox.call('echo', input);
        assert.ok(outcome.ok, JSON.stringify(outcome));
        assert.equal(hex(outcome.output), v.canonicalHex ?? v.hex, v.type);
      }
      const bad = await sandbox.call('echo', new TextEncoder().encode('HookRequest\n\x08'));
      assert.ok(!bad.ok && bad.failure.code === 'PLUGIN_ERROR' && /truncated varint/.test(bad.failure.message), JSON.stringify(bad));
    } finally {
      await sandbox.close();
    }
  },
};
