/**
 * Row group 7: durable sessions. (1) SSE fan-out to 200 clients when events
 * go through Redis (XADD, then every replica's XREAD) against the in-memory
 * hub, same server otherwise, same run: events/s and p99 publish→delivery.
 * Target: Redis keeps at least half the in-memory throughput. (2) What
 * persistence adds to one agent-loop iteration (model turn + 1 tool):
 * the data-directory store (JSONL appends, fsync at the end of the prompt)
 * against the memory store. Needs redis-server for (1); Node only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createHost, openStore, scriptedModel, tool, type OpenedStore } from '../../host/index.js';
import { createServer } from '../../host/entries/server.js';
import { haveRedis, HOW_TO_INSTALL, startRedis } from '../../test/store/redis-server.js';
import { compare, runtimeName } from '../harness.js';
import { PER_PROMPT, TOOL_TURN } from './bus.js';
import { makeRow, type Row, type RowsFn } from './row.js';
import { CLIENTS, RATE, fanOut, type Result } from './sse.js';

async function through(opened: OpenedStore | undefined, events: number, rate?: number): Promise<Result> {
  const host = createHost({ model: scriptedModel({ turns: [{ text: 'hi' }] }) });
  const server = createServer(host, {
    port: 0,
    replayBufferSize: events + 10,
    clientQueueLimit: events + 10,
    ...(opened ? { store: opened.store, ...(opened.eventLog ? { eventLog: opened.eventLog } : {}) } : {}),
  });
  const { url } = await server.listen();
  try {
    return await fanOut(`${url}/event`, (e) => server.hub.publish(e), events, rate);
  } finally {
    await server.close();
  }
}

async function sseRows(quick: boolean, runtime: string): Promise<Row[]> {
  if (!haveRedis()) {
    console.error(`bench store: skipping the Redis rows: ${HOW_TO_INSTALL}`);
    return [];
  }
  const redis = await startRedis({ persist: false });
  const events = quick ? 200 : 500;
  const paced = quick ? 50 : 150;
  try {
    const viaRedis = async (n: number, rate?: number) => {
      const opened = await openStore({ kind: 'redis', url: redis.url, replayWindow: n + 10 });
      try {
        return await through(opened, n, rate);
      } finally {
        await opened.close();
      }
    };
    const m1 = await through(undefined, events);
    const r1 = await viaRedis(events);
    const m2 = quick ? m1 : await through(undefined, events);
    const r2 = quick ? r1 : await viaRedis(events);
    const mPaced = await through(undefined, paced, RATE);
    const rPaced = await viaRedis(paced, RATE);
    const best = (x: Result, y: Result) => (x.seconds <= y.seconds ? x : y);
    const [m, r] = [best(m1, m2), best(r1, r2)];
    return [
      makeRow('store', runtime, {
        what: `SSE events/s to ${CLIENTS} clients through Redis Streams (${events} events, best of ${quick ? 1 : 2})`,
        ours: { value: events / r.seconds, unit: 'events/s' },
        anchorName: 'in-memory hub, same server',
        anchor: { value: events / m.seconds, unit: 'events/s' },
        target: { op: 'min', value: 0.5 },
        note: `events lost through Redis: ${r1.lost + r2.lost + rPaced.lost}; ratio = Redis / memory`,
      }),
      makeRow('store', runtime, {
        what: `SSE p99 delivery latency through Redis at ${RATE} events/s to ${CLIENTS} clients`,
        ours: { value: rPaced.p99, unit: 'ms' },
        anchorName: 'in-memory hub',
        anchor: { value: mPaced.p99, unit: 'ms' },
        note: `p50 ${rPaced.p50.toFixed(2)} ms (memory ${mPaced.p50.toFixed(2)} ms); ${paced} events`,
      }),
    ];
  } finally {
    await redis.dispose();
  }
}

async function persistenceRow(quick: boolean, runtime: string): Promise<Row> {
  const echo = tool('Echo', 'Echo text', z.object({ text: z.string() }), ({ text }) => text);
  const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-bench-'));
  const file = await openStore({ kind: 'file', dataDir: dir });
  const memory = await openStore({ kind: 'memory' });
  const prompter = (opened: OpenedStore) => {
    const host = createHost({
      model: scriptedModel({ rules: [{ when: () => true, reply: TOOL_TURN }] }),
      tools: [echo],
      permissionMode: 'bypassPermissions',
      maxTurns: PER_PROMPT,
      store: opened.store,
    });
    return async () => {
      const session = host.session();
      const result = await session.prompt('go');
      if (result.subtype !== 'error_max_turns') throw new Error(`bench store: unexpected result ${result.subtype}`);
      // The prompt's writes (and its fsync) are part of the cost.
      await opened.store.sync(session.id);
      await opened.store.messages(session.id);
    };
  };
  try {
    const r = await compare({ memory: prompter(memory), file: prompter(file) }, { samples: quick ? 20 : 100, warmup: 5, maxMs: quick ? 3_000 : 15_000, rounds: 10 });
    const perIteration = (s: { median: number; p99: number }) => ({ value: s.median / PER_PROMPT, unit: 'µs', p99: s.p99 / PER_PROMPT });
    return makeRow('store', runtime, {
      what: 'loop iteration (model turn + 1 tool) with the data-directory store',
      ours: perIteration(r.file),
      anchorName: 'memory store',
      anchor: perIteration(r.memory),
      note: `persistence adds ${((r.file.median - r.memory.median) / PER_PROMPT).toFixed(1)} µs per iteration (JSONL append per turn, one fsync per prompt), wall clock`,
    });
  } finally {
    await file.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  return [...(await sseRows(quick, runtime)), await persistenceRow(quick, runtime)];
};
