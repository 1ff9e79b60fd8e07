// SessionStart `source: 'resume'` on Node, Deno and Bun against the build (test/agent/session-resume.ts; vitest
// twin: test/agent/session-resume.test.ts): a data directory reopened by a new host fires `resume` once at the
// session's first prompt there (matchers, the exact stdin of a command hook), and two replicas on a shared
// store fire `startup` on the first and `resume` once on the second, never per rebuilt session object.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, openStore, scriptedModel, shellHooks } from '../../dist/index.js';
import { createServer } from '../../dist/server.js';
import { compactBeforeFirstPrompt, dataDirReopened, replicasOnSharedStore, type ResumeApi } from '../agent/session-resume.ts';

const api = { createHost, scriptedModel, shellHooks, openStore, createServer } as unknown as ResumeApi;

export const scenarios: Record<string, () => Promise<void>> = {
  'a data directory reopened by a new host: resume once at its first prompt; matchers, JS and shell inputs': async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-session-resume-'));
    try {
      assert.deepEqual(await dataDirReopened(api, dir), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  'compact() before the first prompt: the session starts (resume) before the compaction does': async () => {
    assert.deepEqual(await compactBeforeFirstPrompt(api), []);
  },
  'two replicas on a shared store: startup on the first, resume once on the second': async () => {
    assert.deepEqual(await replicasOnSharedStore(api), []);
  },
};
