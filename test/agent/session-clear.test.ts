// host.clear(), Claude Code's `/clear` (session-clear.ts; the same scenario on Node, Deno and Bun against
// dist/ in test/xrt/session-clear.xrt.ts). Before session 39 there was no way to clear: a `clear` matcher
// on SessionStart never fired.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createHost, openStore, scriptedModel } from '../../host/index.js';
import { clearedSession } from './session-clear.js';

it('host.clear(): SessionEnd clear, a new id with the old options, SessionStart clear at its first prompt; the old one resumable', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-session-clear-'));
  try {
    expect(await clearedSession({ createHost, scriptedModel, openStore }, dir)).toEqual([]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
