// Review red18: a Redis conversation was bounded by its count alone (100,000 messages, or a page of 1,000), not
// by its bytes: a conversation grown by another replica, another program or a hostile user of the Redis was
// taken whole into this process. It is now read within maxTranscriptBytes / maxTranscriptLineBytes (the data
// directory's limits), measured in Redis by the script that reads it: STORE_UNAVAILABLE naming the session and
// the message, nothing loaded.
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type OpenedStore } from '../../host/store/open.js';
import { HOW_TO_INSTALL, haveRedis, startRedis, type RedisServer } from './redis-server.js';

const available = haveRedis();
if (!available) console.warn(`skipping the Redis conversation size test: ${HOW_TO_INSTALL}`);

describe.skipIf(!available)('red18: a Redis conversation is read within byte limits', () => {
  let redis: RedisServer;
  let opened: OpenedStore;
  let admin: Redis;
  const line = (n: number) => JSON.stringify({ role: 'user', content: 'x'.repeat(n) });
  beforeAll(async () => {
    redis = await startRedis({ persist: false });
    opened = await openStore({ kind: 'redis', url: redis.url, prefix: 'r18:', maxTranscriptBytes: 100_000, maxTranscriptLineBytes: 20_000 });
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    admin?.disconnect();
    await opened?.close();
    await redis?.stop();
  });

  it('refuses a message past maxTranscriptLineBytes, read whole or as a page, naming the session and the message', async () => {
    await opened.store.create({ id: 'wide', createdAt: 1, prompts: 0, options: {} });
    await admin.rpush('r18:m:wide', line(10), line(10), line(30_000), line(10));
    const refused = { code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/session wide \(Redis key r18:m:wide\): message 2 is 30028 bytes, over the 20000/) };
    await expect(opened.store.messages('wide')).rejects.toMatchObject(refused);
    await expect(opened.store.messages('wide', { offset: 1, limit: 5 })).rejects.toMatchObject(refused);
    // Pages that do not hold it still read.
    expect(await opened.store.messages('wide', { offset: 0, limit: 2 })).toHaveLength(2);
    expect(await opened.store.messages('wide', { offset: 3, limit: 5 })).toHaveLength(1);
  });

  it('refuses a conversation whose messages together pass maxTranscriptBytes, though each is small', async () => {
    await opened.store.create({ id: 'long', createdAt: 1, prompts: 0, options: {} });
    // 600 messages of ~1 KB: 600 KB against a 100 KB limit (and 600 crosses the script's 256-message chunks).
    await admin.rpush('r18:m:long', ...Array.from({ length: 600 }, () => line(1_000)));
    await expect(opened.store.messages('long')).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringMatching(/session long \(Redis key r18:m:long\): its messages up to 97 hold 100\d+ bytes, over the 100000/),
    });
    expect(await opened.store.messages('long', { offset: 590, limit: 50 })).toHaveLength(10);
    expect(await opened.store.messageCount('long')).toBe(600);
  });

  it("a session's record or pending questions past maxTranscriptBytes are refused naming the key, and left out of lists", async () => {
    await opened.store.create({ id: 'fat', createdAt: 5, prompts: 0, options: {} });
    await opened.store.create({ id: 'thin', createdAt: 6, prompts: 0, options: {} });
    await admin.hset('r18:s:fat', 'lastResult', JSON.stringify({ text: 'z'.repeat(150_000) }));
    await expect(opened.store.get('fat')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/the Redis key r18:s:fat holds \d+ bytes or more, over the 100000/) });
    const listed = (await opened.store.list()).map((r) => r.id);
    expect(listed).toContain('thin');
    expect(listed).not.toContain('fat');
    expect(await opened.store.get('thin')).toMatchObject({ id: 'thin', prompts: 0 });
    await admin.hset('r18:c:thin', 'q1', JSON.stringify({ id: 'q1', sessionId: 'thin', createdAt: 1, pad: 'p'.repeat(150_000) }));
    await expect(opened.store.controls('thin')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/r18:c:thin holds/) });
  });

  it('reads a conversation within the limits whole and in order, across chunks', async () => {
    await opened.store.create({ id: 'ok', createdAt: 1, prompts: 0, options: {} });
    const messages = Array.from({ length: 700 }, (_, i) => ({ role: 'user' as const, content: String(i) }));
    expect(await opened.store.appendMessages('ok', messages)).toBe(true);
    expect(await opened.store.messages('ok')).toEqual(messages);
    expect(await opened.store.messages('ok', { offset: 255, limit: 3 })).toEqual(messages.slice(255, 258));
  });
});
