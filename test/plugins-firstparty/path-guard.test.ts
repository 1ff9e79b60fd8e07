// path-guard through the host: lexical confinement of file tools to the workspace.
// The same table runs against the AssemblyScript plugin and its C port
// (plugins/path-guard-c, on the C SDK): decision for decision, reason for reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel, WasmPlugin } from '../../host/index.js';
import type { HookResult, HostEvent } from '../../host/index.js';
import { builtPlugin, preToolUse } from './wasm.js';

const workspace = { grants: { configKeys: ['workspace'] }, config: { workspace: '/work/app,/tmp/scratch' } };

const reasonOf = (r: HookResult) => (r.ok ? r.output.reason ?? '' : `failure ${r.failure.code}`);

describe.each([
  ['path-guard (AssemblyScript)', 'path-guard'],
  ['path-guard-c (C SDK)', 'path-guard-c'],
])('%s', (_label, name) => {
  const wasm = builtPlugin(name);
  let guard: WasmPlugin;
  beforeAll(async () => {
    guard = await loadPlugin({ path: wasm }, workspace);
  });
  afterAll(() => guard.close());

  it('asks for the workspace config key and binds PreToolUse on the file tools, failing closed', async () => {
    expect(guard.info.grants.configKeys).toEqual(['workspace']);
    const [hook] = guard.hooks();
    expect(hook).toMatchObject({ event: 'PreToolUse', failurePolicy: 'fail-closed' });
    for (const tool of ['Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Glob', 'Grep', 'LS']) expect(hook!.matcher!.test(tool)).toBe(true);
    expect(hook!.matcher!.test('Bash')).toBe(false);
  });

  it('refuses to load unless the operator grants the workspace key', async () => {
    await expect(loadPlugin({ path: wasm })).rejects.toThrow(/config key "workspace"/);
  });

  it.each([
    ['Read', { file_path: '/work/app/src/index.ts' }],
    ['Read', { file_path: 'src/index.ts' }],
    ['Write', { file_path: './a/../b.txt' }],
    ['Edit', { file_path: '/work/app' }],
    ['NotebookEdit', { notebook_path: '/tmp/scratch/n.ipynb' }],
    ['Grep', { path: '/work//app///src/', pattern: 'TODO' }],
    ['Glob', { pattern: 'src/**/*.ts' }],
    ['Glob', { pattern: '/work/app/**/*.md' }],
    ['LS', {}],
  ])('lets %s %j through without an opinion', async (tool, input) => {
    expect(await guard.callHook(preToolUse(tool, input))).toMatchObject({ ok: true, output: { decision: 'continue' } });
  });

  it.each([
    ['Read', { file_path: '/etc/passwd' }, 'outside-workspace', '/etc/passwd'],
    ['Read', { file_path: '../../etc/passwd' }, 'dotdot-escape', 'resolves to /etc/passwd'],
    ['Write', { file_path: '/work/app/../app-secrets/key' }, 'dotdot-escape', '/work/app-secrets/key'],
    ['Read', { file_path: '/work/application/x' }, 'outside-workspace', '/work/application/x'],
    ['Read', { file_path: '/work/app/src/../../../../../../etc/shadow' }, 'dotdot-escape', 'resolves to /etc/shadow'],
    ['Read', { file_path: '~/.ssh/id_rsa' }, 'home-tilde', 'starts with ~'],
    ['Read', { file_path: '/work/app/a\u0000/../../etc/passwd' }, 'nul-byte', 'NUL'],
    ['Edit', { file_path: 42 }, 'bad-input', 'file_path is not a string'],
    ['NotebookEdit', { notebook_path: '/home/u/n.ipynb' }, 'outside-workspace', 'notebook_path'],
    ['Grep', { path: '/', pattern: 'password' }, 'outside-workspace', 'resolves to /,'],
    ['Glob', { pattern: '../../**/*.pem' }, 'dotdot-escape', 'glob pattern'],
    ['Glob', { pattern: '/etc/**/*.conf' }, 'outside-workspace', '/etc'],
  ])('denies %s %j by rule %s', async (tool, input, rule, detail) => {
    const result = await guard.callHook(preToolUse(tool, input as Record<string, unknown>));
    expect(result).toMatchObject({ ok: true, output: { decision: 'deny' } });
    expect(reasonOf(result)).toMatch(new RegExp(`^path-guard: ${rule}: `));
    expect(reasonOf(result)).toContain(detail);
  });

  it('checks a call without a path against the cwd', async () => {
    const result = await guard.callHook(preToolUse('Glob', { pattern: '*.ts' }, { cwd: '/home/u' }));
    expect(reasonOf(result)).toMatch(/^path-guard: outside-workspace: cwd "\/home\/u"/);
  });

  it('denies a relative path when the session has no absolute cwd', async () => {
    const result = await guard.callHook(preToolUse('Read', { file_path: 'a.txt' }, { cwd: '' }));
    expect(reasonOf(result)).toMatch(/^path-guard: no-cwd: /);
  });

  it('fails closed when the workspace is missing, empty or relative', async () => {
    const configs: Record<string, string>[] = [{}, { workspace: ' ' }, { workspace: '/work/app,relative/dir' }];
    for (const config of configs) {
      const plugin = await loadPlugin({ path: wasm }, { grants: { configKeys: ['workspace'] }, config });
      const result = await plugin.callHook(preToolUse('Read', { file_path: '/work/app/a' }));
      expect(result).toMatchObject({ ok: true, output: { decision: 'deny' } });
      expect(reasonOf(result)).toMatch(/^path-guard: no-workspace: /);
      await plugin.close();
    }
  });

  it('accepts ":"-separated roots and the root "/" as the whole disk', async () => {
    const colon = await loadPlugin({ path: wasm }, { grants: { configKeys: ['workspace'] }, config: { workspace: '/a:/b/' } });
    expect(await colon.callHook(preToolUse('Read', { file_path: '/b/x' }))).toMatchObject({ output: { decision: 'continue' } });
    expect(await colon.callHook(preToolUse('Read', { file_path: '/c/x' }))).toMatchObject({ output: { decision: 'deny' } });
    await colon.close();
    const root = await loadPlugin({ path: wasm }, { grants: { configKeys: ['workspace'] }, config: { workspace: '/' } });
    expect(await root.callHook(preToolUse('Read', { file_path: '/etc/passwd' }))).toMatchObject({ output: { decision: 'continue' } });
    await root.close();
  });

  it('keeps an agent run inside the workspace: the escaping Read never runs', async () => {
    const read: string[] = [];
    const host = createHost({
      plugins: [guard],
      cwd: '/work/app',
      permissionMode: 'bypassPermissions',
      model: scriptedModel({
        turns: [
          { toolCalls: [{ name: 'Read', input: { file_path: '../../etc/passwd' } }, { name: 'Read', input: { file_path: 'README.md' } }] },
          { text: 'Done.' },
        ],
      }),
      tools: [
        {
          name: 'Read',
          description: 'Reads a file',
          inputSchema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
          kind: 'js',
          run: async (input) => {
            read.push(String(input.file_path));
            return { content: 'contents', isError: false };
          },
        },
      ],
    });
    const events: HostEvent[] = [];
    for await (const event of host.session().stream('read things')) events.push(event);
    expect(read).toEqual(['/work/app/README.md']);
    expect(events.find((e) => e.type === 'tool.denied')).toMatchObject({ name: 'Read', reason: expect.stringMatching(/^path-guard: /) });
    expect(events.at(-1)).toMatchObject({ type: 'agent.end', result: { subtype: 'success' } });
  });
});
