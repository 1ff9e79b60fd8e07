// rv10: `resumeAt` is a hint read from Redis (a hash field anyone with the Redis password can
// write). A damaged field is ignored like a damaged value (host/store/transcript.ts resumeAtOf):
// it never makes the whole session, or the list of sessions, unreadable (STORE_UNAVAILABLE).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { openStore } from '../../host/store/open.js';
import { resumeAtOf } from '../../host/store/transcript.js';
import { haveRedis, startRedis, type RedisServer } from './redis-server.js';

describe.skipIf(!haveRedis())('a tampered resumeAt field in Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis({ persist: false });
  });
  afterAll(async () => redis?.dispose());

  it('is ignored: the session and the list still read, and the session counts from 0', async () => {
    const opened = await openStore({ kind: 'redis', url: redis.url });
    try {
      const { store } = opened;
      const client = (store as unknown as { redis: Redis }).redis;
      for (const [i, raw] of ['{', 'null', '"x"', '[1,2]', '{"seq":1e400,"turn":1}'].entries()) {
        const id = `t${i}`;
        await store.create({ id, createdAt: i, prompts: 0, options: {} });
        await client.hset(`wasmhooks:s:${id}`, 'resumeAt', raw);
        const record = await store.get(id);
        expect(record?.id, raw).toBe(id);
        expect(resumeAtOf(record), raw).toBeUndefined();
      }
      expect((await store.list()).map((r) => r.id)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    } finally {
      await opened.close();
    }
  });
});
