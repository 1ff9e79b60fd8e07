// host.clear() on Node, Deno and Bun against the build (test/agent/session-clear.ts; vitest twin:
// test/agent/session-clear.test.ts): SessionEnd `clear`, a new conversation with the old options whose
// first prompt fires SessionStart `clear`, the old one still resumable.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, openStore, scriptedModel } from '../../dist/index.js';
import { clearedSession, type ClearApi } from '../agent/session-clear.ts';

export const scenarios: Record<string, () => Promise<void>> = {
  'host.clear(): SessionEnd clear, a new id with the old options, SessionStart clear; the old one resumable': async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-session-clear-'));
    try {
      assert.deepEqual(await clearedSession({ createHost, scriptedModel, openStore } as unknown as ClearApi, dir), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
