import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, cliBundle, workspace } from './helpers.js';

beforeAll(async () => {
  await cliBundle();
}, 60_000);

describe('plugin new → plugin build → plugin test', () => {
  it('scaffolds a project that builds and passes its own cases; a broken case fails with exit 5', async () => {
    const dir = await workspace({});
    const created = await cli(['plugin', 'new', 'my-guard'], { cwd: dir });
    expect(created.code).toBe(0);
    const project = join(dir, 'my-guard');
    expect(created.stdout).toMatch(/created my-guard\//);

    const built = await cli(['plugin', 'build'], { cwd: project });
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    expect(built.stdout).toMatch(/^built build\/my-guard\.wasm .*KiB/);
    expect(existsSync(join(project, 'build/my-guard.wasm'))).toBe(true);

    const tested = await cli(['plugin', 'test', 'build/my-guard.wasm', '--events', 'test/cases.jsonl'], { cwd: project });
    expect(tested.code).toBe(0);
    expect(tested.stdout).toMatch(/✓ +1 +PreToolUse Bash\(git push --force origin main\) +deny "my-guard: force-pushing/);
    expect(tested.stdout).toMatch(/5\/5 expectations met/);

    const cases = join(project, 'test/cases.jsonl');
    await writeFile(cases, (await readFile(cases, 'utf8')).replace('"decision":"deny","reason":"force-pushing"', '"decision":"allow"'));
    const failing = await cli(['plugin', 'test', 'build/my-guard.wasm', '--events', 'test/cases.jsonl'], { cwd: project });
    expect(failing.code).toBe(5);
    expect(failing.stdout).toMatch(/✗ +1 .*\n +expected allow, got deny/);

    const inspected = await cli(['plugin', 'inspect', 'build/my-guard.wasm'], { cwd: project });
    expect(inspected.stdout).toMatch(/^my-guard 0\.1\.0\n  Denies git force-pushes/);
  }, 120_000);

  it('refuses a bad name or a folder in use (exit 2), and plugin build outside a plugin', async () => {
    const dir = await workspace({ taken: '' });
    expect((await cli(['plugin', 'new', 'Bad_Name'], { cwd: dir })).code).toBe(2);
    const taken = await cli(['plugin', 'new', 'ok-name', '--dir', 'taken'], { cwd: dir });
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/taken already exists/);
    const notPlugin = await cli(['plugin', 'build'], { cwd: dir });
    expect(notPlugin.code).toBe(2);
    expect(notPlugin.stderr).toMatch(/no assembly\/index.ts or src\/\*\.c here/);
  });
});
