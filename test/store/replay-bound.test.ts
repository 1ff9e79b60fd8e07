// Review red9: a reconnect reads at most what its client can take (`since(id, maxBytes)`), newest first, for an
// unknown id (which used to read the whole replay window) and for an old one, in memory and on Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../host/server/events.js';
import { MemoryEventLog } from '../../host/store/memory-log.js';
import { openStore, type OpenedStore } from '../../host/store/open.js';
import type { EventLog } from '../../host/store/types.js';
import { HOW_TO_INSTALL, haveRedis, startRedis, type RedisServer } from './redis-server.js';

const available = haveRedis();
if (!available) console.warn(`skipping the Redis replay-bound tests: ${HOW_TO_INSTALL}`);

const FILL = 'x'.repeat(1000);
const event = (i: number) => ({ type: 'session.created', time: i, sessionId: `s${i}`, title: FILL }) as unknown as StreamEvent;

async function checkBounds(log: EventLog, ids: string[]): Promise<void> {
  const chars = (entries: { json: string }[]) => entries.reduce((n, e) => n + e.json.length, 0);
  // Unknown ids (another epoch, garbage, a position not reached yet): the newest that fit 10 000 characters, a gap.
  for (const id of ['zzzz.1', 'garbage', `${log.epoch}.99999999999999-0`, `${log.epoch}.99999999999999`]) {
    const since = await log.since(id, 10_000);
    expect(since.kind).toBe('gap');
    expect(since.kind === 'gap' && since.reason).toBe('unknown-id');
    expect(chars(since.entries)).toBeLessThanOrEqual(10_000);
    expect(since.entries.length).toBeGreaterThan(5);
    expect(since.entries.at(-1)?.id).toBe(ids.at(-1));
  }
  // An old id: the newest that fit, and a gap that says over-limit.
  const old = await log.since(ids[0] as string, 10_000);
  expect(old).toMatchObject({ kind: 'gap', reason: 'over-limit', oldest: old.entries[0]?.id });
  expect(chars(old.entries)).toBeLessThanOrEqual(10_000);
  expect(old.entries.map((e) => e.id)).toEqual(ids.slice(-old.entries.length));
  // A recent id whose replay fits: all of it, no gap; no bound given: everything after it.
  expect(await log.since(ids.at(-4) as string, 10_000)).toMatchObject({ kind: 'ok' });
  expect((await log.since(ids.at(-4) as string, 10_000)).entries.map((e) => e.id)).toEqual(ids.slice(-3));
  expect((await log.since(ids[0] as string)).entries.length).toBe(ids.length - 1);
  // Nothing fits: nothing is read, and the gap says so.
  expect(await log.since(ids[0] as string, 10)).toMatchObject({ kind: 'gap', reason: 'over-limit', entries: [] });
}

describe('replay bounded by the client (memory log)', () => {
  it('reads the newest that fit for an unknown or old id, not the window', async () => {
    const log = new MemoryEventLog(2000);
    const ids: string[] = [];
    log.subscribe((e) => ids.push(e.id));
    for (let i = 0; i < 2000; i++) log.append(event(i));
    await checkBounds(log, ids);
  });
});

describe.skipIf(!available)('replay bounded by the client (Redis log)', () => {
  let redis: RedisServer;
  let opened: OpenedStore;
  beforeAll(async () => {
    redis = await startRedis({ persist: false });
    opened = await openStore({ kind: 'redis', url: redis.url, replayWindow: 2000 });
  });
  afterAll(async () => {
    await opened?.close();
    await redis?.dispose();
  });
  it('reads the newest that fit for an unknown or old id, not the window', async () => {
    const log = opened.eventLog as EventLog;
    const ids: string[] = [];
    log.subscribe((e) => ids.push(e.id));
    for (let i = 0; i < 2000; i++) log.append(event(i));
    await log.drain();
    for (let i = 0; i < 200 && ids.length < 2000; i++) await new Promise((r) => setTimeout(r, 10));
    expect(ids.length).toBe(2000);
    await checkBounds(log, ids);
  });
});

describe('replay of an evicted id, cut by the client bound too (memory log)', () => {
  it('counts every event it leaves out in `missed`: the evicted ones and the ones past the bound', async () => {
    const log = new MemoryEventLog(100);
    const ids: string[] = [];
    log.subscribe((e) => ids.push(e.id));
    for (let i = 0; i < 300; i++) log.append(event(i));
    // ids[9] was evicted long ago (the ring holds the last 100); 10 000 characters hold only some of those 100.
    const since = await log.since(ids[9] as string, 10_000);
    expect(since).toMatchObject({ kind: 'gap', reason: 'evicted', oldest: ids[200] });
    expect(since.entries.length).toBeGreaterThan(0);
    expect(since.entries.length).toBeLessThan(100);
    expect(since.entries.map((e) => e.id)).toEqual(ids.slice(-since.entries.length));
    // Events 10..299 come after the id: each is replayed or counted as missed, none silently dropped.
    expect(since.kind === 'gap' && since.missed).toBe(290 - since.entries.length);
  });
});
