// Hostile review red18 of the HTTP control plane and the stores, on Node, Deno and Bun, through each runtime's own
// serve adapter and raw sockets. Vitest twins that fail on the old code: test/server/red18.*.test.ts and
// test/store/red18.*.test.ts.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as wasmhooks from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { HOW_TO_INSTALL, haveRedis, startRedis } from '../store/redis-server.ts';
import { rawRequest, stalledReader } from './raw-http.ts';
import { makeHost } from './red6-helpers.ts';

const runtime = runtimeName();
const HEALTH = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
const statuses = (raw: string) => [...raw.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
const errorCode = (body: string) => (JSON.parse(body) as { error: { code: string; message: string } }).error;

async function withServer(options: Record<string, unknown>, run: (port: number, server: ReturnType<typeof createServer>) => Promise<void>): Promise<void> {
  const server = createServer(makeHost(), { port: 0, ...options });
  const { port } = await server.listen();
  try {
    await run(port, server);
  } finally {
    await server.close();
  }
}

/** Sends `raw`, reads until the server ends the connection (closed) or 10 s pass (a stall). */
function exchange(port: number, raw: string, waitMs = 10_000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('end', () => done(true));
    socket.on('error', () => done(true));
    socket.write(raw);
  });
}

export const scenarios: Record<string, () => Promise<void>> = {
  // About timing, with slack: the old loop walked the configured token per request (an 8 MiB token: ~100 ms).
  [`${runtime}: a refused request costs the same whatever the configured token's length`]: async () => {
    const time = async (token: string) => {
      const server = createServer(makeHost(), { token });
      const headers = { authorization: 'Bearer wrong-token-0123456789' };
      try {
        assert.equal((await server.fetch(new Request('http://127.0.0.1/health', { headers }))).status, 401);
        const start = performance.now();
        for (let i = 0; i < 20; i++) assert.equal((await server.fetch(new Request('http://127.0.0.1/health', { headers }))).status, 401);
        return performance.now() - start;
      } finally {
        await server.close();
      }
    };
    const short = await time('s'.repeat(16));
    const long = await time('L'.repeat(8 << 20));
    assert.ok(long < short * 10 + 100, `8 MiB token: ${long.toFixed(0)} ms, 16 characters: ${short.toFixed(0)} ms`);
  },

  [`${runtime}: one address holds at most maxSseClientsPerAddress streams (429 naming the cap); a closed one gives its place back`]: () =>
    withServer({ maxSseClientsPerAddress: 2 }, async (port, server) => {
      const readers = [await stalledReader(port, '/global/event'), await stalledReader(port, '/event')];
      const refused = await rawRequest(port, 'GET /global/event HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      assert.equal(refused.status, 429, refused.head);
      assert.equal(errorCode(refused.body).code, 'too_many_requests');
      assert.match(errorCode(refused.body).message, /already holds 2 event streams, its cap \(maxSseClientsPerAddress: 2\)/);
      readers[0]!.socket.destroy();
      for (let i = 0; i < 200 && server.hub.clientCount > 1; i++) await new Promise((r) => setTimeout(r, 10));
      const again = await stalledReader(port, '/global/event');
      assert.equal(server.hub.clientCount, 2);
      for (const r of [readers[1]!, again]) r.socket.destroy();
    }),

  [`${runtime}: one address creates at most maxSessionsPerAddress sessions (429 naming the cap)`]: () =>
    withServer({ maxSessionsPerAddress: 2 }, async (port) => {
      const create = () => fetch(`http://127.0.0.1:${port}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      const answers = await Promise.all([create(), create(), create(), create()]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [201, 201, 429, 429]);
      const refused = answers.find((r) => r.status === 429)!;
      assert.match(errorCode(await refused.text()).message, /already holds 2 sessions, its cap \(maxSessionsPerAddress: 2\)/);
      for (const r of answers) if (r.status === 201) await r.body?.cancel();
    }),

  [`${runtime}: a request asking to switch protocols (WebSocket, h2c) is a JSON 400 and its connection closed, after the answers before it`]: () =>
    withServer({}, async (port) => {
      const upgrade = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';
      const { text, closed } = await exchange(port, HEALTH + upgrade + HEALTH, runtime === 'deno' ? 1000 : 10_000);
      // Deno serves what follows a Connection: close answer (red15's note): only the first two answers are ours to judge.
      assert.deepEqual(statuses(text).slice(0, 2), [200, 400], text);
      if (runtime !== 'deno') assert.equal(closed, true, 'the connection was left open');
      assert.match(text, /"code":"bad_request"[^}]*no WebSocket, no h2c/);
    }),

  [`${runtime}: a request target over 8192 characters is 414 uri_too_long, more than 64 query parameters 400`]: () =>
    withServer({}, async (port) => {
      for (const path of ['/session', '/global/event']) {
        const long = await rawRequest(port, `GET ${path}?x=${'a'.repeat(12_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
        assert.equal(long.status, 414, `${path}: ${long.head}`);
        assert.equal(errorCode(long.body).code, 'uri_too_long');
        const many = await rawRequest(port, `GET ${path}?${'p=1&'.repeat(65)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
        assert.equal(many.status, 400, `${path}: ${many.head}`);
        assert.match(errorCode(many.body).message, /the query holds 66 parameters, over the 64 accepted/);
      }
    }),

  [`${runtime}: a body of 100,000 object keys is 400 invalid_json at once, and a validation message stays short`]: () =>
    withServer({}, async (port) => {
      const post = (body: string) => fetch(`http://127.0.0.1:${port}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;
      const many = await post(keys(100_000));
      assert.equal(many.status, 400);
      assert.match(errorCode(await many.text()).message, /holds more than 10000 object keys/);
      const unknown = await post(keys(5_000));
      const text = await unknown.text();
      assert.equal(unknown.status, 400);
      assert.ok(text.length < 600, `a ${text.length}-character answer`);
    }),

  [`${runtime}: the file store keeps loaded transcripts within maxCachedTranscriptBytes, and every read is whole`]: async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'red18-xrt-'));
    const line = (i: number) => `${JSON.stringify({ role: 'user', content: `${i}:${'x'.repeat(10_000)}` })}\n`;
    const first = await wasmhooks.openStore({ kind: 'file', dataDir });
    for (let s = 0; s < 20; s++) {
      await first.store.create({ id: `s${s}`, createdAt: s, prompts: 0, options: {} });
      await writeFile(first.store.transcriptPath(`s${s}`)!, Array.from({ length: 10 }, (_, i) => line(i)).join(''));
    }
    await first.close();
    const { store, close } = await wasmhooks.openStore({ kind: 'file', dataDir, maxCachedTranscriptBytes: 250_000 });
    try {
      for (let s = 0; s < 20; s++) {
        assert.equal((await store.messages(`s${s}`)).length, 10);
        assert.ok((store as unknown as { cachedBytes: number }).cachedBytes <= 250_000);
      }
      assert.equal(await store.appendMessages('s0', [{ role: 'user', content: 'more' }]), true);
      assert.equal((await store.messages('s0')).length, 11);
    } finally {
      await close();
    }
  },

  [`${runtime}: Redis: a conversation past maxTranscriptBytes is STORE_UNAVAILABLE naming the session, nothing loaded`]: async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    const opened = await wasmhooks.openStore({ kind: 'redis', url: redis.url, prefix: 'r18x:', maxTranscriptBytes: 50_000, maxTranscriptLineBytes: 20_000 });
    const { default: Redis } = await import('ioredis');
    const admin = new Redis(redis.url);
    try {
      await opened.store.create({ id: 'big', createdAt: 1, prompts: 0, options: {} });
      await admin.rpush('r18x:m:big', ...Array.from({ length: 300 }, () => JSON.stringify({ role: 'user', content: 'x'.repeat(1000) })));
      await assert.rejects(opened.store.messages('big'), (e: { code?: string; message: string }) => e.code === 'STORE_UNAVAILABLE' && /session big \(Redis key r18x:m:big\)/.test(e.message));
      await admin.rpush('r18x:m:wide', JSON.stringify({ role: 'user', content: 'y'.repeat(30_000) }));
      await opened.store.create({ id: 'wide', createdAt: 1, prompts: 0, options: {} });
      await assert.rejects(opened.store.messages('wide', { offset: 0, limit: 10 }), /message 0 is 30028 bytes, over the 20000/);
      assert.equal((await opened.store.messages('big', { offset: 0, limit: 5 })).length, 5);
      // A session's record is bounded the same way, and left out of lists.
      await admin.hset('r18x:s:wide', 'lastResult', JSON.stringify({ text: 'z'.repeat(60_000) }));
      await assert.rejects(opened.store.get('wide'), /the Redis key r18x:s:wide holds \d+ bytes or more, over the 50000/);
      assert.deepEqual((await opened.store.list()).map((r) => r.id), ['big']);
    } finally {
      admin.disconnect();
      await opened.close();
      await redis.stop();
    }
  },
};
