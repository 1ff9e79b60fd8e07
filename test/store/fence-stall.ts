// A server prompt whose lease renewals answer late (a stalled process, a slow store) for several lease periods while
// nobody takes the session: it must go on and store its conversation and result (fix3). Before, the lapsed lease
// aborted it, its own sweep reported it interrupted, and its writes were dropped. Shared by vitest and test/xrt.
import assert from 'node:assert/strict';
import type { SessionStore } from '../../host/store/types.js';
import { interceptStore } from './intercept.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LEASE_MS = 150;

interface Deps {
  // Structural: the host's and dist's functions both fit.
  createHost: (options: { model: never }) => unknown;
  createServer: (host: never, options: { store: SessionStore; leaseMs: number }) => {
    app: { request(path: string, init?: RequestInit): Response | Promise<Response> };
    close(): Promise<void>;
  };
}

export async function stalledRenewals(inner: SessionStore, deps: Deps): Promise<void> {
  let stall = false;
  const store = interceptStore(inner, ['renew'], (renew) => async (...a) => {
    while (stall) await sleep(10);
    return renew(...a);
  });
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const model = {
    id: 'gated',
    async *stream() {
      yield { type: 'message.start', model: 'gated' } as const;
      yield { type: 'text.delta', text: 'hi' } as const;
      await gate;
      yield { type: 'message.end', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 } } as const;
    },
  };
  const server = deps.createServer(deps.createHost({ model: model as never }) as never, { store, leaseMs: LEASE_MS });
  const post = (path: string, body: unknown) =>
    server.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  try {
    const id = ((await (await post('/session', {})).json()) as { id: string }).id;
    assert.equal((await post(`/session/${id}/prompt`, { prompt: 'go' })).status, 202);
    for (let i = 0; i < 200 && (await inner.leaseOwner(id)) === undefined; i++) await sleep(10);
    stall = true;
    await sleep(5 * LEASE_MS); // the lease lapses; the server's own sweep runs meanwhile
    assert.equal(await inner.leaseOwner(id), undefined, 'the lease lapsed');
    stall = false;
    await sleep(2 * LEASE_MS);
    open();
    let record = await inner.get(id);
    for (let i = 0; i < 300 && (record?.running !== undefined || !record?.lastResult); i++) record = (await sleep(10), await inner.get(id));
    assert.equal(record?.lastResult?.subtype, 'success', JSON.stringify(record?.lastResult));
    assert.equal(record?.lastResult?.text, 'hi');
    assert.equal((await inner.messages(id)).length, 2);
  } finally {
    open();
    await server.close();
  }
}
