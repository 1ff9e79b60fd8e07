// Durable sessions on each runtime: the data-directory store (with a torn
// transcript line), the Redis store and event log against a real
// redis-server, two servers sharing Redis (answer on B, prompt runs on A),
// and a graceful close that delivers control.cancelled and server.closing.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as wasmhooks from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { HOW_TO_INSTALL, haveRedis, startRedis } from '../store/redis-server.ts';
import { writingHost } from './red6-helpers.ts';
import { sseMessages, textReader } from '../fixtures/sse-messages.ts';

const runtime = runtimeName();

interface Data {
  type?: string;
  id?: string;
  reason?: string;
  result?: { subtype: string };
  [k: string]: unknown;
}

/** Reads SSE data until `stop`; returns the events and whether the server ended the stream cleanly. */
async function read(res: Response, stop: (e: Data) => boolean, onEvent: (e: Data) => Promise<void> = async () => {}) {
  const reader = textReader(res);
  const events: Data[] = [];
  const deadline = setTimeout(() => void reader.cancel(), 10_000);
  try {
    for await (const { data: event } of sseMessages<Data>(reader)) {
      events.push(event);
      await onEvent(event);
      if (stop(event)) return { events, ended: false };
    }
    return { events, ended: true };
  } catch {
    return { events, ended: false };
  } finally {
    clearTimeout(deadline);
  }
}

async function post(url: string, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as any };
}

const message = (text: string) => ({ role: 'user' as const, content: text });

