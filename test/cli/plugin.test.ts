import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../host/sandbox/digest.js';
import { corpusPath } from '../fixtures/corpus.js';
import { bashScript, cannedGuard, cli, cliBundle, repo, workspace } from './helpers.js';

beforeAll(async () => {
  await cliBundle();
}, 60_000);

const guardShell = join(repo, 'plugins/guard-shell/build/guard-shell.wasm');

describe('wasmhooks plugin inspect', () => {
  it('shows describe output, bindings, tools, requested grants, imports, exports, size and sha256', async () => {
    const bytes = cannedGuard('deny', { name: 'inspected', configKeys: ['mode'] });
    const dir = await workspace({ 'p.wasm': bytes });
    const r = await cli(['plugin', 'inspect', 'p.wasm'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^inspected 0\.1\.0\n  always denys Bash\n/);
    expect(r.stdout).toContain(`size      ${bytes.length} bytes`);
    expect(r.stdout).toContain(`sha256    ${await sha256(bytes)}`);
    expect(r.stdout).toMatch(/hooks \(1\)\n  PreToolUse +matcher \/Bash\/  fail-closed \(default\)/);
    expect(r.stdout).toMatch(/tools \(1\)\n  Echo  echoes/);
    expect(r.stdout).toMatch(/requested grants\n  config keys    mode/);
    expect(r.stdout).toMatch(/imports \(3\)\n  extism:host\/env: alloc, store_u8, output_set/);
    expect(r.stdout).toMatch(/exports \(3\)\n  describe, hook, tool\n/);

    const json = await cli(['plugin', 'inspect', 'p.wasm', '--json'], { cwd: dir });
    const report = JSON.parse(json.stdout) as { describe: { ok: boolean; info: { grants: { configKeys: string[] } } }; size: number };
    expect(report.describe.ok).toBe(true);
    expect(report.describe.info.grants.configKeys).toEqual(['mode']);
    expect(report.size).toBe(bytes.length);
  });

  // Red review (red4): the plugin's own name, description and grants went to the terminal raw; ESC [8m in the
  // name hid everything printed after it (the grants list of `plugin add`'s consent question included).
  it('shows control characters in what the plugin says about itself as escapes', async () => {
    const bytes = cannedGuard('deny', { name: 'evil\u001b[8m', configKeys: ['k\u001b]52;c;eA==\u0007'] });
    const dir = await workspace({ 'p.wasm': bytes });
    const r = await cli(['plugin', 'inspect', 'p.wasm'], { cwd: dir, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toMatch(/^evil\\u001b\[8m 0\.1\.0\n/);
    expect(r.stdout).toContain('k\\u001b]52;c;eA==\\u0007');
    const add = await cli(['plugin', 'add', 'p.wasm'], { cwd: dir, env: { NO_COLOR: '1' } });
    expect(add.stderr).not.toContain('\u001b');
    expect(add.stderr).toMatch(/evil\\u001b\[8m 0\.1\.0 asks for grants/);
  });

  it('reports a wasm module that is not a plugin, and exits 1', async () => {
    const r = await cli(['plugin', 'inspect', corpusPath('alloc')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/describe failed \(MISSING_EXPORT\)/);
    expect(r.stdout).toMatch(/exports \(\d+\)\n .*run_test/);
  });

  it('inspects a plugin at a URL and prints the sha256 to pin it with', async () => {
    const bytes = cannedGuard('allow', { name: 'remote' });
    const server = createServer((_req, res) => res.end(bytes));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/remote.wasm`;
      const r = await cli(['plugin', 'inspect', url]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^remote 0\.1\.0/);
      expect(r.stdout).toContain(`file      ${url}`);
      expect(r.stdout).toContain(`sha256    ${await sha256(bytes)}`);
    } finally {
      server.close();
    }
  });

  it.skipIf(!existsSync(guardShell))('inspects the real guard-shell plugin', async () => {
    const r = await cli(['plugin', 'inspect', guardShell]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^guard-shell \d+\.\d+\.\d+/);
    expect(r.stdout).toMatch(/PreToolUse +matcher \/Bash\|Shell\/  fail-closed/);
    expect(r.stdout).toMatch(/requested grants \(none\)/);
  });
});

describe('wasmhooks plugin test', () => {
  it('replays a recording through a plugin, and diffs two builds with --against', async () => {
    const dir = await workspace({
      'script.json': bashScript,
      'deny.wasm': cannedGuard('deny'),
      'deny2.wasm': cannedGuard('deny', { name: 'deny-again' }),
      'allow.wasm': cannedGuard('allow'),
    });
    const rec = await cli(['run', 'clean up', '--script', 'script.json', '--record', 'rec.jsonl'], { cwd: dir });
    expect(rec.code).toBe(0);

    const one = await cli(['plugin', 'test', 'deny.wasm', '--events', 'rec.jsonl'], { cwd: dir });
    expect(one.code).toBe(0);
    const lines = one.stdout.trim().split('\n');
    expect(lines.filter((l) => /PreToolUse Bash/.test(l))).toEqual([
      expect.stringMatching(/PreToolUse Bash\(ls -la\) +deny "canned deny" \(.*ms, .*fuel\)/),
      expect.stringMatching(/PreToolUse Bash\(rm -rf \/\) +deny "canned deny"/),
    ]);
    expect(lines.at(-2)).toMatch(/── \d+ inputs replayed, 2 bound$/);
    expect(lines.at(-1)).toMatch(/^ +deny.wasm: .*ms, .* fuel$/);

    const same = await cli(['plugin', 'test', 'deny.wasm', '--events', 'rec.jsonl', '--against', 'deny2.wasm'], { cwd: dir });
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/0 decided differently/);

    const diff = await cli(['plugin', 'test', 'deny.wasm', '--events', 'rec.jsonl', '--against', 'allow.wasm', '--json'], { cwd: dir });
    expect(diff.code).toBe(5);
    const rows = diff.stdout.trim().split('\n').map((l) => JSON.parse(l) as { differs?: boolean; verdict: { kind: string; decision?: string }; against?: { decision?: string } });
    const differing = rows.filter((r) => r.differs);
    expect(differing).toHaveLength(2);
    expect(differing.map((r) => [r.verdict.decision, r.against?.decision])).toEqual([['deny', 'allow'], ['deny', 'allow']]);
    expect(diff.stderr).toMatch(/2 decided differently/);
  });

  it('reports a malformed events file with its line number (exit 2)', async () => {
    const dir = await workspace({ 'deny.wasm': cannedGuard('deny'), 'bad.jsonl': '{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/"}\nnot json\n' });
    const r = await cli(['plugin', 'test', 'deny.wasm', '--events', 'bad.jsonl'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad.jsonl:2: not JSON/);
    await writeFile(join(dir, 'bad.jsonl'), '{"hook_event_name":"Nope","session_id":"s","cwd":"/"}\n');
    const r2 = await cli(['plugin', 'test', 'deny.wasm', '--events', 'bad.jsonl'], { cwd: dir });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/bad.jsonl:1: hook_event_name: expected a hook input/);
  });

  it("replays a PreToolUse re-check's recheck mark to the plugin, and refuses one that is not a boolean", async () => {
    const input = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' };
    const dir = await workspace({
      'guard.wasm': new Uint8Array(readFileSync(join(repo, 'test/fixtures/recheck-guard/build/recheck-guard.wasm'))),
      'in.jsonl': `${JSON.stringify(input)}\n${JSON.stringify({ ...input, recheck: true })}\n`,
      'bad.jsonl': `${JSON.stringify({ ...input, recheck: 'yes' })}\n`,
    });
    const r = await cli(['plugin', 'test', 'guard.wasm', '--events', 'in.jsonl'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter((l) => /PreToolUse Bash/.test(l))).toEqual([
      expect.stringMatching(/PreToolUse Bash\(ls\) +allow "first round: ls"/),
      expect.stringMatching(/PreToolUse Bash\(ls\) +deny "re-check: ls was rewritten after the first round"/),
    ]);
    const bad = await cli(['plugin', 'test', 'guard.wasm', '--events', 'bad.jsonl'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad.jsonl:1: recheck: expected recheck to be true or false/);
  });

  it('refuses a plugin asking for grants unless the config or --grant-requested grants them', async () => {
    const dir = await workspace({
      'greedy.wasm': cannedGuard('deny', { configKeys: ['secret'] }),
      'in.jsonl': `${JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' })}\n`,
    });
    const refused = await cli(['plugin', 'test', 'greedy.wasm', '--events', 'in.jsonl'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/config key "secret".*pass --grant-requested/);
    const granted = await cli(['plugin', 'test', 'greedy.wasm', '--events', 'in.jsonl', '--grant-requested'], { cwd: dir });
    expect(granted.code).toBe(0);
    expect(granted.stdout).toMatch(/PreToolUse Bash\(ls\) +deny/);
    // The config's entry for this path grants it, as the host would.
    await writeFile(join(dir, 'wasmhooks.json'), JSON.stringify({ plugins: [{ path: 'greedy.wasm', grants: { configKeys: ['secret'] }, config: { secret: 'x' } }] }));
    const configured = await cli(['plugin', 'test', 'greedy.wasm', '--events', 'in.jsonl'], { cwd: dir });
    expect(configured.code).toBe(0);
  });
});
