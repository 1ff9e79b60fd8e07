// rv10's review of conf2 on Node, Deno and Bun against the build: a session resumed from a store
// whose `resumeAt` is tampered (null, a string, huge, fractional) neither throws a TypeError nor
// repeats a `seq`; and the public grammar checker gives typed errors or violations for lists that
// are not event streams, never a TypeError.
import assert from 'node:assert/strict';
import { createHost, eventGrammarViolations, openStore, scriptedModel, WasmhooksError } from '../../dist/index.js';
import type { HostEvent } from '../../dist/index.js';
import { createServer } from '../../dist/server.js';
import { readEvents } from './red6-helpers.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A session record with `resumeAt` as a tampered store (a Redis hash field, a data-directory file) may hold it. */
async function resumed(resumeAt: unknown): Promise<HostEvent[]> {
  const { store } = await openStore({ kind: 'memory' });
  await store.create({ id: 's1', createdAt: Date.now(), prompts: 1, options: {} });
  await store.update('s1', { resumeAt: resumeAt as never });
  const host = createHost({ model: scriptedModel([{ text: 'hi' }]), store });
  const session = await host.resume('s1');
  const events: HostEvent[] = [];
  for await (const e of session.stream('go')) events.push(e);
  return events;
}

export const scenarios: Record<string, () => Promise<void>> = {
  'a tampered resumeAt (null, a string, an array, negative, fractional) is ignored: the session counts from 1': async () => {
    for (const bad of [null, 'x', [], { seq: -1, turn: 0 }, { seq: 1.5, turn: 0 }, { seq: Number.NaN, turn: 0 }]) {
      const events = await resumed(bad);
      assert.equal(events[0]?.seq, 1, JSON.stringify(bad));
      assert.deepEqual(eventGrammarViolations(events), [], JSON.stringify(bad));
    }
  },
  'a huge resumeAt never makes seq stop increasing (no two events share a seq)': async () => {
    for (const seq of [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 3, 2 ** 60]) {
      const events = await resumed({ seq, turn: seq });
      const seqs = events.map((e) => e.seq);
      assert.equal(new Set(seqs).size, seqs.length, `resumeAt.seq ${seq}: ${seqs.slice(0, 3).join(',')}`);
      assert.ok(seqs.every((s) => Number.isSafeInteger(s)), `resumeAt.seq ${seq}: unsafe seq ${seqs[0]}`);
      assert.deepEqual(eventGrammarViolations(events), []);
    }
    const host = createHost({ model: scriptedModel([{ text: 'hi' }]) });
    await assert.rejects(async () => host.session({ resumeAt: { seq: Number.MAX_SAFE_INTEGER, turn: 0 } }), (e: unknown) => e instanceof WasmhooksError && e.code === 'INVALID_OPTIONS');
  },
  'a data directory written before resumeAt existed (or with it damaged) loads; an intact one counts on': async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wh-rv10-'));
    try {
      const run = async () => {
        const { store, close } = await openStore({ kind: 'file', dataDir: dir });
        try {
          if (!(await store.get('old'))) await store.create({ id: 'old', createdAt: 1, prompts: 0, options: {} });
          const session = await createHost({ model: scriptedModel([{ text: 'hi' }]), store }).resume('old');
          const events: HostEvent[] = [];
          for await (const e of session.stream('go')) events.push(e);
          await new Promise((r) => setTimeout(r, 20));
          return events;
        } finally {
          await close?.();
        }
      };
      const first = await run();
      const file = join(dir, 'sessions', 'old.json');
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { resumeAt?: unknown };
      assert.deepEqual(saved.resumeAt, { seq: first.at(-1)?.seq, turn: 1 });
      const second = await run();
      assert.deepEqual([second[0]?.seq, (second[0] as { turn?: number }).turn], [(first.at(-1)?.seq ?? 0) + 1, 2]);
      for (const damaged of [undefined, 'x', null, { seq: 2 ** 60, turn: 1 }]) {
        const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        if (damaged === undefined) delete record.resumeAt;
        else record.resumeAt = damaged;
        writeFileSync(file, JSON.stringify(record));
        const again = await run();
        assert.equal(again[0]?.seq, 1, JSON.stringify(damaged));
        assert.deepEqual(eventGrammarViolations(again), []);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  'a sane resumeAt still counts on': async () => {
    const events = await resumed({ seq: 41, turn: 3 });
    assert.equal(events[0]?.seq, 42);
    assert.equal((events.find((e) => e.type === 'agent.start') as { turn?: number } | undefined)?.turn, 4);
  },
  'a prompt counts on from the record under its lease, not the copy read before it (another replica ended a prompt between)': async () => {
    const { store } = await openStore({ kind: 'memory' });
    Object.defineProperty(store, 'shared', { value: true });
    const server = createServer(createHost({ model: scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] }) }), { store });
    try {
      const created = await server.app.request('/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      const id = ((await created.json()) as { id: string }).id;
      const acquire = store.acquire.bind(store);
      store.acquire = async (...args: Parameters<typeof store.acquire>) => {
        await store.update(id, { resumeAt: { seq: 500, turn: 7 }, prompts: 8 });
        return acquire(...args);
      };
      const res = await server.app.request(`/event?session=${id}`);
      const reading = readEvents<{ type?: string; seq?: number; turn?: number }>(res, (e) => e.type === 'agent.end');
      const posted = await server.app.request(`/session/${id}/prompt`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'go' }) });
      assert.equal(posted.status, 202);
      const start = (await reading).find((e) => e.type === 'agent.start');
      assert.deepEqual([start?.seq, start?.turn], [501, 8]);
      for (let i = 0; i < 100 && (await store.get(id))?.running !== undefined; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal((await store.get(id))?.prompts, 9);
    } finally {
      await server.close();
    }
  },
  'eventGrammarViolations on hostile input: typed errors for what is no list, violations for entries that are no events': async () => {
    for (const notList of [undefined, null, 5, { length: 1, 0: {} }]) {
      assert.throws(() => eventGrammarViolations(notList as never), (e: unknown) => e instanceof WasmhooksError && e.code === 'INVALID_OPTIONS', String(notList));
    }
    assert.throws(() => eventGrammarViolations([], { span: 'everything' } as never), (e: unknown) => e instanceof WasmhooksError && e.code === 'INVALID_OPTIONS');
    const start = { type: 'agent.start', seq: 1, sessionId: 's', turn: 1, prompt: 'go' };
    const hostile: unknown[] = [null, 7, 'agent.start', [], { type: Symbol('x') }, { type: 'agent.start', sessionId: Symbol('s') }, { type: 'text.delta', seq: Symbol('q') },
      Object.create(null), { __proto__: { type: 'agent.start' } }, { get type(): string { throw new Error('no type'); } }, { type: 'hook.start', seq: 2, sessionId: 's', event: Symbol('e'), hookId: Symbol('h') }];
    for (const entry of hostile) {
      const v = eventGrammarViolations([start, entry] as never);
      assert.ok(v.some((x) => x.index === 1), `${String(typeof entry)}: ${JSON.stringify(v)}`);
    }
  },
  'a model stream of many tool calls then a duplicate id: BAD_STREAM, every call denied, in linear time': async () => {
    const n = 40_000;
    const model = {
      id: 'many',
      async *stream() {
        yield { type: 'message.start', model: 'many' } as const;
        for (let i = 0; i < n; i++) yield { type: 'tool.call', id: `c${i}`, name: 'Look', input: {} } as const;
        yield { type: 'tool.call', id: 'c0', name: 'Look', input: {} } as const;
      },
    };
    const session = createHost({ model: model as never, permissionMode: 'bypassPermissions' }).session();
    const t0 = performance.now();
    const events: HostEvent[] = [];
    for await (const e of session.stream('go')) events.push(e);
    const ms = performance.now() - t0;
    // A scan of the calls per call was ~8 s here for 40k calls on Node (quadratic); a Set is well under 1 s.
    assert.ok(ms < 4_000, `${n} calls took ${ms.toFixed(0)} ms`);
    assert.equal(events.filter((e) => e.type === 'tool.denied' && e.source === 'model-error').length, n);
    assert.ok(events.some((e) => e.type === 'error' && e.code === 'BAD_STREAM'));
    assert.deepEqual(eventGrammarViolations(events), []);
  },
  'eventGrammarViolations stays linear on a long stream': async () => {
    const events: unknown[] = [{ type: 'agent.start', seq: 1, sessionId: 's', turn: 1, prompt: 'go' }];
    for (let i = 0; i < 200_000; i++) events.push({ type: 'text.delta', seq: i + 2, sessionId: 's', text: 'x' });
    const t0 = performance.now();
    const v = eventGrammarViolations(events as never);
    const ms = performance.now() - t0;
    assert.ok(v.length > 0 && ms < 5_000, `${v.length} violations in ${ms.toFixed(0)} ms`);
  },
};
