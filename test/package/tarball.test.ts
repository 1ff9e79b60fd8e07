// As a new user would: the npm tarballs (wasmhooks and @wasmhooks/sdk-guest)
// installed into projects outside the repository. The README's tour is
// extracted verbatim, type-checked and run on Node, Deno and Bun; `plugin new`
// scaffolds a plugin that installs, builds and passes its own cases.
// Installs come from the npm registry (or its cache): a few tens of seconds.
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bin = (name: string) => join(repo, 'node_modules/.bin', name);
const run = (cmd: string, args: string[], cwd: string, extra: ExecFileSyncOptions = {}) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: 'pipe', timeout: 240_000, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' }, ...extra }) as string;
const npm = (args: string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], cwd);

/** The README's first ```ts block after "## A 30-second tour", verbatim. */
function tourFromReadme(): string {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const from = readme.indexOf('## A 30-second tour');
  const m = /```ts\n([\s\S]*?)```/.exec(readme.slice(from));
  if (from < 0 || !m) throw new Error('README.md has no ```ts block after "## A 30-second tour"');
  return m[1] as string;
}

let work: string;
let tarball: string;
let sdkTarball: string;
let app: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'wasmhooks-pack-'));
  // A staging copy of the package with its own fresh build (declarations included), so that
  // other suites rebuilding dist/ meanwhile cannot leave a half-written file in the tarball.
  const stage = join(work, 'stage');
  mkdirSync(stage);
  for (const f of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'proto', 'bin', 'schema', 'docs', 'sdk-c']) cpSync(join(repo, f), join(stage, f), { recursive: true });
  for (const f of ['first-party.json', 'prebuilt.json']) cpSync(join(repo, 'plugins', f), join(stage, 'plugins', f));
  for (const name of readdirSync(join(repo, 'plugins'))) {
    const built = join(repo, 'plugins', name, 'build', `${name}.wasm`);
    if (!existsSync(built)) continue;
    cpSync(built, join(stage, 'plugins', name, 'build', `${name}.wasm`));
    cpSync(built.replace(/\.wasm$/, '.instrumented.wasm'), join(stage, 'plugins', name, 'build', `${name}.instrumented.wasm`));
    cpSync(join(repo, 'plugins', name, 'README.md'), join(stage, 'plugins', name, 'README.md'));
  }
  run(process.execPath, [join(repo, 'node_modules/tsup/dist/cli-default.js'), '--out-dir', join(stage, 'dist')], repo, { env: { ...process.env, WASMHOOKS_NO_DTS: '' } });
  tarball = join(work, run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], stage).trim().split('\n').pop() as string);
  sdkTarball = join(work, run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], join(repo, 'sdk-guest')).trim().split('\n').pop() as string);
  const zod = (JSON.parse(readFileSync(join(repo, 'node_modules/zod/package.json'), 'utf8')) as { version: string }).version;
  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  npm(['install', tarball, `zod@${zod}`], app);
}, 600_000);

describe('the npm package, installed outside the repository', () => {
  it('ships declarations, the first-party plugins and their pins', () => {
    const pkg = join(app, 'node_modules/wasmhooks');
    for (const f of ['dist/index.js', 'dist/index.d.ts', 'plugins/first-party.json', 'plugins/guard-shell/build/guard-shell.wasm', 'plugins/prebuilt.json', 'plugins/guard-shell/build/guard-shell.instrumented.wasm', 'LICENSE', 'sdk-c/wasmhooks.h', 'sdk-c/wasmhooks/hooks.pb.h']) {
      expect(existsSync(join(pkg, f)), f).toBe(true);
    }
  });

  it('the subpath entries resolve by name, with their declarations (wasmhooks/server, /mcp, /cli)', () => {
    const pkg = join(app, 'node_modules/wasmhooks');
    for (const f of ['server', 'mcp', 'cli-api']) {
      expect(existsSync(join(pkg, `dist/${f}.js`)), f).toBe(true);
      expect(existsSync(join(pkg, `dist/${f}.d.ts`)), f).toBe(true);
    }
    const probe = [
      "const server = await import('wasmhooks/server');",
      "const mcp = await import('wasmhooks/mcp');",
      "const cli = await import('wasmhooks/cli');",
      "const main = await import('wasmhooks');",
      'console.log(JSON.stringify([typeof server.createServer, typeof server.serve, typeof mcp.createMcpServer, typeof mcp.mcpHttpApp, typeof cli.runCli, "createServer" in main, "createMcpServer" in main]));',
    ].join('\n');
    writeFileSync(join(app, 'subpaths.mjs'), probe);
    const out = run(process.execPath, ['subpaths.mjs'], app);
    expect(JSON.parse(out.trim().split('\n').at(-1) as string)).toEqual(['function', 'function', 'function', 'function', 'function', false, false]);
  }, 120_000);

  it('the README tour type-checks verbatim', () => {
    writeFileSync(join(app, 'tour.ts'), tourFromReadme());
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['tour.ts'] }),
    );
    run(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', app], app);
  }, 120_000);

  for (const [runtime, cmd] of [
    ['node', [bin('tsx'), 'tour.ts']],
    ['deno', [bin('deno'), 'run', '-A', '--quiet', 'tour.ts']],
    ['bun', [bin('bun'), 'run', 'tour.ts']],
  ] as const) {
    it(`the README tour runs on ${runtime}: guard-shell denies rm -rf /`, () => {
      writeFileSync(join(app, 'tour.ts'), tourFromReadme());
      const [command, ...args] = cmd;
      const out = run(command, [...args], app);
      expect(out).toMatch(/did not run: Bash guard-shell: rm-recursive-root/);
      expect(out).toMatch(/model: ok/);
    }, 120_000);
  }

  it('plugin new → npm install → npm run build → npm test, in an empty folder', () => {
    const parent = join(work, 'plugins');
    mkdirSync(parent);
    const created = run(join(app, 'node_modules/.bin/wasmhooks'), ['plugin', 'new', 'no-force'], parent);
    expect(created).toContain('npm install');
    const dir = join(parent, 'no-force');
    // Published versions would come from the registry; here the two tarballs stand in for them.
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    pkg.devDependencies.wasmhooks = `file:${tarball}`;
    pkg.devDependencies['@wasmhooks/sdk-guest'] = `file:${sdkTarball}`;
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
    npm(['install'], dir);
    run('npm', ['run', 'build'], dir);
    expect(existsSync(join(dir, 'build/no-force.wasm'))).toBe(true);
    const tested = run('npm', ['test'], dir);
    expect(tested).toMatch(/5 passed|passed: 5|5\/5/);
  }, 600_000);

  it('plugin new --lang c → npm install → npm test, in an empty folder (the C SDK from the package, clang from the system)', () => {
    const parent = join(work, 'c-plugins');
    mkdirSync(parent);
    const created = run(join(app, 'node_modules/.bin/wasmhooks'), ['plugin', 'new', 'c-guard', '--lang', 'c'], parent);
    expect(created).toContain('npm install');
    const dir = join(parent, 'c-guard');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    pkg.devDependencies.wasmhooks = `file:${tarball}`;
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
    npm(['install'], dir);
    const tested = run('npm', ['test'], dir);
    expect(tested).toMatch(/5\/5 expectations met/);
    expect(existsSync(join(dir, 'build/c-guard.wasm'))).toBe(true);
  }, 600_000);
});
