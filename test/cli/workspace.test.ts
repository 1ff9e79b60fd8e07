// `run` with the workspace toolset and the default guards, driven by the scripted model in a temp folder.
import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import type { HostEvent } from '../../host/events/types.js';
import { cli, cliBundle, workspace } from './helpers.js';

beforeAll(async () => {
  await cliBundle();
}, 60_000);

const script = {
  turns: [
    {
      text: 'Looking around.',
      toolCalls: [
        { name: 'Glob', input: { pattern: '**/*.txt' } },
        { name: 'Read', input: { file_path: 'docs/hello.txt' } },
        { name: 'Grep', input: { pattern: 'wor.d', output_mode: 'content', path: 'docs' } },
        { name: 'Read', input: { file_path: '../../../etc/passwd' } },
        { name: 'Read', input: { file_path: 'escape/hosts' } },
        { name: 'Bash', input: { command: 'ls docs && echo made > made.txt' } },
        { name: 'Bash', input: { command: 'rm -rf /' } },
      ],
    },
    { text: 'Done.' },
  ],
};

async function folder() {
  const dir = await workspace({ 'script.json': script });
  await mkdir(join(dir, 'docs'));
  await writeFile(join(dir, 'docs/hello.txt'), 'hello world\n');
  await symlink('/etc', join(dir, 'escape'));
  return dir;
}

const results = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as HostEvent)
    .filter((e) => e.type === 'tool.output' || e.type === 'tool.denied');

describe('wasmhooks run: the workspace toolset', () => {
  it('lists, reads and greps the workspace, denies escapes, runs Bash there; guard-shell and path-guard are loaded', async ({ expect }) => {
    const dir = await folder();
    // Nobody to ask under --json: the mode lets calls through; the guards still deny (the default guard-shell
    // no longer approves a command itself, red12: without the mode Bash is denied by no-callback).
    const r = await cli(['run', 'list the files', '--script', 'script.json', '--json', '--permission-mode', 'bypassPermissions'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const out = results(r.stdout);
    const byTool = (name: string) => out.filter((e) => e.name === name);
    expect(byTool('Glob')).toMatchObject([{ type: 'tool.output', content: 'docs/hello.txt', isError: false }]);
    const reads = byTool('Read');
    expect(reads).toContainEqual(expect.objectContaining({ type: 'tool.output', content: '     1\thello world\n     2\t', isError: false }));
    // Lexical escape: path-guard denies before the tool runs; a symlink escape: the tool's realpath fence refuses.
    expect(reads).toContainEqual(expect.objectContaining({ type: 'tool.denied', reason: expect.stringMatching(/path-guard: outside-workspace/) }));
    expect(reads).toContainEqual(expect.objectContaining({ type: 'tool.output', isError: true, content: expect.stringMatching(/escape\/hosts resolves to \/etc\/hosts, outside the workspace/) }));
    expect(byTool('Grep')).toMatchObject([{ content: 'docs/hello.txt:1:hello world' }]);
    const bash = byTool('Bash');
    expect(bash[0]).toMatchObject({ type: 'tool.output', content: 'hello.txt\n', isError: false });
    expect(bash[1]).toMatchObject({ type: 'tool.denied', reason: expect.stringMatching(/guard-shell: rm-recursive-root/) });
    expect(await realpath(join(dir, 'made.txt'))).toBe(join(await realpath(dir), 'made.txt'));
  });

  it('--tools offers only the named tools; --no-tools none; an unknown name is a usage error', async ({ expect }) => {
    const dir = await folder();
    const some = await cli(['run', 'x', '--script', 'script.json', '--tools', 'Read,Grep'], { cwd: dir });
    expect(some.code, some.stderr).toBe(0);
    expect(some.stdout).toMatch(/Glob\(\*\*\/\*\.txt\) denied/); // not offered: not allowed by rule either
    expect(some.stdout).toMatch(/✓ Read\(docs\/hello\.txt\)/);
    expect(some.stdout).toMatch(/Bash\(ls docs.*\) denied by no-callback/); // not offered, and the default guard-shell approves nothing (red12)
    const none = await cli(['run', 'x', '--script', 'script.json', '--no-tools'], { cwd: dir });
    expect(none.stdout).toMatch(/Read\(docs\/hello\.txt\) denied/);
    expect(none.stdout).toMatch(/Bash\(ls docs.*\) denied by no-callback/);
    expect(none.stdout).not.toMatch(/✓/);
    const bad = await cli(['run', 'x', '--tools', 'Read,Shell'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--tools: unknown tool "Shell"; choose from Read, Write, Edit, Glob, Grep, Bash/);
  });

  it('--no-default-guards leaves the guards out: the fence still holds', async ({ expect }) => {
    const dir = await folder();
    const r = await cli(['run', 'x', '--script', 'script.json', '--json', '--no-default-guards', '--tools', 'Read'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const reads = results(r.stdout).filter((e) => e.name === 'Read');
    expect(r.stdout).not.toMatch(/path-guard|guard-shell/);
    // Without path-guard the lexical escape reaches the tool, and the fence refuses it.
    expect(reads.filter((e) => e.type === 'tool.output' && e.isError)).toHaveLength(2);
  });

  it('a configured path-guard without a workspace is a usage error, not a guard that denies every file call', async ({ expect }) => {
    const dir = await folder();
    await writeFile(join(dir, 'wasmhooks.json'), JSON.stringify({ plugins: [{ name: 'path-guard' }] }));
    const r = await cli(['run', 'x', '--script', 'script.json', '--json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/plugins\[0\] loads path-guard without config\.workspace, so it would deny every file call/);
    // With --no-default-guards the user's own (fail-closed) path-guard is what they asked for.
    const own = await cli(['run', 'x', '--script', 'script.json', '--json', '--no-default-guards', '--tools', 'Read'], { cwd: dir });
    expect(own.code, own.stderr).not.toBe(2);
  });
});
