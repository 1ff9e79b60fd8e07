// red11: an over-limit replay on the Redis log said `missed: null` (the memory log counts): a client
// could not tell a few left out from the whole window. Redis now counts the entries it leaves out,
// on the server (a Lua page loop, nothing sent back). Fails on the old code (missed was null).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../host/server/events.js';
import { openStore, type OpenedStore } from '../../host/store/open.js';
import type { EventLog } from '../../host/store/types.js';
import { HOW_TO_INSTALL, haveRedis, startRedis, type RedisServer } from './redis-server.js';

const available = haveRedis();
if (!available) console.warn(`skipping the Redis missed-count test: ${HOW_TO_INSTALL}`);

const event = (i: number) => ({ type: 'session.created', time: i, sessionId: `s${i}`, title: 'x'.repeat(1000) }) as unknown as StreamEvent;

describe.skipIf(!available)('an over-limit replay on Redis counts what it leaves out (red11)', () => {
  let redis: RedisServer;
  let opened: OpenedStore;
  beforeAll(async () => {
    redis = await startRedis({ persist: false });
    opened = await openStore({ kind: 'redis', url: redis.url, replayWindow: 5000 });
  });
  afterAll(async () => {
    await opened?.close();
    await redis?.dispose();
  });

  it('missed + replayed = every event after the id, past one Lua page too', async () => {
    const log = opened.eventLog as EventLog;
    const ids: string[] = [];
    log.subscribe((e) => ids.push(e.id));
    for (let i = 0; i < 2500; i++) log.append(event(i));
    await log.drain();
    for (let i = 0; i < 300 && ids.length < 2500; i++) await new Promise((r) => setTimeout(r, 10));
    expect(ids.length).toBe(2500);
    for (const [after, bound] of [[0, 10_000], [1200, 20_000], [2400, 5_000], [0, 10]] as const) {
      const since = await log.since(ids[after] as string, bound);
      expect(since).toMatchObject({ kind: 'gap', reason: 'over-limit' });
      expect(since.kind === 'gap' && since.missed).toBe(2500 - after - 1 - since.entries.length);
    }
  });
});
