// A clear renews its lease while the old session ends (clear-lease.ts; on Node, Deno and Bun against dist/:
// test/xrt/clear-lease.xrt.ts), on a real Redis shared by two servers.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHost, scriptedModel } from '../../host/index.js';
import { createServer } from '../../host/server/index.js';
import { openStore } from '../../host/store/open.js';
import { startRedis, type RedisServer } from '../store/redis-server.js';
import { clearKeepsItsLease } from './clear-lease.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis({ persist: false });
}, 30_000);
afterAll(async () => redis?.dispose());

it('two replicas on Redis: a SessionEnd that outlasts the lease is no orphan, and the next prompt starts after it', async () => {
  const opened = await openStore({ kind: 'redis', url: redis.url });
  try {
    expect(await clearKeepsItsLease({ createHost, scriptedModel, createServer }, opened.store)).toEqual([]);
  } finally {
    await opened.close();
  }
});
