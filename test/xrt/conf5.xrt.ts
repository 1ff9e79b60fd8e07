// conf5: conformance with what users bring, on Node, Deno and Bun against the build. A tool input cut
// by the output token limit, in one wording for every provider, and blank text kept from AI SDK
// providers (test/models/conf5-streams.ts); Claude Code's command hooks as shell hooks: a timeout in
// seconds, `type: "command"`, plain stdout as context (test/shell/conf5-shell.ts).
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aiSdkModel, anthropicModel, createHost, createShellHook, eventGrammarViolations, loadConfig, openaiModel, scriptedModel, shellHooks } from '../../dist/index.js';
import { runCase, type Api } from '../models/stream-conformance.ts';
import { blankErrorResult, blankUserText, conf5Cases } from '../models/conf5-streams.ts';
import { configEntry, exitTwoObserveOnly, plainStdout, plainStdoutReachesModel, projectDirVar, timeoutKills, timeoutSeconds, type ShellApi } from '../shell/conf5-shell.ts';
import { runCli } from './cli-run.ts';
import { nodeTwin } from './twin.ts';

const api = { createHost, openaiModel, anthropicModel, aiSdkModel, eventGrammarViolations } as unknown as Api;
/** Runs each conf5-shell.ts scenario on Node with the same arguments (projectDirVar's script helper is the same too). */
const SHELL_TWIN = 'test/shell/conf5.shell.test.ts';
const shell = { createHost, createShellHook, shellHooks, scriptedModel, loadConfig } as unknown as ShellApi;

async function script(path: string, text: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  await chmod(path, 0o755);
}
const exists = (path: string) => stat(path).then(() => true, () => false);

export const scenarios: Record<string, () => Promise<void>> = {
  'a tool input cut by the output token limit says so in one wording (Anthropic max_tokens, OpenAI length, AI SDK length); broken input that was not cut says malformed': async () => {
    const failed: string[] = [];
    for (const c of conf5Cases) {
      const problems = await runCase(api, c);
      if (problems.length > 0) failed.push(`${c.name}:\n  ${problems.join('\n  ')}`);
    }
    assert.deepEqual(failed, []);
  },
  'an AI SDK prompt leaves out blank user text and whitespace-only assistant text, and a message left empty': async () => {
    assert.deepEqual(await blankUserText({ aiSdkModel } as never), []);
  },
  'a failed tool result without text says which tool failed, for Anthropic, the AI SDK and Chat Completions': async () => {
    assert.deepEqual(await blankErrorResult({ aiSdkModel, anthropicModel, openaiModel } as never), []);
  },
  'a shell hook takes Claude Code\'s timeout in seconds and "type": "command"; a bad one is INVALID_OPTIONS naming the field': nodeTwin(SHELL_TWIN, 'timeoutSeconds', async () => {
    assert.deepEqual(timeoutSeconds(shell), []);
  }),
  'a shell hook is killed at its timeout in seconds': nodeTwin(SHELL_TWIN, 'timeoutKills', async () => {
    assert.deepEqual(await timeoutKills(shell), []);
  }),
  'a Claude Code hook entry loads from wasmhooks.json; a bad timeout is INVALID_CONFIG at shellHooks[0].timeout': nodeTwin(SHELL_TWIN, 'configEntry', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-conf5-'));
    assert.deepEqual(await configEntry(shell, dir, (path, text) => writeFile(path, text)), []);
  }),
  'plain stdout is context on UserPromptSubmit and SessionStart, no opinion elsewhere; JSON stays strict': nodeTwin(SHELL_TWIN, 'plainStdout', async () => {
    assert.deepEqual(await plainStdout(shell), []);
  }),
  'the plain stdout of UserPromptSubmit and SessionStart hooks reaches the model through a whole prompt': nodeTwin(SHELL_TWIN, 'plainStdoutReachesModel', async () => {
    assert.deepEqual(await plainStdoutReachesModel(shell), []);
  }),
  '"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh runs as in Claude Code: the config folder, else the session cwd': nodeTwin(SHELL_TWIN, 'projectDirVar', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-conf5-'));
    assert.deepEqual(await projectDirVar(shell, dir, script), []);
  }),
  'through the CLI: a trusted hook runs its script through $CLAUDE_PROJECT_DIR; the script changed mid-run is not run': async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'wasmhooks-xrt-conf5-')));
    const env = { WASMHOOKS_CONFIG_DIR: `${dir}-user` };
    await script(join(dir, '.claude', 'hooks', 'check.sh'), '#!/bin/sh\necho x >> "$CLAUDE_PROJECT_DIR/hook-ran"\nexit 0\n');
    await writeFile(join(dir, 'script.json'), JSON.stringify({
      turns: [
        { toolCalls: [{ name: 'Bash', input: { command: 'printf "touch pwned\\n" >> .claude/hooks/check.sh' } }] },
        { toolCalls: [{ name: 'Bash', input: { command: 'echo second > second.txt' } }] },
        { text: 'done' },
      ],
    }));
    const command = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh';
    await writeFile(join(dir, 'wasmhooks.json'), JSON.stringify({ permissionMode: 'bypassPermissions', shellHooks: [{ event: 'PreToolUse', matcher: 'Bash', type: 'command', command, timeout: 30 }] }));
    assert.equal((await runCli(['trust'], dir, env)).code, 0);
    const r = await runCli(['run', 'x', '--script', 'script.json', '--json'], dir, env);
    // Old code: `timeout` and `type` were unknown keys; without them, the variable was empty and the script not found.
    assert.equal(await readFile(join(dir, 'hook-ran'), 'utf8').catch(() => ''), 'x\n', r.stdout + r.stderr);
    assert.equal(await exists(join(dir, 'pwned')), false, 'the changed script ran under the trust checked at start');
    assert.equal(await exists(join(dir, 'second.txt')), false);
    assert.ok(r.stdout.includes(`${join(dir, '.claude', 'hooks', 'check.sh')} changed since ${join(dir, 'wasmhooks.json')} was trusted; not run`), r.stdout);
  },
  'exit 2 on SessionStart shows stderr to the user (systemMessage), not a failure': nodeTwin(SHELL_TWIN, 'exitTwoObserveOnly', async () => {
    assert.deepEqual(await exitTwoObserveOnly(shell), []);
  }),
};
