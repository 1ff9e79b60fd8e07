// conf5: conformance with what users bring, on Node, Deno and Bun against the build. A tool input cut
// by the output token limit, in one wording for every provider, and blank text kept from AI SDK
// providers (test/models/conf5-streams.ts); Claude Code's command hooks as shell hooks: a timeout in
// seconds, `type: "command"`, plain stdout as context (test/shell/conf5-shell.ts).
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aiSdkModel, anthropicModel, createHost, createShellHook, eventGrammarViolations, loadConfig, openaiModel, scriptedModel, shellHooks } from '../../dist/index.js';
import { runCase, type Api } from '../models/stream-conformance.ts';
import { blankUserText, conf5Cases } from '../models/conf5-streams.ts';
import { configEntry, plainStdout, plainStdoutReachesModel, timeoutKills, timeoutSeconds, type ShellApi } from '../shell/conf5-shell.ts';

const api = { createHost, openaiModel, anthropicModel, aiSdkModel, eventGrammarViolations } as unknown as Api;
const shell = { createHost, createShellHook, shellHooks, scriptedModel, loadConfig } as unknown as ShellApi;

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
  'a shell hook takes Claude Code\'s timeout in seconds and "type": "command"; a bad one is INVALID_OPTIONS naming the field': async () => {
    assert.deepEqual(timeoutSeconds(shell), []);
  },
  'a shell hook is killed at its timeout in seconds': async () => {
    assert.deepEqual(await timeoutKills(shell), []);
  },
  'a Claude Code hook entry loads from wasmhooks.json; a bad timeout is INVALID_CONFIG at shellHooks[0].timeout': async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-conf5-'));
    assert.deepEqual(await configEntry(shell, dir, (path, text) => writeFile(path, text)), []);
  },
  'plain stdout is context on UserPromptSubmit and SessionStart, no opinion elsewhere; JSON stays strict': async () => {
    assert.deepEqual(await plainStdout(shell), []);
  },
  'the plain stdout of UserPromptSubmit and SessionStart hooks reaches the model through a whole prompt': async () => {
    assert.deepEqual(await plainStdoutReachesModel(shell), []);
  },
};
