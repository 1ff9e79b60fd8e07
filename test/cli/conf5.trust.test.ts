// conf5: a shell hook that names its script through Claude Code's "$CLAUDE_PROJECT_DIR" (set since conf5,
// test/shell/conf5.shell.test.ts) has that script under workspace trust: hashed at `trust`, and a change
// refuses the hook, as for `./check.sh`. On Node, Deno and Bun through the CLI: test/xrt/conf5.xrt.ts.
import { chmod, mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../host/config/load.js';
import { fingerprint, shellFilesChanged } from '../../host/cli/trust-files.js';

async function project(command: string, env?: Record<string, string>): Promise<{ dir: string; file: string }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'wasmhooks-conf5-trust-')));
  await mkdir(join(dir, '.claude', 'hooks'), { recursive: true });
  await mkdir(join(dir, 'elsewhere', '.claude', 'hooks'), { recursive: true });
  for (const base of [dir, join(dir, 'elsewhere')]) {
    await writeFile(join(base, '.claude', 'hooks', 'guard.sh'), '#!/bin/sh\nexit 0\n');
    await chmod(join(base, '.claude', 'hooks', 'guard.sh'), 0o755);
  }
  const file = join(dir, 'wasmhooks.json');
  await writeFile(file, JSON.stringify({ shellHooks: [{ event: 'PreToolUse', type: 'command', command, timeout: 30, ...(env ? { env } : {}) }] }));
  return { dir, file };
}

describe('conf5: workspace trust covers a script named through $CLAUDE_PROJECT_DIR', () => {
  for (const command of ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', '${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh --strict', 'sh "${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh"']) {
    it(`hashes it and refuses the hook once it changes: ${command}`, async () => {
      const { dir, file } = await project(command);
      const config = await loadConfig(file);
      const trusted = await fingerprint(config, dir);
      const script = join(dir, '.claude', 'hooks', 'guard.sh');
      expect(Object.keys(trusted.files)).toEqual([script]);
      expect(await shellFilesChanged(config, trusted)).toBeUndefined();
      await writeFile(script, '#!/bin/sh\ntouch pwned\nexit 0\n');
      expect(await shellFilesChanged(config, trusted)).toContain(`${script} changed since ${file} was trusted; not run`);
    });
  }

  it('follows the hook\'s own CLAUDE_PROJECT_DIR when its env sets one (what the command then runs)', async () => {
    const { dir, file } = await project('"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', { CLAUDE_PROJECT_DIR: 'elsewhere' });
    const trusted = await fingerprint(await loadConfig(file), dir);
    expect(Object.keys(trusted.files)).toEqual([join(dir, 'elsewhere', '.claude', 'hooks', 'guard.sh')]);
  });
});
