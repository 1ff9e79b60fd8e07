// The Redis store reads one page of sessions, not all of them (GET /session is paged: red6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../host/store/open.js';
import { haveRedis, startRedis, type RedisServer } from './redis-server.js';

describe.skipIf(!haveRedis())('RedisSessionStore.list(page) and messages(id, page)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis({ persist: false });
  });
  afterAll(async () => redis?.dispose());

  it('returns the page in creation order, and everything without one', async () => {
    const opened = await openStore({ kind: 'redis', url: redis.url });
    try {
      const { store } = opened;
      for (let i = 0; i < 5; i++) await store.create({ id: `s${i}`, createdAt: 1000 + i, prompts: 0, options: {} } as never);
      expect((await store.list({ offset: 1, limit: 2 })).map((r) => r.id)).toEqual(['s1', 's2']);
      expect((await store.list({ offset: 4, limit: 10 })).map((r) => r.id)).toEqual(['s4']);
      expect(await store.list({ offset: 9, limit: 10 })).toEqual([]);
      expect((await store.list()).map((r) => r.id)).toEqual(['s0', 's1', 's2', 's3', 's4']);
      expect(await store.count()).toBe(5);
      const message = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] }) as never;
      await store.appendMessages('s0', ['a', 'b', 'c', 'd'].map(message));
      expect(await store.messages('s0', { offset: 1, limit: 2 })).toEqual([message('b'), message('c')]);
      expect(await store.messages('s0', { offset: 3, limit: 5 })).toEqual([message('d')]);
      expect(await store.messageCount('s0')).toBe(4);
      expect(await store.messageCount('s4')).toBe(0);
    } finally {
      await opened.close();
    }
  });

  it('keeps a session\'s resumeAt (where a rebuilt session counts on; conf2), and a damaged one is ignored', async () => {
    const opened = await openStore({ kind: 'redis', url: redis.url });
    try {
      const { store } = opened;
      await store.create({ id: 'r1', createdAt: 1, prompts: 0, options: {} } as never);
      await store.update('r1', { resumeAt: { seq: 41, turn: 3 } });
      expect((await store.get('r1'))?.resumeAt).toEqual({ seq: 41, turn: 3 });
      const { resumeAtOf } = await import('../../host/store/transcript.js');
      expect(resumeAtOf(await store.get('r1'))).toEqual({ seq: 41, turn: 3 });
      expect(resumeAtOf({ resumeAt: { seq: -1, turn: 'x' } } as never)).toBeUndefined();
    } finally {
      await opened.close();
    }
  });
});
