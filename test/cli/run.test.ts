import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import type { HostEvent } from '../../host/events/types.js';
import { bashScript, cannedGuard, cli, cliBundle, workspace } from './helpers.js';

beforeAll(async () => {
  await cliBundle();
}, 60_000);

describe('wasmhooks run', () => {
  it('streams the text, one line per tool call with its hook decisions, and a summary', async ({ expect }) => {
    const dir = await workspace({ 'script.json': bashScript, 'deny.wasm': cannedGuard('deny') });
    const r = await cli(['run', 'clean up', '--script', 'script.json', '--plugin', 'deny.wasm'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Let me look around.');
    expect(lines[1]).toMatch(/^⊘ Bash\(ls -la\) denied by canned-deny \(hook\): canned deny · canned-deny deny \(.*fuel\)$/);
    expect(lines[2]).toMatch(/^⊘ Bash\(rm -rf \/\) denied by canned-deny/);
    expect(lines[3]).toBe('All done here.');
    expect(lines[4]).toMatch(/^── success · 2 model calls · 2 tool calls \(2 denied\) · 2 hook calls \(.*fuel\) · \d+ in \/ \d+ out tokens · /);
    expect(r.stdout).not.toMatch(/\x1b\[/); // NO_COLOR, and not a TTY: no escapes, no spinner
  });

  it('--json prints every event as one parseable JSON line, ending with agent.end', async ({ expect }) => {
    const dir = await workspace({ 'script.json': bashScript, 'allow.wasm': cannedGuard('allow') });
    const r = await cli(['run', 'clean up', '--json', '--script', 'script.json', '--plugin', 'allow.wasm', '--no-tools', '--no-default-guards'], { cwd: dir });
    expect(r.code).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as HostEvent);
    expect(events[0]?.type).toBe('agent.start');
    expect(events.at(-1)).toMatchObject({ type: 'agent.end', result: { subtype: 'success', turns: 2 } });
    expect(events.filter((e) => e.type === 'hook.end' && e.event === 'PreToolUse').map((e) => e.type === 'hook.end' && e.decision)).toEqual(['allow', 'allow']);
    expect(events.some((e) => e.type === 'text.delta')).toBe(true);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('uses wasmhooks.json: plugins, shell hooks and relative paths', async ({ expect }) => {
    const dir = await workspace({
      'script.json': bashScript,
      'allow.wasm': cannedGuard('allow'),
      'hooks.mjs': 'export default { Stop: [{ hooks: [async () => ({ systemMessage: "js module was here" })] }] };\n',
      'wasmhooks.json': {
        plugins: [{ path: 'allow.wasm' }],
        hookModules: ['hooks.mjs'],
        shellHooks: [{ event: 'PreToolUse', matcher: 'Bash', command: `grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; } || exit 0` }],
      },
    });
    // Its hook module and shell hook run only once the user trusts the file (test/cli/rv14.trust.test.ts).
    const env = { WASMHOOKS_CONFIG_DIR: join(dir, '.user-config') };
    expect((await cli(['trust'], { cwd: dir, env })).code).toBe(0);
    const r = await cli(['run', 'clean up', '--script', 'script.json', '--no-tools', '--no-default-guards'], { cwd: dir, env });
    expect(r.code).toBe(0);
    // Hooks run in order and only a deny ends the chain: the plugin allows both calls, the shell hook after it denies one.
    expect(r.stdout).toMatch(/⊘ Bash\(rm -rf \/\) denied by shell:.*: no rm -rf here/);
    expect(r.stdout).toMatch(/Bash\(ls -la\) .*failed: no tool named "Bash"/);
    expect(r.stdout).toMatch(/↳ Stop .*continue.*\n  js module was here/);
  });

  it('--record writes every hook input as a JSON line', async ({ expect }) => {
    const dir = await workspace({ 'script.json': bashScript });
    const r = await cli(['run', 'clean up', '--script', 'script.json', '--record', 'rec.jsonl', '--permission-mode', 'dontAsk'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/recorded \d+ hook inputs to rec.jsonl/);
    expect(r.stdout).not.toMatch(/wasmhooks:record/);
    const inputs = (await readFile(join(dir, 'rec.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const names = inputs.map((i) => i.hook_event_name);
    expect(names.slice(0, 2)).toEqual(['SessionStart', 'UserPromptSubmit']);
    expect(inputs.filter((i) => i.hook_event_name === 'PreToolUse').map((i) => i.tool_input)).toEqual([{ command: 'ls -la' }, { command: 'rm -rf /' }]);
    expect(inputs.every((i) => i.permission_mode === 'dontAsk')).toBe(true);
  });

  it('exits 3 when --max-turns is reached', async ({ expect }) => {
    const dir = await workspace({ 'script.json': bashScript });
    const r = await cli(['run', 'go', '--script', 'script.json', '--max-turns', '1'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/── error_max_turns · 1 model call/);
  });

  it('exits 4 when a hook refuses the prompt', async ({ expect }) => {
    const dir = await workspace({
      'wasmhooks.json': { shellHooks: [{ event: 'UserPromptSubmit', command: "echo 'not today' >&2; exit 2" }] },
    });
    const env = { WASMHOOKS_CONFIG_DIR: join(dir, '.user-config') };
    expect((await cli(['trust'], { cwd: dir, env })).code).toBe(0);
    const r = await cli(['run', 'do something'], { cwd: dir, env });
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/UserPromptSubmit hook .* said deny: not today/);
  });

  it('without a script, the scripted model says what it is', async ({ expect }) => {
    const dir = await workspace({});
    const r = await cli(['run', 'hello'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/offline scripted model .* You said: hello/);
  });
});

describe('wasmhooks usage errors', () => {
  it('bad flags exit 2 with a helpful message', async ({ expect }) => {
    const unknown = await cli(['run', 'x', '--max-turn', '3']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option '--max-turn'[\s\S]*Did you mean --max-turns\?/);
    const bad = await cli(['run', 'x', '--max-turns', 'zero']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--max-turns <n>' argument 'zero' is invalid. expected a positive integer/);
    const mode = await cli(['run', 'x', '--permission-mode', 'yolo']);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toMatch(/Allowed choices are default, acceptEdits, bypassPermissions, dontAsk/);
    const missing = await cli(['run']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing required argument 'prompt'/);
    const model = await cli(['run', 'x', '--model', 'gpt-4o']);
    expect(model.code).toBe(2);
    expect(model.stderr).toMatch(/--model: Unknown model provider "gpt-4o"/);
  });

  it('config errors exit 2 and name the file and the path inside it', async ({ expect }) => {
    const dir = await workspace({ 'wasmhooks.json': { plugins: [{ path: 'g.wasm', limits: { timeoutMs: -1 } }] } });
    const r = await cli(['run', 'x'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('wasmhooks: wasmhooks.json: plugins[0].limits.timeoutMs: expected a positive integer, got -1\n');
    const other = await workspace({ 'my.json': { maxTurns: 'many' } });
    const r2 = await cli(['run', 'x', '--config', 'my.json'], { cwd: other });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/my.json: maxTurns: expected a positive integer, got "many"/);
  });

  it('a plugin that cannot load exits 1 and says which', async ({ expect }) => {
    const dir = await workspace({ 'not.wasm': 'hello' });
    const r = await cli(['run', 'x', '--plugin', 'not.wasm'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--plugin not.wasm: plugin .*not.wasm is not a WebAssembly module/);
  });

  it('help exits 0', async ({ expect }) => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: wasmhooks/);
  });
});
