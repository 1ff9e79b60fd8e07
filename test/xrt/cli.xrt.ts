// The built CLI (dist/cli.js) on Node, Deno and Bun: a scripted run with a shell hook from wasmhooks.json.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-run.ts';


const run = runCli;

const script = {
  turns: [
    { text: 'Cleaning.', toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }] },
    { text: 'Refused, fine.' },
  ],
};

export const scenarios: Record<string, () => Promise<void>> = {
  'the CLI runs a prompt, a shell hook from wasmhooks.json denies a call, --json ends with agent.end': async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-xrt-cli-'));
    await writeFile(join(dir, 'script.json'), JSON.stringify(script));
    await writeFile(
      join(dir, 'wasmhooks.json'),
      JSON.stringify({ shellHooks: [{ event: 'PreToolUse', matcher: 'Bash', command: "echo 'no rm here' >&2; exit 2" }] }),
    );
    // A shell hook runs only once the user trusts the file (rv14.xrt.ts); the trust goes to a folder of this test's own.
    const env = { WASMHOOKS_CONFIG_DIR: join(dir, '.user-config') };
    assert.equal((await run(['trust'], dir, env)).code, 0);
    const rendered = await run(['run', 'clean up', '--script', 'script.json', '--no-default-guards', '--no-tools'], dir, env);
    assert.equal(rendered.code, 0, rendered.stderr);
    assert.match(rendered.stdout, /⊘ Bash\(rm -rf \/\) denied by shell:.*: no rm here/);
    assert.match(rendered.stdout, /── success · 2 model calls · 1 tool call \(1 denied\)/);

    const json = await run(['run', 'clean up', '--script', 'script.json', '--json', '--no-default-guards', '--no-tools'], dir, env);
    assert.equal(json.code, 0, json.stderr);
    const events = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    assert.equal(events.at(-1)?.type, 'agent.end');
  },
  'the CLI reports a config error with the file and path, exit 2': async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-xrt-cli-'));
    await writeFile(join(dir, 'wasmhooks.json'), JSON.stringify({ maxTurns: -1 }));
    const r = await run(['run', 'x'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /wasmhooks\.json: maxTurns: expected a positive integer, got -1/);
  },
};
