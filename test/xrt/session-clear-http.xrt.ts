// POST /session/:id/clear on Node, Deno and Bun against the build (test/server/session-clear-http.ts; vitest
// twin: test/server/session-clear-http.test.ts): one process, and two replicas on a real Redis, where the
// new session is built from its record on the replica that runs its prompt.
import assert from 'node:assert/strict';
import { createHost, openStore, scriptedModel } from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { clearOverHttp, type ClearHttpApi } from '../server/session-clear-http.ts';
import { HOW_TO_INSTALL, haveRedis, startRedis } from '../store/redis-server.ts';

const api = { createHost, scriptedModel, createServer } as unknown as ClearHttpApi;
const runtime = runtimeName();

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: POST /session/:id/clear in one process: SessionEnd clear, a new session with clearedFrom, SessionStart clear at its first prompt`]: async () => {
    const opened = await openStore({ kind: 'memory' });
    try {
      assert.deepEqual(await clearOverHttp(api, opened.store as never), []);
    } finally {
      await opened.close();
    }
  },
  [`${runtime}: POST /session/:id/clear across two replicas on Redis: the record keeps clearedFrom`]: async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    const opened = await openStore({ kind: 'redis', url: redis.url });
    try {
      assert.deepEqual(await clearOverHttp(api, opened.store as never, true), []);
    } finally {
      await opened.close();
      await redis.dispose();
    }
  },
};
