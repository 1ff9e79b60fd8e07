// rv15 (review of fix3): what a prompt on a shared store publishes while its lease is not known to be held
// (host/sessions/lease-gate.ts). Shared by vitest (test/store/rv15.test.ts) and test/xrt/rv15.xrt.ts.
//
// The server's replica is cut off from the store (its renewals hang) for several lease periods. With `takeOver`,
// another replica claims the prompt as an orphan and acquires the session meanwhile: before, the cut-off prompt went
// on publishing its deltas into the shared event stream for as long as its renewals hung (and its end after the
// other replica's), two replicas' prompts in one session's stream. Without, nobody takes it: every event is
// published once the store answers, in order, one agent.end, the grammar holds.
import assert from 'node:assert/strict';
import type { SessionStore } from '../../host/store/types.js';
import { interceptStore } from './intercept.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LEASE_MS = 150;

interface Deps {
  createHost: (options: { model: never }) => unknown;
  createServer: (host: never, options: { store: SessionStore; leaseMs: number; replica: string }) => {
    app: { request(path: string, init?: RequestInit): Response | Promise<Response> };
    close(): Promise<void>;
  };
  eventGrammarViolations: (events: unknown[], options: { span: 'prompt' }) => unknown[];
}

interface Seen {
  type: string;
  seq: number;
  at: number;
  text?: string;
}

async function collect(res: Response, into: Seen[], stop: AbortSignal): Promise<void> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  stop.addEventListener('abort', () => void reader.cancel().catch(() => {}));
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
    if (done) return;
    buffer += value;
    let at: number;
    while ((at = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer.slice(0, at).split('\n').find((l) => l.startsWith('data: '));
      buffer = buffer.slice(at + 2);
      if (data) into.push({ ...(JSON.parse(data.slice(6)) as Seen), at: Date.now() });
    }
  }
}

export async function cutOffPrompt(deps: Deps, inner: SessionStore, takeOver: boolean): Promise<void> {
  let stall = false;
  // A store other processes share (as Redis): the prompt's lease is what keeps them out.
  const store = interceptStore(
    inner,
    ['renew'],
    (renew) => async (...a) => {
      while (stall) await sleep(5);
      return renew(...a);
    },
    { shared: true },
  );
  let yielded = 0;
  let finish = false;
  const model = {
    id: 'ticking',
    async *stream(request: { signal?: AbortSignal }) {
      yield { type: 'message.start', model: 'ticking' } as const;
      for (let i = 0; i < 400 && !finish && !request.signal?.aborted; i++) {
        yielded++;
        yield { type: 'text.delta', text: `${i} ` } as const;
        await sleep(10);
      }
      yield { type: 'message.end', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 } } as const;
    },
  };
  const server = deps.createServer(deps.createHost({ model: model as never }) as never, { store, leaseMs: LEASE_MS, replica: 'A' });
  const post = (path: string, body: unknown) =>
    server.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const seen: Seen[] = [];
  const stop = new AbortController();
  try {
    const id = ((await (await post('/session', {})).json()) as { id: string }).id;
    const reading = collect(await server.app.request(`/event?session=${id}`), seen, stop.signal);
    assert.equal((await post(`/session/${id}/prompt`, { prompt: 'go' })).status, 202);
    for (let i = 0; i < 300 && !seen.some((e) => e.type === 'text.delta'); i++) await sleep(10);
    stall = true;
    await sleep(4 * LEASE_MS);
    let tookOver = Number.POSITIVE_INFINITY;
    if (takeOver) {
      // Replica B: the prompt's lease expired, so it reports it interrupted and runs the next prompt.
      assert.equal(await inner.claimOrphan(id, 'A'), true);
      assert.ok((await inner.acquire(id, 'B', 60_000)) !== false);
      tookOver = Date.now();
      await sleep(3 * LEASE_MS);
    }
    stall = false;
    await sleep(2 * LEASE_MS);
    finish = true;
    const mine = () => seen.filter((e) => e.type === 'text.delta' || e.type === 'agent.end');
    for (let i = 0; i < 300 && !takeOver && !seen.some((e) => e.type === 'agent.end'); i++) await sleep(10);
    if (takeOver) {
      const late = mine().filter((e) => e.at >= tookOver);
      assert.deepEqual(late.map((e) => `${e.type} ${e.text ?? ''}`), [], 'nothing of the taken-over prompt reaches the stream after the take-over');
      // And the cut-off prompt stopped (aborted) once the store said so.
      const at = yielded;
      await sleep(3 * LEASE_MS);
      assert.equal(yielded, at, 'the model is no longer read');
      assert.equal((await inner.get(id))?.running, 'B', 'the other replica still holds the session');
    } else {
      const deltas = seen.filter((e) => e.type === 'text.delta');
      assert.equal(deltas.length, yielded, 'every delta was published once the store answered');
      assert.deepEqual(deltas.map((e) => e.text), deltas.map((_, i) => `${i} `));
      assert.equal(seen.filter((e) => e.type === 'agent.end').length, 1);
      const prompt = seen.filter((e) => e.type !== 'session.created' && (e as { sessionId?: string }).sessionId !== undefined);
      assert.deepEqual(deps.eventGrammarViolations(prompt.map(({ at: _, ...e }) => e), { span: 'prompt' }), []);
      let record = await inner.get(id);
      for (let i = 0; i < 300 && (record?.running !== undefined || !record?.lastResult); i++) record = (await sleep(10), await inner.get(id));
      assert.equal(record?.lastResult?.subtype, 'success');
    }
    void reading;
  } finally {
    finish = true;
    stop.abort();
    await server.close();
  }
}
