// plugin add / keygen / sign / verify as a user runs them, and `run` honouring the lock and requireSignature.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';
import { beforeAll, describe, it } from 'vitest';
import { cannedGuard, cli, cliBundle, workspace } from './helpers.js';

beforeAll(async () => {
  await cliBundle();
}, 60_000);

const json = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as Record<string, any>;
const quiet = ['--script', 'script.json', '--no-tools', '--no-default-guards'];
const script = { turns: [{ text: 'hi' }] };

// Each test runs the CLI several times (a process each): on a loaded 2-core machine one took past 30 s.
describe('wasmhooks plugin add', { timeout: 120_000 }, () => {
  it('records a first-party plugin; grants need consent; run verifies the lock; an upgrade asking for more is refused until re-consented', async ({ expect }) => {
    const dir = await workspace({ 'script.json': script, 'g.wasm': cannedGuard('allow', { configKeys: ['mode'] }) });
    const first = await cli(['plugin', 'add', 'guard-shell'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^added guard-shell 1\.0\.0 \(first-party:guard-shell, sha256 [0-9a-f]{12}…\) in wasmhooks\.json and wasmhooks\.lock; grants: none/);

    const refused = await cli(['plugin', 'add', 'g.wasm'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/canned-allow 0\.1\.0 asks for grants you have not consented to:\n {2}\+ config key "mode"\nnot added; re-run with --accept-grants/);
    expect((await json(join(dir, 'wasmhooks.json'))).plugins).toEqual([{ name: 'guard-shell' }]);

    expect((await cli(['plugin', 'add', 'g.wasm', '--accept-grants'], { cwd: dir })).code).toBe(0);
    expect((await json(join(dir, 'wasmhooks.json'))).plugins).toEqual([{ name: 'guard-shell' }, { path: 'g.wasm', grants: { configKeys: ['mode'] } }]);
    const lock = await json(join(dir, 'wasmhooks.lock'));
    expect(lock.plugins['path:g.wasm']).toMatchObject({ source: 'path:g.wasm', name: 'canned-allow', version: '0.1.0', grants: { configKeys: ['mode'] } });
    expect(Object.keys(lock.plugins)).toEqual(['name:guard-shell', 'path:g.wasm']);
    const ok = await cli(['run', 'x', ...quiet], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);

    // A new build lands on disk: run refuses it until it is added again.
    await writeFile(join(dir, 'g.wasm'), cannedGuard('allow', { configKeys: ['mode', 'token'] }));
    const stale = await cli(['run', 'x', ...quiet], { cwd: dir });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/plugins\[1\]: plugin .*g\.wasm does not match its pin: expected sha256 .*\[INTEGRITY\]/);
    const upgrade = await cli(['plugin', 'add', 'g.wasm'], { cwd: dir });
    expect(upgrade.code).toBe(1);
    expect(upgrade.stderr).toMatch(/canned-allow 0\.1\.0 \(upgrading from 0\.1\.0, which was granted config key "mode"\) asks for grants you have not consented to:\n {2}\+ config key "token"\n/);
    const accepted = await cli(['plugin', 'add', 'g.wasm', '--accept-grants'], { cwd: dir });
    expect(accepted.stdout).toMatch(/^upgraded canned-allow 0\.1\.0 → 0\.1\.0 .*grants: config key "mode", config key "token"/);
    expect((await cli(['run', 'x', ...quiet], { cwd: dir })).code).toBe(0);

    // Granting more by hand in wasmhooks.json than the lock records is refused too.
    const config = await json(join(dir, 'wasmhooks.json'));
    config.plugins[1].grants.networkHosts = ['evil.example'];
    await writeFile(join(dir, 'wasmhooks.json'), JSON.stringify(config));
    // A network grant needs workspace trust first (red14); trusted, the lock still refuses what it never consented to.
    const env = { WASMHOOKS_CONFIG_DIR: join(dir, '.user-config') };
    expect((await cli(['run', 'x', ...quiet], { cwd: dir, env })).stderr).toMatch(/not trusted on this machine.*plugins\[1\] grants \(networkHosts evil\.example\)/);
    expect((await cli(['trust'], { cwd: dir, env })).code).toBe(0);
    const edited = await cli(['run', 'x', ...quiet], { cwd: dir, env });
    expect(edited.stderr).toMatch(/grants canned-allow network host "evil.example", which wasmhooks.lock does not record as consented.*\[NOT_CONSENTED\]/);
  });

  it('adds a plugin published as an npm package (the wasmhooks field of package.json)', async ({ expect }) => {
    const dir = await workspace({ 'script.json': script });
    const pkg = join(dir, 'node_modules/@acme/guard');
    await mkdir(join(pkg, 'dist'), { recursive: true });
    await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: '@acme/guard', version: '2.1.0', wasmhooks: { wasm: 'dist/guard.wasm' } }));
    await writeFile(join(pkg, 'dist/guard.wasm'), cannedGuard('deny'));
    const r = await cli(['plugin', 'add', '@acme/guard'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/added canned-deny 0\.1\.0 \(npm:@acme\/guard@2\.1\.0/);
    expect((await json(join(dir, 'wasmhooks.json'))).plugins).toEqual([{ path: 'node_modules/@acme/guard/dist/guard.wasm' }]);
    const escape = join(dir, 'node_modules/bad');
    await mkdir(escape, { recursive: true });
    await writeFile(join(escape, 'package.json'), JSON.stringify({ name: 'bad', version: '1.0.0', wasmhooks: '../../../etc/x.wasm' }));
    const bad = await cli(['plugin', 'add', 'npm:bad'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/not a wasmhooks plugin package: .*must be a path inside the package/);
  });

  it('the first-party example package: plugins/guard-shell has a wasmhooks field', async ({ expect }) => {
    const dir = await workspace({});
    const r = await cli(['plugin', 'add', join(__dirname, '../../plugins/guard-shell')], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/added guard-shell 1\.0\.0 \(package:@wasmhooks\/guard-shell@1\.0\.0/);
  });
});

describe('wasmhooks plugin keygen / sign / verify', { timeout: 120_000 }, () => {
  it('signs, verifies, refuses a tampered byte, and run with requireSignature refuses an unsigned plugin', async ({ expect }) => {
    const dir = await workspace({ 'script.json': script, 'g.wasm': cannedGuard('deny'), 'h.wasm': cannedGuard('allow') });
    const keygen = await cli(['plugin', 'keygen', 'acme-2026'], { cwd: dir });
    expect(keygen.code, keygen.stderr).toBe(0);
    const { trustedKeys } = JSON.parse(keygen.stdout) as { trustedKeys: Record<string, { publicKey: string }> };
    expect(trustedKeys['acme-2026']?.publicKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect((await cli(['plugin', 'keygen', 'acme-2026'], { cwd: dir })).code).toBe(1); // never overwrites a key
    await writeFile(join(dir, 'wasmhooks.json'), JSON.stringify({ trustedKeys, requireSignature: true, plugins: [{ path: 'g.wasm' }] }));

    const unsigned = await cli(['run', 'x', ...quiet], { cwd: dir });
    expect(unsigned.code).toBe(1);
    expect(unsigned.stderr).toMatch(/plugins\[0\]: plugin .*g\.wasm is not signed .*\[SIGNATURE\]/);

    const signed = await cli(['plugin', 'sign', 'g.wasm', '--key', 'acme-2026.key.json'], { cwd: dir });
    expect(signed.stdout).toMatch(/^signed g\.wasm \(sha256 [0-9a-f]{64}\) with acme-2026 → g\.wasm\.sig/);
    expect((await cli(['plugin', 'verify', 'g.wasm'], { cwd: dir })).stdout).toMatch(/^ok: g\.wasm .* is signed by trusted key acme-2026/);
    expect((await cli(['run', 'x', ...quiet], { cwd: dir })).code).toBe(0);
    // --plugin is not in the config, but requireSignature still applies.
    const extra = await cli(['run', 'x', ...quiet, '--plugin', 'h.wasm'], { cwd: dir });
    expect(extra.stderr).toMatch(/--plugin h\.wasm: plugin .*h\.wasm is not signed/);

    const bytes = new Uint8Array(await readFile(join(dir, 'g.wasm')));
    bytes[bytes.length - 1]! ^= 0xff;
    await writeFile(join(dir, 'g.wasm'), bytes);
    const tampered = await cli(['plugin', 'verify', 'g.wasm'], { cwd: dir });
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/the signature of plugin g\.wasm does not verify with key "acme-2026" .*\[SIGNATURE\]/);
  });
});

// util-linux `script` gives the CLI a pseudo-terminal, so the consent prompt is the one a person sees.
const hasScript = spawnSync('script', ['--version']).status === 0;

/** Runs `plugin add` on a terminal and answers the consent prompt. */
async function addOnTerminal(dir: string, ref: string, answer: string): Promise<{ code: number | null; out: string }> {
  const command = [process.execPath, '--disable-warning=ExperimentalWarning', await cliBundle(), 'plugin', 'add', ref].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let answered = false;
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (!answered && out.includes('Grant them? [y/N]')) {
      answered = true;
      child.stdin.write(`${answer}\n`);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, out };
}

describe.skipIf(!hasScript)('wasmhooks plugin add on a terminal', () => {
  it('shows the grants asked for and adds only on yes', async ({ expect }) => {
    const dir = await workspace({});
    const no = await addOnTerminal(dir, 'path-guard', 'n');
    expect(no.out).toMatch(/path-guard 1\.0\.0 asks for grants you have not consented to:\r?\n {2}\+ config key "workspace"/);
    expect(no.code).toBe(1);
    expect(no.out).toMatch(/not added: the grants were not consented/);
    await expect(readFile(join(dir, 'wasmhooks.lock'))).rejects.toThrow();
    const yes = await addOnTerminal(dir, 'path-guard', 'y');
    expect(yes.code, yes.out).toBe(0);
    expect((await json(join(dir, 'wasmhooks.lock'))).plugins['name:path-guard'].grants.configKeys).toEqual(['workspace']);
  });
});
