// rv12: red11 counted what an over-limit replay leaves out with one Lua script looping over the whole
// range. Redis runs nothing else while a script runs, and XRANGE copies every entry into Lua: over a
// replay window of 80,000 1 KB events one reconnect held Redis (every replica, every session) for
// about 300 ms, 1.2 s at 300,000. The count now runs in short scripts (about 2,000 entries each).
// Fails on red11's code (SLOWLOG holds the one long EVAL). Redis's own SLOWLOG measures the script,
// not this machine's load on the test.
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../host/server/events.js';
import { openStore, type OpenedStore } from '../../host/store/open.js';
import type { EventLog } from '../../host/store/types.js';
import { HOW_TO_INSTALL, haveRedis, startRedis, type RedisServer } from './redis-server.js';

const available = haveRedis();
if (!available) console.warn(`skipping the Redis count test: ${HOW_TO_INSTALL}`);

const event = (i: number) => ({ type: 'session.created', time: i, sessionId: `s${i}`, title: 'x' }) as unknown as StreamEvent;
const FILL = 80_000;

describe.skipIf(!available)('an over-limit replay counts what it misses without holding Redis (rv12)', () => {
  let redis: RedisServer;
  let opened: OpenedStore;
  let admin: Redis;
  beforeAll(async () => {
    redis = await startRedis({ persist: false });
    opened = await openStore({ kind: 'redis', url: redis.url, prefix: 'rv12:', replayWindow: 100_000 });
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    admin?.disconnect();
    await opened?.close();
    await redis?.dispose();
  });

  it('a replay missing 80,000 events of 1 KB: the count is right and no script runs 200 ms', async () => {
    const log = opened.eventLog as EventLog;
    const ids: string[] = [];
    log.subscribe((e) => ids.push(e.id));
    log.append(event(0));
    await log.drain();
    for (let i = 0; i < 300 && ids.length < 1; i++) await new Promise((r) => setTimeout(r, 10));
    // The window filled on the server (as other replicas' events would be): entries the log decodes.
    const data = JSON.stringify({ ...event(1), title: 'y'.repeat(1000) });
    await admin.eval(
      `for i = 1, tonumber(ARGV[1]) do redis.call('XADD', KEYS[1], '*', 'u', 'other.' .. i, 'd', ARGV[2]) end return 0`,
      1,
      'rv12:events',
      String(FILL),
      data,
    );
    log.append(event(2));
    await log.drain();
    for (let i = 0; i < 300 && ids.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    // The short scripts take ~5 ms each, the old long one ~300 ms: 200 ms leaves room for a loaded machine descheduling Redis.
    await admin.config('SET', 'slowlog-log-slower-than', '200000');
    await admin.slowlog('RESET');
    const since = await log.since(ids[0] as string, 50_000);
    const slow = ((await admin.slowlog('GET', 100)) as unknown[][]).filter((entry) => String((entry[3] as unknown[])[0]).toLowerCase().startsWith('eval'));
    expect(since).toMatchObject({ kind: 'gap', reason: 'over-limit' });
    expect(since.kind === 'gap' && since.missed).toBe(FILL + 1 - since.entries.length);
    expect(slow.map((entry) => `${entry[2]} µs`)).toEqual([]);
  }, 60_000);
});
