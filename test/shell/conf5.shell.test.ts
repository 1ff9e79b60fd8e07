// conf5 shell-hook checks (conf5-shell.ts) against the sources; the same run on Node, Deno and Bun
// against dist/ in test/xrt/conf5.xrt.ts.
import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost, createShellHook, loadConfig, scriptedModel, shellHooks } from '../../host/index.js';
import { configEntry, exitTwoObserveOnly, plainStdout, plainStdoutReachesModel, projectDirVar, timeoutKills, timeoutSeconds } from './conf5-shell.js';

const api = { createHost, createShellHook, shellHooks, scriptedModel, loadConfig };

describe("conf5: Claude Code's command hooks as shell hooks", () => {
  it('a command timeout in seconds (settings.json) is honoured, bounded and checked; "type": "command" is accepted', () => {
    expect(timeoutSeconds(api)).toEqual([]);
  });

  it('a shell hook is killed at its timeout in seconds (TIMEOUT)', async () => {
    expect(await timeoutKills(api)).toEqual([]);
  });

  it('a Claude Code hook entry loads from wasmhooks.json as written; a bad timeout names shellHooks[0].timeout', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-conf5-'));
    expect(await configEntry(api, dir, (path, text) => writeFile(path, text))).toEqual([]);
  });

  it('plain stdout on exit 0: context on UserPromptSubmit and SessionStart, no opinion elsewhere; JSON stays strict', async () => {
    expect(await plainStdout(api)).toEqual([]);
  });

  it('the plain stdout of UserPromptSubmit and SessionStart hooks reaches the model, and the prompt runs', async () => {
    expect(await plainStdoutReachesModel(api)).toEqual([]);
  });

  it('"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh runs as in Claude Code: the config folder, else the session cwd', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-conf5-'));
    const script = async (path: string, text: string) => {
      await mkdir(join(path, '..'), { recursive: true });
      await writeFile(path, text);
      await chmod(path, 0o755);
    };
    expect(await projectDirVar(api, dir, script)).toEqual([]);
  });

  it('exit 2 on SessionStart shows stderr to the user (systemMessage), as Claude Code; no failure', async () => {
    expect(await exitTwoObserveOnly(api)).toEqual([]);
  });
});
