// seq2: a session's `seq` (and its prompt numbering) only grows, across prompts that never ended
// (a process gone mid-prompt, a lease lost), restarts and replicas, and a writer whose lease was lost
// never moves the stored session back. The record's `resumeAt` is a reservation while a prompt runs
// (host/store/resume-at.ts). Each test here fails without it: the next prompt repeated the seqs the
// cut-off one had used, and a stale writer's end overwrote the newer record and appended to its conversation.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost, eventGrammarViolations, scriptedModel } from '../../host/index.js';
import type { HostEvent } from '../../host/events/types.js';
import { createServer } from '../../host/server/app.js';
import { MemorySessionStore } from '../../host/store/memory.js';
import { openStore } from '../../host/store/open.js';
import { hangingModel, monotonic } from './seq-helpers.js';
import { call, until } from '../server/helpers.js';

/** Lets the store writes in flight land. */
const settle = () => new Promise((r) => setTimeout(r, 100));
const increasing = (events: readonly HostEvent[]) => events.every((e, i) => i === 0 || e.seq > events[i - 1]!.seq);

describe('seq across a prompt that never ended', () => {
  it('a data directory reopened mid-prompt (the process gone): the next prompt counts on past every seq the cut-off one used', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wasmhooks-seq2-'));
    const first = await openStore({ kind: 'file', dataDir });
    await first.store.create({ id: 's1', createdAt: Date.now(), prompts: 0, options: {} });
    const cut = await createHost({ model: hangingModel(new Promise(() => {})), store: first.store }).resume('s1');
    const seen: HostEvent[] = [];
    cut.subscribe((e) => {
      seen.push(e);
    });
    void cut.prompt('go');
    await until(() => seen.filter((e) => e.type === 'text.delta').length === 3);
    // The moments a running process has: a library session's reservation is written as its prompt starts
    // (a server's before it starts, under the lease).
    await settle();
    await first.close(); // the process is gone: nothing more of it reaches the directory

    const again = await openStore({ kind: 'file', dataDir });
    try {
      const next = await createHost({ model: scriptedModel([{ text: 'hi' }]), store: again.store }).resume('s1');
      const events: HostEvent[] = [];
      for await (const e of next.stream('again')) events.push(e);
      expect(events[0]).toMatchObject({ type: 'agent.start', turn: 2 });
      expect(increasing([...seen, ...events])).toBe(true);
      expect(eventGrammarViolations(events)).toEqual([]);
      // Its end stores the exact count (the reservation is gone): no jump after a prompt that ended.
      await until(async () => (await again.store.get('s1'))?.resumeAt?.open === undefined);
      expect((await again.store.get('s1'))?.resumeAt).toEqual({ seq: events.at(-1)!.seq, turn: 2 });
    } finally {
      await again.close();
    }
  });

  it('a manual compact() between prompts is counted: a session resumed after it goes on from its last event', async () => {
    const store = new MemorySessionStore();
    await store.create({ id: 'c1', createdAt: Date.now(), prompts: 0, options: {} });
    const model = scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] });
    const one = await createHost({ model, store }).resume('c1');
    const events: HostEvent[] = [];
    one.subscribe((e) => {
      events.push(e);
    });
    await one.prompt('go');
    await one.compact();
    expect(events.some((e) => e.type === 'context.compacted')).toBe(true);
    await settle();
    const two = await createHost({ model, store }).resume('c1');
    for await (const e of two.stream('more')) events.push(e);
    expect(eventGrammarViolations(events, { span: 'session' })).toEqual([]);
  });
});

describe('a prompt whose lease was lost (two replicas on one shared store)', () => {
  it('writes neither its conversation nor its counters over the newer prompt the other replica ran', async () => {
    const store = new MemorySessionStore();
    Object.defineProperty(store, 'shared', { value: true });
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const a = createServer(createHost({ model: hangingModel(gate) }), { store, replica: 'a', leaseMs: 300 });
    const b = createServer(createHost({ model: scriptedModel([{ text: 'hi' }]) }), { store, replica: 'b', leaseMs: 300 });
    try {
      const id = (await call(a, 'POST', '/session', {})).json.id as string;
      expect((await call(a, 'POST', `/session/${id}/prompt`, { prompt: 'go' })).status).toBe(202);
      await until(async () => (await store.get(id))?.running === 'a');
      await settle();
      // A's lease is lost (as when it was cut off for a lease period and B's sweep reported the prompt interrupted).
      await store.release(id, 'a');
      expect((await call(b, 'POST', `/session/${id}/prompt`, { prompt: 'again' })).status).toBe(202);
      await until(async () => (await store.get(id))?.lastResult?.text === 'hi' && (await store.get(id))?.running === undefined);
      const after = await store.get(id);
      expect(after?.resumeAt).toMatchObject({ turn: 2 });
      expect(after?.resumeAt?.open).toBeUndefined();
      const conversation = await store.messages(id);
      // A ends late (its model answers now; it has noticed the lost lease and aborted, or ends): nothing of it lands.
      open();
      await a.close();
      expect((await store.get(id))?.resumeAt).toEqual(after?.resumeAt);
      expect((await store.get(id))?.lastResult?.text).toBe('hi');
      expect(await store.messages(id)).toEqual(conversation);
    } finally {
      open();
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('resumeAt never moves back', () => {
  it('memory', () => monotonic(new MemorySessionStore()));
  it('data directory', async () => {
    const opened = await openStore({ kind: 'file', dataDir: mkdtempSync(join(tmpdir(), 'wasmhooks-seq2-')) });
    try {
      await monotonic(opened.store);
    } finally {
      await opened.close();
    }
  });
});
