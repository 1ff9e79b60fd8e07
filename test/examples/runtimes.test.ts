// Runs each example under its own runtime as a real process and checks what
// it prints; and walks examples/first-plugin/README.md with the CLI.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, cliBundle, repo, runProcess, workspace, type CliRun } from '../cli/helpers.js';

const bin = (name: string) => join(repo, 'node_modules/.bin', name);

/** Runs a command in the repo root; kills it after `timeoutMs` (a hung example must fail, not hang the suite). */
const run = (cmd: string, args: string[], timeoutMs = 30_000): Promise<CliRun> =>
  runProcess(cmd, args, { cwd: repo, timeout: timeoutMs, env: { ...process.env, NO_COLOR: '1' } });

beforeAll(async () => {
  // CI builds dist/ and the plugins before the tests; build them here only when missing.
  if (!existsSync(join(repo, 'dist/index.js'))) execFileSync(bin('tsup'), { cwd: repo, stdio: 'pipe', env: { ...process.env, WASMHOOKS_NO_DTS: '1' } });
  if (!existsSync(join(repo, 'plugins/guard-shell/build/guard-shell.wasm'))) execFileSync(process.execPath, ['scripts/build-plugins.mjs', 'guard-shell'], { cwd: repo, stdio: 'pipe' });
  await cliBundle();
}, 120_000);

const DENIED = /guard-shell: rm-recursive-root: recursive rm of the root/;

describe.concurrent('embedding examples', () => {
  it('node: renders the allowed call, the denied call and the result', async () => {
    const r = await run(process.execPath, ['examples/node/main.mjs']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ Bash\(\{"command":"ls"\}\) \[guard-shell: allow\] → README\.md \| src\//);
    expect(r.stdout).toMatch(/✗ Bash\(\{"command":"rm -rf \/"\}\) \[guard-shell: deny\] DENIED: guard-shell: rm-recursive-root/);
    expect(r.stdout).toMatch(/result: success after 2 turns/);
  });

  it('deno: same host, its own formatter', async () => {
    const r = await run(bin('deno'), ['run', '-A', 'examples/deno/main.ts']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/PreToolUse guard-shell → allow\n🔧 Bash ok: deno\.json {2}main\.ts/);
    expect(r.stdout).toMatch(/PreToolUse guard-shell → deny\n⛔ Bash denied \(hook\): guard-shell: rm-recursive-root/);
    expect(r.stdout).toMatch(/🏁 success: Done: two files, nothing removed\./);
  });

  it('bun: same host, a per-call summary', async () => {
    const r = await run(bin('bun'), ['run', 'examples/bun/main.ts']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\$ ls {2}\[guard-shell=allow \([\d.]+ ms\)\]\n {4}ok: bun\.lock index\.ts/);
    expect(r.stdout).toMatch(/\$ rm -rf \/ {2}\[guard-shell=deny \([\d.]+ ms\)\]\n {4}denied: guard-shell: rm-recursive-root/);
    expect(r.stdout).toMatch(/#\d+ end: success, 2 model calls/);
  });

  it('bun-http: a client drives a session over HTTP, answering the permission question', async () => {
    const r = await run(bin('bun'), ['run', 'examples/bun-http/main.ts']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/prompt sent: \{"accepted":true/);
    expect(r.stdout).toMatch(DENIED);
    expect(r.stdout).toMatch(/asked: may Write run with \{"path":"[^"]*notes\.txt"\}\? answering allow\nWrite → wrote [^\n]*notes\.txt/);
    expect(r.stdout).toMatch(/result: success: Listed, refused to wipe, wrote notes\.txt\./);
  });

  it('first-plugin: the README walk-through (new, the edit it shows, build, test) gives 6/6', async () => {
    const readme = await readFile(join(repo, 'examples/first-plugin/README.md'), 'utf8');
    const block = (marker: string) => {
      const m = readme.match(new RegExp(`<!-- example:${marker}[^\\n]*-->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``));
      if (!m) throw new Error(`README has no block marked example:${marker}`);
      return m[1]!;
    };
    const project = join(await workspace({}), 'my-first-guard');
    expect((await cli(['plugin', 'new', 'my-first-guard', '--dir', project])).code).toBe(0);
    // The source the README shows is the source plugin new writes.
    const source = join(project, 'assembly/index.ts');
    const generated = await readFile(source, 'utf8');
    expect(block('source')).toBe(generated);

    // Step 4, applied as written: the rule goes before checkBash's `return continue_();`.
    const anchor = '  return continue_();\n}';
    expect(generated).toContain(anchor);
    await writeFile(source, generated.replace(anchor, block('rule') + anchor));
    await appendFile(join(project, 'test/cases.jsonl'), block('case'));

    // (Building the untouched scaffold is test/cli/scaffold.test.ts's job; one build here keeps this fast.)
    const built = await cli(['plugin', 'build', project]);
    expect(built.code, built.stderr).toBe(0);
    const tested = await cli(['plugin', 'test', join(project, 'build/my-first-guard.wasm'), '--events', join(project, 'test/cases.jsonl')]);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/✓ +6 +PreToolUse Bash\(git reset --hard HEAD~3\) +deny "my-first-guard: git reset --hard throws away/);
    expect(tested.stdout).toMatch(/6\/6 expectations met/);
  }, 90_000);
});
