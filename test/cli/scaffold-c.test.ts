// `plugin new --lang c` → `plugin build` → `plugin test`: a C guard on the C SDK,
// compiled with clang + wasm-ld, passes the same cases as the AssemblyScript scaffold.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, cliBundle, workspace } from './helpers.js';

beforeAll(async () => {
  await cliBundle();
}, 60_000);

describe('plugin new --lang c → plugin build → plugin test', () => {
  it('scaffolds a C project that builds and passes its own cases; a broken case fails with exit 5', async () => {
    const dir = await workspace({});
    const created = await cli(['plugin', 'new', 'c-guard', '--lang', 'c'], { cwd: dir });
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/created c-guard\/ \(src\/c_guard\.c, test\/cases\.jsonl/);
    const project = join(dir, 'c-guard');
    expect(existsSync(join(project, 'assembly'))).toBe(false);

    const built = await cli(['plugin', 'build'], { cwd: project });
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    expect(built.stdout).toMatch(/^built build\/c-guard\.wasm .*KiB.*\nsha256 [0-9a-f]{64}\n/);

    const tested = await cli(['plugin', 'test', 'build/c-guard.wasm', '--events', 'test/cases.jsonl'], { cwd: project });
    expect(tested.stdout).toMatch(/✓ +1 +PreToolUse Bash\(git push --force origin main\) +deny "c-guard: force-pushing/);
    expect(tested.stdout).toMatch(/5\/5 expectations met/);
    expect(tested.code).toBe(0);

    const cases = join(project, 'test/cases.jsonl');
    await writeFile(cases, (await readFile(cases, 'utf8')).replace('"decision":"deny","reason":"force-pushing"', '"decision":"allow"'));
    const failing = await cli(['plugin', 'test', 'build/c-guard.wasm', '--events', 'test/cases.jsonl'], { cwd: project });
    expect(failing.code).toBe(5);

    const inspected = await cli(['plugin', 'inspect', 'build/c-guard.wasm'], { cwd: project });
    expect(inspected.stdout).toMatch(/^c-guard 0\.1\.0\n  Denies git force-pushes/);
    expect(inspected.stdout).toMatch(/PreToolUse +matcher \/Bash\/  fail-closed/);
  }, 120_000);

  it('reports a compile error with clang\'s own message, and an unknown language as a usage error', async () => {
    const dir = await workspace({});
    await mkdir(join(dir, 'broken/src'), { recursive: true });
    await writeFile(join(dir, 'broken/src/broken.c'), 'int oops( {\n');
    const r = await cli(['plugin', 'build'], { cwd: join(dir, 'broken') });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/clang failed to compile .*broken\.c:[\s\S]*error:/);
    expect((await cli(['plugin', 'new', 'x', '--lang', 'cobol'], { cwd: dir })).code).toBe(2);
  });

  it('says what to install when clang is missing', async () => {
    const dir = await workspace({});
    await mkdir(join(dir, 'p/src'), { recursive: true });
    await writeFile(join(dir, 'p/src/p.c'), 'void f(void) {}\n');
    const r = await cli(['plugin', 'build'], { cwd: join(dir, 'p'), env: { PATH: '/nonexistent', WASMHOOKS_CLANG: '' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/clang is not on PATH; install clang and lld .*apt-get install -y clang lld/);
  });
});