export const scenarios: Record<string, () => Promise<void>> = {
  [`data-directory store on ${runtime}: records, transcripts, a torn last line, leases`]: async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wasmhooks-xrt-'));
    const first = await wasmhooks.openStore({ kind: 'file', dataDir });
    const record = { id: 's1', createdAt: 1, prompts: 0, options: {} };
    assert.equal(await first.store.create(record), true);
    assert.equal(await first.store.create(record), false);
    assert.equal(await first.store.count(), 1);
    await first.store.appendMessages('s1', [message('one'), message('two')]);
    await first.store.sync('s1');
    await first.store.update('s1', { prompts: 1 });
    assert.equal(typeof (await first.store.acquire('s1', 'a', 60_000)), 'number');
    assert.equal(await first.store.acquire('s1', 'b', 60_000), false);
    await first.close();
    appendFileSync(join(dataDir, 'sessions', 's1.jsonl'), '{"role":"user","con');
    const second = await wasmhooks.openStore({ kind: 'file', dataDir });
    assert.deepEqual(await second.store.messages('s1'), [message('one'), message('two')]);
    await second.store.appendMessages('s1', [message('three')]);
    assert.equal((await second.store.messages('s1')).length, 3);
    // The lease died with the first process; the record still says running: an orphan.
    assert.deepEqual(await second.store.orphans(), [{ id: 's1', owner: 'a' }]);
    assert.equal(await second.store.claimOrphan('s1', 'a'), true);
    assert.equal(await second.store.claimOrphan('s1', 'a'), false);
    assert.equal((await second.store.get('s1'))?.prompts, 1);
    await second.close();
  },

  [`data-directory lock on ${runtime}: of stores taking over a crashed process's lock at once, exactly one wins`]: async () => {
    // Above Linux's largest pid_max (2^22): a process that cannot be alive.
    const gone = { pid: 4_194_305, host: hostname(), nonce: 'crashed' };
    for (let trial = 0; trial < 20; trial++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'wasmhooks-xrt-'));
      mkdirSync(join(dataDir, 'sessions'), { recursive: true });
      writeFileSync(join(dataDir, 'sessions', '.lock'), trial % 2 === 0 ? `${JSON.stringify(gone)}\n` : '{"pid":');
      const results = await Promise.allSettled(Array.from({ length: 4 }, () => wasmhooks.openStore({ kind: 'file', dataDir })));
      const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      assert.equal(won.length, 1, `trial ${trial}: ${won.length} stores hold the lock`);
      for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as { code?: string }).code, 'STORE_UNAVAILABLE');
      await won[0]!.close();
      assert.deepEqual(readdirSync(join(dataDir, 'sessions')), []);
    }
  },

  [`redis store and event log on ${runtime}`]: async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    try {
      const a = await wasmhooks.openStore({ kind: 'redis', url: redis.url, replayWindow: 100 });
      const b = await wasmhooks.openStore({ kind: 'redis', url: redis.url, replayWindow: 100 });
      try {
        assert.equal(await a.store.create({ id: 's1', createdAt: 1, prompts: 0, options: { maxTurns: 3 } }), true);
        assert.deepEqual((await b.store.list()).map((r) => r.options), [{ maxTurns: 3 }]);
        assert.equal(await b.store.count(), 1);
        await a.store.appendMessages('s1', [message('one')]);
        assert.deepEqual(await b.store.messages('s1'), [message('one')]);
        assert.equal(typeof (await a.store.acquire('s1', 'A', 5000)), 'number');
        assert.equal(await b.store.acquire('s1', 'B', 5000), false);
        assert.equal(await b.store.leaseOwner('s1'), 'A');
        await a.store.release('s1', 'A');
        assert.equal(typeof (await b.store.acquire('s1', 'B', 5000)), 'number');
        // Calls between replicas.
        const got = new Promise((resolve) => void b.store.listen('B', resolve));
        await new Promise((r) => setTimeout(r, 50));
        await a.store.send('B', { kind: 'reply', callId: 'c1', body: 42 });
        assert.deepEqual(await got, { kind: 'reply', callId: 'c1', body: 42 });
        // The log: appended on A, delivered on both, replayable from an id, foreign ids are a gap.
        const seen: string[] = [];
        b.eventLog!.subscribe((entry) => seen.push(entry.id));
        for (let i = 0; i < 3; i++) a.eventLog!.append({ type: 'session.created', time: i, sessionId: `x${i}` });
        await a.eventLog!.drain();
        for (let i = 0; i < 100 && seen.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
        assert.equal(seen.length, 3);
        assert.ok(seen.every((id) => id.startsWith(`${a.eventLog!.epoch}.`)));
        const since = await b.eventLog!.since(seen[0]!);
        assert.deepEqual(since.entries.map((e) => e.id), seen.slice(1));
        assert.equal(since.kind, 'ok');
        const foreign = await b.eventLog!.since('zzzz.5');
        assert.equal(foreign.kind, 'gap');
      } finally {
        await a.close();
        await b.close();
      }
    } finally {
      await redis.dispose();
    }
  },

  [`two servers share Redis on ${runtime}: the prompt runs on A, the answer comes through B`]: async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    const stores = await Promise.all([1, 2].map(() => wasmhooks.openStore({ kind: 'redis', url: redis.url })));
    const [A, B] = stores.map((o, i) => createServer(writingHost(), { port: 0, store: o.store, eventLog: o.eventLog!, replica: `r${i}` }));
    try {
      const [a, b] = await Promise.all([A!.listen(), B!.listen()]);
      await Promise.all([A!.ready, B!.ready]);
      const id = (await post(`${a.url}/session`, {})).json.id as string;
      const stream = await fetch(`${b.url}/event?session=${id}`);
      const reading = read(
        stream,
        (e) => e.type === 'agent.end',
        async (e) => {
          if (e.type !== 'control.request') return;
          assert.equal((await post(`${b.url}/session/${id}/prompt`, { prompt: 'again' })).status, 409);
          const answer = { requestID: e.id, subtype: 'can_use_tool', response: { behavior: 'allow' } };
          assert.deepEqual((await post(`${b.url}/session/${id}/control-response`, answer)).json, { resolved: true });
        },
      );
      assert.equal((await post(`${a.url}/session/${id}/prompt`, { prompt: 'write it' })).status, 202);
      const { events } = await reading;
      assert.equal(events.find((e) => e.type === 'tool.output')?.content, 'wrote a.txt');
      assert.equal(events.at(-1)?.result?.subtype, 'success');
    } finally {
      await Promise.all([A!.close(), B!.close()]);
      await Promise.all(stores.map((s) => s.close()));
      await redis.dispose();
    }
  },

  [`graceful close on ${runtime}: control.cancelled (server-closed) and server.closing reach the client, the stream ends cleanly`]: async () => {
    const server = createServer(writingHost(), { port: 0 });
    const { url } = await server.listen();
    const id = (await post(`${url}/session`, {})).json.id as string;
    const stream = await fetch(`${url}/event?session=${id}`);
    let closing: Promise<void> | undefined;
    const reading = read(
      stream,
      () => false,
      async (e) => {
        if (e.type === 'control.request') closing = server.close();
      },
    );
    assert.equal((await post(`${url}/session/${id}/prompt`, { prompt: 'write it' })).status, 202);
    const { events, ended } = await reading;
    await closing;
    const types = events.map((e) => e.type);
    assert.ok(ended, `stream cut: ${types.join(', ')}`);
    assert.equal(events.find((e) => e.type === 'control.cancelled')?.reason, 'server-closed');
    assert.equal(types.at(-1), 'server.closing');
  },
};
