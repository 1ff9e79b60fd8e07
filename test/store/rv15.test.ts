// rv15: a hostile review of fix3's lease fencing (test/store/rv15-store.ts; xrt twins in test/xrt/rv15.xrt.ts).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openStore } from '../../host/store/open.js';
import { fileReplaceAfterDelete, redisDamagedCounter } from './rv15-store.js';
import { cutOffPrompt } from './rv15-lease.js';
import { stalledStoreEnd } from './rv15-stall.js';
import { createHost } from '../../host/host.js';
import { createServer } from '../../host/server/app.js';
import { eventGrammarViolations } from '../../host/events/grammar.js';
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

describe('rv15 lease gate (a shared store; renewals hang)', () => {
  const deps = { createHost: createHost as never, createServer: createServer as never, eventGrammarViolations: eventGrammarViolations as never };
  it('taken over meanwhile: nothing more of the cut-off prompt reaches the stream, and it stops', async () => {
    await cutOffPrompt(deps, (await openStore({ kind: 'memory' })).store, true);
  });
  it('nobody took it: every event is published once the store answers, one agent.end, grammar holds', async () => {
    await cutOffPrompt(deps, (await openStore({ kind: 'memory' })).store, false);
  });
});

describe('rv15 agent.end with a store that stops answering', () => {
  it('the end goes out at most 5 s later, once; prompt() settles', async () => {
    const { scriptedModel } = await import('../../host/models/scripted.js');
    await stalledStoreEnd({ createHost, scriptedModel, eventGrammarViolations } as never, (await openStore({ kind: 'memory' })).store);
  }, 20_000);
});
