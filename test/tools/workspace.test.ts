// The workspace toolset, called directly: the fence (.., absolute paths, symlinks out, new files under
// a linked folder), each tool's behaviour, and Bash's cwd, timeout and output cap.
import { mkdir, mkdtemp, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HookCommon } from '../../host/hooks/types.js';
import type { ToolHandler } from '../../host/tools/types.js';
import { confine, OutsideWorkspaceError, workspaceTools } from '../../host/tools/workspace/index.js';
import { globMatcher } from '../../host/tools/workspace/walk.js';

let root: string;
let outside: string;
let tools: Map<string, ToolHandler>;

async function call(name: string, input: Record<string, unknown>, signal = new AbortController().signal) {
  const t = tools.get(name)!;
  const checked = t.validate!(input);
  if (!checked.ok) throw new Error(checked.message);
  return t.run(checked.value, { signal, toolUseId: 't1', context: { cwd: root, session_id: 's' } as HookCommon, onProgress: () => {} });
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'wasmhooks-ws-')));
  outside = await realpath(await mkdtemp(join(tmpdir(), 'wasmhooks-outside-')));
  await writeFile(join(outside, 'secret.txt'), 'top secret\n');
  await mkdir(join(root, 'src/deep'), { recursive: true });
  await writeFile(join(root, 'src/a.ts'), 'export const a = 1;\n// TODO: more\n');
  await writeFile(join(root, 'src/deep/b.ts'), 'export const b = 2;\n');
  await writeFile(join(root, 'notes.md'), 'todo list\n');
  await symlink(outside, join(root, 'out'));
  await symlink(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
  tools = new Map((await workspaceTools({ dir: root, limits: { maxOutputBytes: 100, bashTimeoutMs: 10_000 } })).tools.map((t) => [t.name, t]));
});

describe('confine', () => {
  it('admits paths below the root, relative or absolute', async () => {
    expect(await confine(root, 'src/a.ts')).toBe(join(root, 'src/a.ts'));
    expect(await confine(root, join(root, 'src/../notes.md'))).toBe(join(root, 'notes.md'));
    expect(await confine(root, 'new/dir/file.txt')).toBe(join(root, 'new/dir/file.txt'));
  });
  it('refuses .., absolute paths outside, symlinks out, new files under a linked folder, NUL bytes', async () => {
    for (const p of ['../x', '/etc/passwd', 'out/secret.txt', 'secret-link.txt', 'out/new.txt', 'src/../../x', 'a\0b']) {
      await expect(confine(root, p), p).rejects.toBeInstanceOf(OutsideWorkspaceError);
    }
  });
});

