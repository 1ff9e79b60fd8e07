// fix3 item 2: the fencing token of a prompt lease on every store (memory, a data directory, Redis via Lua), and a
// server prompt whose lease renewal comes late (the process stalled) that keeps writing while nobody took over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../host/store/open.js';
import { fenceContract } from './fence-contract.js';
import { haveRedis, startRedis, type RedisServer } from './redis-server.js';
import { stalledRenewals } from './fence-stall.js';
import { createHost } from '../../host/host.js';
import { createServer } from '../../host/server/app.js';

describe('lease fencing tokens', () => {
  it('memory', async () => {
    await fenceContract((await openStore({ kind: 'memory' })).store, 'm');
  });

  it('data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wasmhooks-fence-'));
    const opened = await openStore({ kind: 'file', dataDir });
    try {
      await fenceContract(opened.store, 'f');
    } finally {
      await opened.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a server prompt whose renewals stall past the lease keeps its conversation and result (memory store)', async () => {
    await stalledRenewals((await openStore({ kind: 'memory' })).store, { createHost: createHost as never, createServer: createServer as never });
  });
});

describe.skipIf(!haveRedis())('lease fencing tokens (Redis)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis({ persist: false });
  }, 30_000);
  afterAll(async () => redis?.dispose());

  it('Redis: the token is checked in the same script as each write', async () => {
    const opened = await openStore({ kind: 'redis', url: redis.url });
    try {
      await fenceContract(opened.store, 'r');
      // A second client sees the same token order (INCR in Redis, not per process).
      const again = await openStore({ kind: 'redis', url: redis.url });
      try {
        await again.store.create({ id: 'r2', createdAt: 1, prompts: 0, options: {} });
        const t = await again.store.acquire('r2', 'x', 60_000);
        expect(t).toBeGreaterThan(2);
      } finally {
        await again.close();
      }
    } finally {
      await opened.close();
    }
  });
});
