// A prompt whose reservation the store refuses (its session deleted by another replica since the prompt was
// counted) is 404 and does not run, on Node, Deno and Bun against the build (test/server/reserve-refused.ts;
// vitest twin: test/server/reserve-refused.test.ts): a real Redis, the delete through a second connection.
import assert from 'node:assert/strict';
import { createHost, openStore, scriptedModel } from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { deletedBeforeReservation, type ReserveApi } from '../server/reserve-refused.ts';
import { HOW_TO_INSTALL, haveRedis, startRedis } from '../store/redis-server.ts';

const api = { createHost, scriptedModel, createServer } as unknown as ReserveApi;
const runtime = runtimeName();

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: a session deleted between a prompt's count and its reservation: 404, the prompt does not run`]: async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    const [a, b] = await Promise.all([openStore({ kind: 'redis', url: redis.url }), openStore({ kind: 'redis', url: redis.url })]);
    try {
      assert.deepEqual(await deletedBeforeReservation(api, a.store as never, b.store as never), []);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await redis.dispose();
    }
  },
};
