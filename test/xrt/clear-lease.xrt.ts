// A clear renews its prompt lease while the old session's SessionEnd runs, on Node, Deno and Bun against the
// build (test/server/clear-lease.ts; vitest twin: test/server/clear-lease.test.ts): two servers on a real Redis.
import assert from 'node:assert/strict';
import { createHost, openStore, scriptedModel } from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { clearKeepsItsLease, type ClearLeaseApi } from '../server/clear-lease.ts';
import { HOW_TO_INSTALL, haveRedis, startRedis } from '../store/redis-server.ts';

const api = { createHost, scriptedModel, createServer } as unknown as ClearLeaseApi;
const runtime = runtimeName();

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: a clear whose SessionEnd outlasts the lease keeps it: no prompt.interrupted, the next prompt starts after it`]: async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    const opened = await openStore({ kind: 'redis', url: redis.url });
    try {
      assert.deepEqual(await clearKeepsItsLease(api, opened.store as never), []);
    } finally {
      await opened.close();
      await redis.dispose();
    }
  },
};
