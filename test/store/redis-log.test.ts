// The Redis event log against a real redis-server: a batch whose reply is lost
// (it landed, in whole or in part, but the client saw an error) is not logged twice.
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

const event = (n: number) => ({ type: 'text.delta', sessionId: 's1', text: `e${n}` }) as unknown as StreamEvent;

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
    const texts = since.entries.map((e) => (e.event as unknown as { text: string }).text);
    expect(texts).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7']);
  });
});
