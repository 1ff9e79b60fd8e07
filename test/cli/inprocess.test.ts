// Edge cases of the command line, driven in-process through runCli (fast);
// the real-process tests cover the same paths end to end.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../host/cli/program.js';
import type { CliIO } from '../../host/cli/io.js';
import { workspace } from './helpers.js';

async function run(args: string[], cwd: string) {
  const out = { stdout: '', stderr: '' };
  const io: CliIO = {
    stdout: { write: (s) => void (out.stdout += s), isTTY: false },
    stderr: { write: (s) => void (out.stderr += s), isTTY: false },
    env: { NO_COLOR: '1' },
    cwd,
  };
  const code = await runCli(args, io);
  return { code, ...out };
}

describe('runCli', () => {
  it('rejects malformed scripts with the file and the path inside it', async () => {
    const dir = await workspace({ 'bad.json': { turns: [{ text: 3 }] }, 'broken.json': '{', 'ok.json': [{ text: 'hi' }] });
    const bad = await run(['run', 'x', '--script', 'bad.json'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--script .*bad.json: .*turns\[0\]\.text/);
    expect((await run(['run', 'x', '--script', 'broken.json'], dir)).code).toBe(2);
    const wrongModel = await run(['run', 'x', '--script', 'ok.json', '--model', 'openai:gpt-4o-mini'], dir);
    expect(wrongModel.code).toBe(2);
    expect(wrongModel.stderr).toMatch(/--script only applies to the scripted model/);
    const ok = await run(['run', 'x', '--script', 'ok.json'], dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^hi\n── success/);
  });

  it('refuses an empty prompt and a missing key for a real provider', async () => {
    const dir = await workspace({});
    const empty = await run(['run', '   '], dir);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/the prompt is empty/);
    const noKey = await run(['run', 'x', '--model', 'anthropic:claude-sonnet-4-5'], dir);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/needs an API key: set ANTHROPIC_API_KEY/);
  });

  it('reports a missing --config file', async () => {
    const dir = await workspace({});
    const r = await run(['run', 'x', '--config', 'nope.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read config .*nope.json: ENOENT/);
  });

  it('checks the version and lists the commands', async () => {
    const dir = await workspace({});
    expect((await run(['--version'], dir)).stdout).toBe('0.1.0\n');
    const help = await run(['plugin', '--help'], dir);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/inspect .*\n[\s\S]*new .*\n[\s\S]*build .*\n[\s\S]*test /);
    expect((await run(['plugin', 'frobnicate'], dir)).code).toBe(2);
  });
});