describe('the tools', () => {
  it('marks Read, Glob and Grep read-only (they run in parallel), the others not', () => {
    expect([...tools.values()].filter((t) => t.concurrencySafe).map((t) => t.name)).toEqual(['Read', 'Glob', 'Grep']);
  });

  it('Read numbers lines and refuses escapes', async () => {
    expect(await call('Read', { file_path: 'src/a.ts' })).toEqual({ content: '     1\texport const a = 1;\n     2\t// TODO: more\n     3\t', isError: false });
    expect((await call('Read', { file_path: 'src/a.ts', offset: 2, limit: 1 })).content).toBe('     2\t// TODO: more\n… 1 more lines (use offset)');
    for (const file_path of ['../../etc/passwd', 'secret-link.txt', 'out/secret.txt', join(outside, 'secret.txt')]) {
      const r = await call('Read', { file_path });
      expect(r.isError, file_path).toBe(true);
      expect(r.content).toMatch(/outside the workspace/);
      expect(r.content).not.toMatch(/top secret/);
    }
  });

  it('Write creates folders inside and refuses a write through a link', async () => {
    expect((await call('Write', { file_path: 'made/here.txt', content: 'hi' })).isError).toBe(false);
    expect(await readFile(join(root, 'made/here.txt'), 'utf8')).toBe('hi');
    const r = await call('Write', { file_path: 'out/planted.txt', content: 'x' });
    expect(r.isError).toBe(true);
    await expect(readFile(join(outside, 'planted.txt'))).rejects.toThrow();
  });

  it('Edit replaces a unique string, refuses an ambiguous one without replace_all', async () => {
    await writeFile(join(root, 'e.txt'), 'one two one');
    expect((await call('Edit', { file_path: 'e.txt', old_string: 'one', new_string: '1' })).content).toMatch(/occurs 2 times/);
    expect((await call('Edit', { file_path: 'e.txt', old_string: 'two', new_string: '2' })).isError).toBe(false);
    expect((await call('Edit', { file_path: 'e.txt', old_string: 'one', new_string: '1', replace_all: true })).isError).toBe(false);
    expect(await readFile(join(root, 'e.txt'), 'utf8')).toBe('1 2 1');
    expect((await call('Edit', { file_path: 'e.txt', old_string: 'zzz', new_string: '' })).content).toMatch(/not found/);
  });

  it('Glob lists matches without following links out, and refuses patterns that climb', async () => {
    expect((await call('Glob', { pattern: '**/*.ts' })).content).toBe('src/a.ts\nsrc/deep/b.ts');
    expect((await call('Glob', { pattern: '*.{md,txt}' })).content).toMatch(/^e\.txt\nmade\/here\.txt\nnotes\.md\nsecret-link\.txt$/);
    expect((await call('Glob', { pattern: '*.ts', path: 'src/deep' })).content).toBe('src/deep/b.ts');
    expect((await call('Glob', { pattern: '**/secret.txt' })).content).toBe('no files match'); // out/ is a link: not walked
    expect((await call('Glob', { pattern: '../*' })).isError).toBe(true);
    expect((await call('Glob', { pattern: '*', path: '..' })).content).toMatch(/outside the workspace/);
  });

  it('Grep searches with RE2, skips links that leave the workspace', async () => {
    expect((await call('Grep', { pattern: 'todo', ignore_case: true })).content).toBe('notes.md\nsrc/a.ts');
    expect((await call('Grep', { pattern: 'const (a|b)', output_mode: 'content', glob: '*.ts' })).content).toBe('src/a.ts:1:export const a = 1;\nsrc/deep/b.ts:1:export const b = 2;');
    expect((await call('Grep', { pattern: 'const', output_mode: 'count', path: 'src' })).content).toBe('src/a.ts:1\nsrc/deep/b.ts:1');
    expect((await call('Grep', { pattern: 'secret' })).content).toBe('no matches');
    expect((await call('Grep', { pattern: '(a' })).content).toMatch(/invalid pattern/);
    expect((await call('Grep', { pattern: '(a+)+$' })).isError).toBe(false); // linear time: no catastrophic backtracking
  });

  it('Bash runs in the workspace, reports exit codes, caps output and times out', async () => {
    expect(await call('Bash', { command: 'pwd' })).toEqual({ content: `${root}\n`, isError: false });
    process.env.ANTHROPIC_API_KEY = 'sk-ant-secret';
    process.env.WASMHOOKS_XRT_VISIBLE = 'visible';
    expect(await call('Bash', { command: 'echo "[$ANTHROPIC_API_KEY][$WASMHOOKS_XRT_VISIBLE]"' })).toEqual({ content: '[][visible]\n', isError: false });
    delete process.env.ANTHROPIC_API_KEY;
    expect(await call('Bash', { command: 'echo oops >&2; exit 3' })).toEqual({ content: 'stderr:\noops\n\n(exit 3)', isError: true });
    const big = await call('Bash', { command: 'yes x | head -c 5000' });
    expect(big.content).toMatch(/^(x\n){50}\n… \(4900 more bytes cut\)$/);
    const started = Date.now();
    const slow = await call('Bash', { command: 'sleep 30', timeout: 300 });
    expect(slow).toEqual({ content: '(timed out after 300 ms)', isError: true });
    expect(Date.now() - started).toBeLessThan(5000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect((await call('Bash', { command: 'sleep 30' }, controller.signal)).content).toBe('(aborted)');
  });

  it('Bash ends background jobs with the command, whether or not they hold its output', async () => {
    const pidFile = join(root, 'bg.pid');
    for (const command of [`sleep 30 & echo $! > ${pidFile}`, `sleep 30 >/dev/null 2>&1 & echo $! > ${pidFile}`]) {
      const started = Date.now();
      expect(await call('Bash', { command })).toEqual({ content: '(no output)', isError: false });
      expect(Date.now() - started).toBeLessThan(5000);
      const pid = Number((await readFile(pidFile, 'utf8')).trim());
      await new Promise((r) => setTimeout(r, 50));
      expect(await running(pid), `background job ${pid} still runs after: ${command}`).toBe(false);
    }
  });
});

/** Whether a process runs; a killed one that nobody reaped (a zombie: no init reaps here) does not. */
async function running(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/^\d+ \(.*\) Z/.test(stat);
}

describe('globMatcher', () => {
  it('matches names at any depth without a slash, whole paths with one', () => {
    const ts = globMatcher('*.ts');
    expect(['a.ts', 'x/y/a.ts', 'a.tsx'].map(ts)).toEqual([true, true, false]);
    const src = globMatcher('src/**/*.ts');
    expect(['src/a.ts', 'src/x/y.ts', 'lib/src/a.ts'].map(src)).toEqual([true, true, false]);
    expect(['a1', 'ab', 'a/'].map(globMatcher('a[0-9]'))).toEqual([true, false, false]);
  });
});
