// Review red22: every replay from the Redis log (a reconnect with Last-Event-ID) read its own copy of the events
// from Redis and held it, frames and all: 60 clients replaying one session's 100 events of 100 KB held 1.2 GB.
// Replays now share one copy (redis-log-entries.ts, on the stores' byte-bounded LRU): concurrent readers get the
// same Entry objects, read from Redis once. Fails on the old code (each replay had its own objects).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../host/server/events.js';
import { openStore, type OpenedStore } from '../../host/store/open.js';
import { RedisEventLog } from '../../host/store/redis-log.js';
import { HOW_TO_INSTALL, haveRedis, startRedis, type RedisServer } from './redis-server.js';

const available = haveRedis();
if (!available) console.warn(`skipping the Redis shared-replay tests: ${HOW_TO_INSTALL}`);

const part = (i: number, text: string) => ({ type: 'message.part', time: i, sessionId: 's1', text }) as unknown as StreamEvent;

/** Appends `events`, waits until the log delivered them; their ids. */
async function fill(log: RedisEventLog, events: StreamEvent[]): Promise<string[]> {
  const ids: string[] = [];
  const stop = log.subscribe((e) => ids.push(e.id));
  for (const e of events) log.append(e);
  await log.drain();
  for (let i = 0; i < 500 && ids.length < events.length; i++) await new Promise((r) => setTimeout(r, 10));
  stop();
  return ids;
}

describe.skipIf(!available)('red22: Redis replays share their entries', () => {
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

  it('concurrent replays of the same events get the same entries (and frames), read once', async () => {
    const log = opened.eventLog as RedisEventLog;
    const ids = await fill(log, Array.from({ length: 100 }, (_, i) => part(i, `${i}:${'x'.repeat(10_000)}`)));
    const first = `${log.epoch}.0-1`;
    const replays = await Promise.all(Array.from({ length: 20 }, () => log.since(first, 64 << 20)));
    for (const since of replays) {
      expect(since.kind).toBe('ok');
      expect(since.entries.map((e) => e.id)).toEqual(ids);
      since.entries.forEach((entry, i) => expect(entry).toBe(replays[0]!.entries[i]));
    }
    // A later reconnect takes the kept entries: the frame a replay built is the next one's too.
    const frame = replays[0]!.entries[5]!.frame('plain');
    expect((await log.since(first, 64 << 20)).entries[5]!.frame('plain')).toBe(frame);
    expect(log.replayed.bytes).toBeGreaterThan(100 * 10_000);
  });

  it('keeps at most its byte cap, and a replay past it is still whole and in order', async () => {
    const small = await RedisEventLog.open((opened.store as unknown as { redis: never }).redis, redis.url, { capacity: 5000, prefix: 'small:', cacheBytes: 50_000 });
    try {
      const ids = await fill(small, Array.from({ length: 40 }, (_, i) => part(i, `${i}:${'y'.repeat(5_000)}`)));
      for (let round = 0; round < 2; round++) {
        const since = await small.since(`${small.epoch}.0-1`);
        expect(since.entries.map((e) => e.id)).toEqual(ids);
        expect(since.entries.map((e) => (e.event as unknown as { time: number }).time)).toEqual(ids.map((_, i) => i));
        expect(small.replayed.bytes).toBeLessThanOrEqual(50_000);
      }
    } finally {
      await small.close();
    }
  });

  it('counts a text by its characters, as the memory log does (not by its UTF-8 bytes)', async () => {
    const log = opened.eventLog as RedisEventLog;
    const before = log.lastId();
    const ids = await fill(log, [part(0, 'é'.repeat(3000)), part(1, '😀'.repeat(1000)), part(2, 'z')]);
    const all = await log.since(before);
    const chars = all.entries.reduce((n, e) => n + e.json.length, 0);
    expect(await log.since(before, chars)).toMatchObject({ kind: 'ok' });
    const cut = await log.since(before, chars - 1);
    expect(cut).toMatchObject({ kind: 'gap', reason: 'over-limit', missed: 1 });
    expect(cut.entries.map((e) => e.id)).toEqual(ids.slice(1));
  });
});
