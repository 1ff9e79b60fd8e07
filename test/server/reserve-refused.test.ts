// A prompt whose reservation the store refuses (its session deleted since it was counted) does not run
// (reserve-refused.ts; on Node, Deno and Bun against dist/ and a real Redis: test/xrt/reserve-refused.xrt.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHost, scriptedModel } from '../../host/index.js';
import { createServer } from '../../host/server/index.js';
import { MemorySessionStore } from '../../host/store/memory.js';
import { openStore } from '../../host/store/open.js';
import { startRedis, type RedisServer } from '../store/redis-server.js';
import { deletedBeforeReservation } from './reserve-refused.js';

const api = { createHost, scriptedModel, createServer };
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis({ persist: false });
}, 30_000);
afterAll(async () => redis?.dispose());

it('one process (memory store): 404, nothing runs', async () => {
  const store = new MemorySessionStore();
  expect(await deletedBeforeReservation(api, store, store)).toEqual([]);
});

it('Redis, deleted through another connection: 404, nothing runs', async () => {
  const [a, b] = await Promise.all([openStore({ kind: 'redis', url: redis.url }), openStore({ kind: 'redis', url: redis.url })]);
  try {
    expect(await deletedBeforeReservation(api, a.store, b.store)).toEqual([]);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
