// The Redis event log against a real redis-server: a batch whose reply is lost
// (it landed, in whole or in part, but the client saw an error) is not logged twice,
// and an append that failed inside a batch whose later appends landed is sent again, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type OpenedStore } from '../../host/store/open.js';
import type { StreamEvent } from '../../host/server/events.js';
import { HOW_TO_INSTALL, haveRedis, startRedis, type RedisServer } from './redis-server.js';

const available = haveRedis();
if (!available) console.warn(`skipping the Redis event-log tests: ${HOW_TO_INSTALL}`);

interface Pipeline {
  exec(): Promise<unknown>;
}
interface PipelineOwner {
  pipeline(): Pipeline;
}

/** Makes the next `failures` pipelines run (so their commands land) and then report an error, as a cut connection would. */
function loseReplies(log: object, failures: number): void {
  const redis = (log as { redis: PipelineOwner }).redis;
  const real = redis.pipeline.bind(redis);
  let left = failures;
  redis.pipeline = () => {
    const pipe = real();
    if (left-- <= 0) return pipe;
    const exec = pipe.exec.bind(pipe);
    pipe.exec = async () => {
      await exec();
      throw new Error('connection lost before the reply');
    };
    return pipe;
  };
}

/**
 * Makes the XADDs of the texts in `fail` fail on Redis's side (an invalid
 * stream id), the first time each is sent, while the rest of their pipeline
 * runs. Returns, per failing pipeline, the texts it carried in order.
 */
function failAppends(log: object, fail: string[]): string[][] {
  const redis = (log as { redis: PipelineOwner }).redis;
  const real = redis.pipeline.bind(redis);
  const left = new Set(fail);
  const failed: string[][] = [];
  redis.pipeline = () => {
    const pipe = real() as Pipeline & { xadd(...args: string[]): unknown };
    const xadd = pipe.xadd.bind(pipe);
    const texts: string[] = [];
    let failing = false;
    pipe.xadd = (...args: string[]) => {
      const text = (JSON.parse(args.at(-1)!) as { text: string }).text;
      texts.push(text);
      if (!left.delete(text)) return xadd(...args);
      failing = true;
      return xadd(...args.map((a) => (a === '*' ? 'not-an-id' : a)));
    };
    const exec = pipe.exec.bind(pipe);
    pipe.exec = async () => {
      if (failing) failed.push(texts);
      return exec();
    };
    return pipe;
  };
  return failed;
}

/** Makes every pipeline fail without sending anything, as while Redis is down; returns the way back. */
function down(log: object): () => void {
  const redis = (log as { redis: PipelineOwner }).redis;
  const real = redis.pipeline;
  redis.pipeline = () => {
    const pipe = real.call(redis);
    pipe.exec = async () => {
      throw new Error('Connection is closed.');
    };
    return pipe;
  };
  return () => void (redis.pipeline = real);
}

const textsOf = (entries: { event: unknown }[]) => entries.map((e) => (e.event as { text: string }).text);

const event = (n: number, prefix = 'e') => ({ type: 'text.delta', sessionId: 's1', text: `${prefix}${n}` }) as unknown as StreamEvent;

describe.skipIf(!available)('RedisEventLog', () => {
  let redis: RedisServer;
  let opened: OpenedStore;

  beforeAll(async () => {
    redis = await startRedis({ persist: false });
    opened = await openStore({ kind: 'redis', url: redis.url, replayWindow: 1000 });
  }, 30_000);
  afterAll(async () => {
    await opened?.close();
    await redis?.dispose();
  });

  it('logs each event once when a batch landed but its reply was lost', async () => {
    const log = opened.eventLog!;
    const start = log.lastId();
    loseReplies(log, 2);
    for (let i = 0; i < 5; i++) log.append(event(i));
    await log.drain();
    for (let i = 5; i < 8; i++) log.append(event(i));
    await log.drain();
    const since = await log.since(start);
    expect(textsOf(since.entries)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7']);
  });

  it('sends again, in order and once each, exactly the appends that failed while later ones of their batch landed', async () => {
    const log = opened.eventLog!;
    const start = log.lastId();
    const failed = failAppends(log, ['f2', 'f4']);
    for (let i = 0; i < 7; i++) log.append(event(i, 'f'));
    await log.drain();
    for (let i = 7; i < 9; i++) log.append(event(i, 'f'));
    await log.drain();
    // The premise: the failures were in the middle of one batch, with appends after them.
    expect(failed).toHaveLength(1);
    expect(failed[0]!.indexOf('f4')).toBeLessThan(failed[0]!.length - 1);
    const since = await log.since(start);
    // f2 and f4 land after the rest of their batch (a stream only appends), before what came later.
    expect(textsOf(since.entries)).toEqual(['f0', 'f1', 'f3', 'f5', 'f6', 'f2', 'f4', 'f7', 'f8']);
  });

  it('while Redis is down, a full queue keeps the newest 100 000 appends and drops the oldest, in order, counted', async () => {
    const own = await openStore({ kind: 'redis', url: redis.url, prefix: 'full:', replayWindow: 200_000 });
    try {
      const log = own.eventLog! as typeof own.eventLog & { dropped: number };
      const start = log.lastId();
      const back = down(log);
      const total = 100_000 + 20_000;
      for (let i = 0; i < total; i++) log.append(event(i, 'q'));
      expect(log.dropped).toBe(20_000);
      back();
      // drain() gives up after 5 s; 100 000 appends may take longer on a loaded machine.
      let since = await log.since(start);
      for (let round = 0; round < 12 && since.entries.length < 100_000; round++) {
        await log.drain();
        since = await log.since(start);
      }
      const texts = textsOf(since.entries);
      expect(texts).toHaveLength(100_000);
      expect(texts[0]).toBe('q20000');
      expect(texts.at(-1)).toBe(`q${total - 1}`);
      expect(texts.every((t, i) => t === `q${20_000 + i}`)).toBe(true);
    } finally {
      await own.close();
    }
  }, 90_000);
});
