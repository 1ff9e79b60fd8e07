// The workspace toolset of the built CLI (dist/cli.js) on Node, Deno and Bun: list, read, a denied escape, Bash (whose background jobs end with it).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-run.ts';


const run = runCli;

const script = {
  turns: [
    {
      text: 'Looking.',
      toolCalls: [
        { name: 'Glob', input: { pattern: '**/*.md' } },
        { name: 'Read', input: { file_path: 'docs/a.md' } },
        { name: 'Grep', input: { pattern: 'needle', path: 'docs' } },
        { name: 'Read', input: { file_path: 'out/hosts' } },
        { name: 'Write', input: { file_path: 'out/planted', content: 'x' } },
        { name: 'Bash', input: { command: 'echo from-bash > bash.txt && cat docs/a.md' } },
        { name: 'Bash', input: { command: 'sleep 30 >/dev/null 2>&1 & echo $! > bg.pid' } },
      ],
    },
    { text: 'Done.' },
  ],
};

type Ev = { type: string; name?: string; content?: string; isError?: boolean; reason?: string };

export const scenarios: Record<string, () => Promise<void>> = {
  'run offers Read/Glob/Grep/Write/Bash confined to the cwd, with guard-shell and path-guard loaded': async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-xrt-ws-'));
    await mkdir(join(dir, 'docs'));
    await writeFile(join(dir, 'docs/a.md'), 'a needle here\n');
    await writeFile(join(dir, 'script.json'), JSON.stringify(script));
    await symlink('/etc', join(dir, 'out'));
    // Nobody to ask under --json: the mode lets calls through (the default guard-shell approves nothing itself
    // since red12; its denials and path-guard's still apply).
    const r = await run(['run', 'list the files', '--script', 'script.json', '--json', '--verbose', '--permission-mode', 'bypassPermissions'], dir);
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Ev);
    const outputs = events.filter((e) => e.type === 'tool.output');
    const of = (name: string) => outputs.filter((e) => e.name === name);
    assert.deepEqual(of('Glob').map((e) => e.content), ['docs/a.md']);
    assert.ok(of('Read').some((e) => e.content === '     1\ta needle here\n     2\t'), JSON.stringify(of('Read')));
    assert.ok(of('Read').some((e) => e.isError && /out\/hosts resolves to \/etc\/hosts, outside the workspace/.test(e.content ?? '')));
    assert.deepEqual(of('Grep').map((e) => e.content), ['docs/a.md']);
    assert.ok(of('Write').every((e) => e.isError), 'the write through the link is refused');
    assert.deepEqual(of('Bash').map((e) => e.content), ['a needle here\n', '(no output)']);
    assert.equal(await readFile(join(dir, 'bash.txt'), 'utf8'), 'from-bash\n');
    // The background job ended with its command (a zombie nobody reaped counts as ended).
    const pid = (await readFile(join(dir, 'bg.pid'), 'utf8')).trim();
    // A killed job still reads R until the scheduler runs it to its exit (on a loaded machine, a while): 2 s to go, not to be killed.
    const ended = (stat: string) => stat === '' || / Z /.test(stat);
    let stat = '';
    for (let i = 0; i < 40 && !ended((stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''))); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(ended(stat), `background job ${pid} outlived its Bash call: ${stat}`);
    const hooks = new Set(events.filter((e) => e.type === 'hook.end').map((e) => (e as { plugin?: string }).plugin));
    assert.ok(hooks.has('guard-shell') && hooks.has('path-guard'), JSON.stringify([...hooks]));
  },
};
