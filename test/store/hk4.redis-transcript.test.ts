// hk4: a Redis session's conversation was read whole (LRANGE 0 -1) when a session was rebuilt or resumed,
// however long the list had grown. It is read up to TRANSCRIPT_LIMITS.maxLines (100,000 messages), as a
// data directory's transcript: STORE_UNAVAILABLE naming the key, nothing loaded. A page is read as before.
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type OpenedStore } from '../../host/store/open.js';
import { HOW_TO_INSTALL, haveRedis, startRedis, type RedisServer } from './redis-server.js';

const available = haveRedis();
if (!available) console.warn(`skipping the Redis transcript test: ${HOW_TO_INSTALL}`);

describe.skipIf(!available)('a Redis conversation read whole, within limits', () => {
  let redis: RedisServer;
  let opened: OpenedStore;
  let admin: Redis;
  beforeAll(async () => {
    redis = await startRedis({ persist: false });
    opened = await openStore({ kind: 'redis', url: redis.url, prefix: 'hk4:' });
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    admin?.disconnect();
    await opened?.close();
    await redis?.stop();
  });

  it('refuses a list of more than 100,000 messages, and still reads a page of it', async () => {
    await opened.store.create({ id: 'long', createdAt: 1, prompts: 0, options: {} });
    const message = JSON.stringify({ role: 'user', content: 'x' });
    for (let i = 0; i < 100_001; i += 10_000) await admin.rpush('hk4:m:long', ...Array.from({ length: Math.min(10_000, 100_001 - i) }, () => message));
    await expect(opened.store.messages('long')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/hk4:m:long holds more than 100000 messages/) });
    expect(await opened.store.messages('long', { offset: 5, limit: 2 })).toHaveLength(2);
  });

});
