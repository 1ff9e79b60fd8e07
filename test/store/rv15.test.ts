// rv15: a hostile review of fix3's lease fencing (test/store/rv15-store.ts; xrt twins in test/xrt/rv15.xrt.ts).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openStore } from '../../host/store/open.js';
import { fileReplaceAfterDelete, redisDamagedCounter } from './rv15-store.js';
import { haveRedis, startRedis, type RedisServer } from './redis-server.js';

describe('rv15 store fencing', () => {
  it('data dir: a rewrite whose token ended during its wait writes no file', async () => {
    await fileReplaceAfterDelete(openStore as never);
  });
});

describe.skipIf(!haveRedis())('rv15 store fencing (Redis)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis({ persist: false });
  }, 30_000);
  afterAll(async () => redis?.dispose());

  it('a damaged fencing-token counter refuses acquire before writing anything', async () => {
    const { default: Redis } = await import('ioredis');
    const raw = new Redis(redis.url);
    try {
      await redisDamagedCounter(openStore as never, redis.url, raw as never);
    } finally {
      raw.disconnect();
    }
  });
});
