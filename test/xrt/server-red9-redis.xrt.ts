// Hostile review red9 on each runtime, the holes that need Redis: a reconnect's replay read from
// the event log (what Redis sends for one reconnect), and the permission bridge across replicas.
// The rest of red9 is server-red9.xrt.ts.
import assert from 'node:assert/strict';
import * as wasmhooks from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { HOW_TO_INSTALL, haveRedis, startRedis } from '../store/redis-server.ts';
import { get, rawRequest } from './raw-http.ts';
import { makeHost, postJson, readEvents, writingHost } from './red6-helpers.ts';

const runtime = runtimeName();

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: a reconnect with an unknown or old Last-Event-ID reads what its client can take from Redis, not the whole window`]: async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    const opened = await wasmhooks.openStore({ kind: 'redis', url: redis.url, replayWindow: 3000 });
    const { default: Redis } = await import('ioredis');
    const probe = new Redis(redis.url);
    try {
      const log = opened.eventLog!;
      const ids: string[] = [];
      log.subscribe((entry) => ids.push(entry.id));
      // 3000 events of 2 KB: a 6 MB window.
      for (let i = 0; i < 3000; i++) log.append({ type: 'session.created', time: i, sessionId: `s${i}`, title: 'x'.repeat(2000) } as never);
      await log.drain();
      for (let i = 0; i < 300 && ids.length < 3000; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(ids.length, 3000);
      const sent = async () => Number(/total_net_output_bytes:(\d+)/.exec(await probe.info('stats'))?.[1]);
      const server = createServer(makeHost(), { port: 0, store: opened.store, eventLog: log, clientQueueBytes: 64 * 1024 });
      const { port } = await server.listen();
      try {
        for (const lastId of ['zzzz.1', `${log.epoch}.99999999999999-0`, ids[0] as string]) {
          const before = await sent();
          const res = await rawRequest(port, get('/global/event', ['Host: 127.0.0.1', 'Accept: text/event-stream', `Last-Event-ID: ${lastId}`]), 1500);
          const read = (await sent()) - before;
          assert.equal(res.status, 200, res.head);
          // Before: the whole window (6 MB) per reconnect; now about what fits the client's 64 KiB.
          assert.ok(read < 512 * 1024, `${lastId}: Redis sent ${read} bytes for one reconnect`);
          const gaps = [...res.body.matchAll(/"type":"replay\.gap"[^\n]*"reason":"([a-z-]+)"/g)].map((m) => m[1]);
          // An old id: one over-limit gap (the log's cut and the client's are one); an unknown one: unknown-id, then over-limit
          // when the frames (larger than the events' texts the log counted) did not all fit, as before.
          if (lastId === ids[0]) assert.deepEqual(gaps, ['over-limit'], res.body.slice(0, 500));
          else assert.deepEqual(gaps.filter((g, i) => i === 0 || g !== 'over-limit'), ['unknown-id'], res.body.slice(0, 500));
          // The newest events are the ones replayed.
          assert.ok(res.body.includes(`id: ${ids.at(-1)}`), 'the newest event was replayed');
        }
      } finally {
        await server.close();
      }
    } finally {
      probe.disconnect();
      await opened.close();
      await redis.dispose();
    }
  },

  [`${runtime}: the permission bridge across three Redis replicas: racing answers settle once, another session's URL, a replay and a wrong subtype are refused`]: async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    const stores = await Promise.all([0, 1, 2].map(() => wasmhooks.openStore({ kind: 'redis', url: redis.url })));
    const servers = stores.map((o, i) => createServer(writingHost(), { port: 0, store: o.store, eventLog: o.eventLog!, replica: `r${i}` }));
    try {
      const [a, b, c] = await Promise.all(servers.map((s) => s.listen()));
      await Promise.all(servers.map((s) => s.ready));
      const id = (await postJson(`${a!.url}/session`, {})).json.id as string;
      const other = (await postJson(`${b!.url}/session`, {})).json.id as string;
      const verdicts: Record<string, unknown>[] = [];
      let requestID = '';
      const stream = await fetch(`${c!.url}/event?session=${id}`);
      const reading = readEvents<Record<string, unknown>>(
        stream,
        (e) => e.type === 'agent.end',
        async (e) => {
          if (e.type !== 'control.request') return;
          requestID = e.id as string;
          const answer = (behavior: string) => ({ requestID, subtype: 'can_use_tool', response: behavior === 'allow' ? { behavior } : { behavior, message: 'no' } });
          // Another session's URL and a wrong subtype first: refused, the request stays pending.
          const cross = await postJson(`${b!.url}/session/${other}/control-response`, answer('allow'));
          assert.deepEqual(cross.json, { resolved: false, reason: 'not-pending' }, JSON.stringify(cross));
          const subtype = await postJson(`${c!.url}/session/${id}/control-response`, { requestID, subtype: 'elicitation', response: { action: 'decline' } });
          assert.equal(subtype.json.resolved, false, JSON.stringify(subtype));
          // Three answers at once, through each replica: one settles it.
          const raced = await Promise.all([
            postJson(`${a!.url}/session/${id}/control-response`, answer('deny')),
            postJson(`${b!.url}/session/${id}/control-response`, answer('allow')),
            postJson(`${c!.url}/session/${id}/control-response`, answer('deny')),
          ]);
          verdicts.push(...raced.map((r) => r.json));
        },
      );
      assert.equal((await postJson(`${a!.url}/session/${id}/prompt`, { prompt: 'write it' })).status, 202);
      const events = await reading;
      assert.equal(verdicts.filter((v) => v.resolved === true).length, 1, JSON.stringify(verdicts));
      for (const v of verdicts) if (v.resolved !== true) assert.equal(v.reason, 'not-pending', JSON.stringify(verdicts));
      // The winner decided: allow ran the tool, deny refused it.
      const winner = [0, 1, 2].find((i) => verdicts[i]?.resolved === true)!;
      const ran = events.some((e) => e.type === 'tool.output');
      assert.equal(ran, winner === 1, `winner ${winner}: ${events.map((e) => e.type).join(', ')}`);
      // A replay of the winning answer, through any replica, settles nothing.
      for (const server of [a!, b!, c!]) {
        const again = await postJson(`${server.url}/session/${id}/control-response`, { requestID, subtype: 'can_use_tool', response: { behavior: 'allow' } });
        assert.deepEqual(again.json, { resolved: false, reason: 'not-pending' });
      }
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      await Promise.all(stores.map((s) => s.close()));
      await redis.dispose();
    }
  },
};
