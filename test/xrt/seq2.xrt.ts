// seq2 on Node, Deno and Bun against the build: a session's `seq` and prompt numbers only grow
// across a prompt that never ended (a data directory reopened mid-prompt, as after the process
// died; a replica whose lease was lost) and a manual compact(); a writer whose lease was lost
// never moves the stored session back.
import assert from 'node:assert/strict';
import { createHost, eventGrammarViolations, openStore, scriptedModel } from '../../dist/index.js';
import type { HostEvent } from '../../dist/index.js';
import { createServer } from '../../dist/server.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) if (await check()) return;
  else await sleep(10);
  throw new Error(`not in time: ${what}`);
}
const increasing = (events: readonly HostEvent[]) => events.every((e, i) => i === 0 || e.seq > events[i - 1]!.seq);

/** Streams a few words, then waits for `gate` before it ends its message. */
function hangingModel(gate: Promise<void>) {
  return {
    id: 'hanging',
    async *stream() {
      yield { type: 'message.start', model: 'hanging' } as const;
      for (const w of ['one ', 'two ', 'three']) yield { type: 'text.delta', text: w } as const;
      await gate;
      yield { type: 'message.end', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 3 } } as const;
    },
  };
}

const post = (server: ReturnType<typeof createServer>, path: string, body: unknown) =>
  server.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export const scenarios: Record<string, () => Promise<void>> = {
  'a data directory reopened mid-prompt: the next prompt counts on past every seq the cut-off one used': async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wasmhooks-seq2-'));
    try {
      const first = await openStore({ kind: 'file', dataDir });
      await first.store.create({ id: 's1', createdAt: Date.now(), prompts: 0, options: {} });
      const cut = await createHost({ model: hangingModel(new Promise(() => {})) as never, store: first.store }).resume('s1');
      const seen: HostEvent[] = [];
      cut.subscribe((e) => {
        seen.push(e);
      });
      void cut.prompt('go');
      await until(() => seen.filter((e) => e.type === 'text.delta').length === 3, 'three deltas');
      await sleep(100); // the moments a running process has before it dies
      await first.close();
      const again = await openStore({ kind: 'file', dataDir });
      try {
        const next = await createHost({ model: scriptedModel([{ text: 'hi' }]), store: again.store }).resume('s1');
        const events: HostEvent[] = [];
        for await (const e of next.stream('again')) events.push(e);
        assert.equal((events[0] as { turn?: number }).turn, 2);
        assert.ok(increasing([...seen, ...events]), [...seen, ...events].map((e) => e.seq).join(','));
        assert.deepEqual(eventGrammarViolations(events), []);
        await until(async () => !('open' in ((await again.store.get('s1'))?.resumeAt ?? {})), 'the exact count at the end');
        assert.deepEqual((await again.store.get('s1'))?.resumeAt, { seq: events.at(-1)!.seq, turn: 2 });
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  'a replica whose lease was lost writes neither its conversation nor its counters over the newer prompt': async () => {
    const { store } = await openStore({ kind: 'memory' });
    Object.defineProperty(store, 'shared', { value: true });
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const a = createServer(createHost({ model: hangingModel(gate) as never }), { store, replica: 'a', leaseMs: 300 });
    const b = createServer(createHost({ model: scriptedModel([{ text: 'hi' }]) }), { store, replica: 'b', leaseMs: 300 });
    try {
      const id = ((await (await post(a, '/session', {})).json()) as { id: string }).id;
      assert.equal((await post(a, `/session/${id}/prompt`, { prompt: 'go' })).status, 202);
      await until(async () => (await store.get(id))?.running === 'a', 'A runs');
      await sleep(100);
      await store.release(id, 'a'); // A's lease is lost
      assert.equal((await post(b, `/session/${id}/prompt`, { prompt: 'again' })).status, 202);
      await until(async () => (await store.get(id))?.lastResult?.text === 'hi' && (await store.get(id))?.running === undefined, 'B ends');
      const after = await store.get(id);
      assert.equal(after?.resumeAt?.turn, 2);
      const conversation = await store.messages(id);
      open();
      await a.close();
      assert.deepEqual((await store.get(id))?.resumeAt, after?.resumeAt);
      assert.deepEqual(await store.messages(id), conversation);
    } finally {
      open();
      await Promise.all([a.close(), b.close()]);
    }
  },
  'a manual compact() between prompts is counted into resumeAt': async () => {
    const { store } = await openStore({ kind: 'memory' });
    await store.create({ id: 'c1', createdAt: Date.now(), prompts: 0, options: {} });
    const model = scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] });
    const one = await createHost({ model, store }).resume('c1');
    const events: HostEvent[] = [];
    one.subscribe((e) => {
      events.push(e);
    });
    await one.prompt('go');
    await one.compact();
    await until(async () => (await store.get('c1'))?.resumeAt?.seq === events.at(-1)!.seq, 'the compaction counted');
    const two = await createHost({ model, store }).resume('c1');
    for await (const e of two.stream('more')) events.push(e);
    assert.deepEqual(eventGrammarViolations(events, { span: 'session' }), []);
  },
};
