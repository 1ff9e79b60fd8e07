// A prompt whose reservation the store refuses does not run. A prompt is counted (under its lease, with its
// fencing token), then its `resumeAt` reservation is stored with the same token; a session deleted between
// the two (by another replica: DELETE does not take the lease) refused the reservation, and the prompt was
// accepted (202) and ran anyway: UserPromptSubmit fired and the model was called (its tools would run) for a
// session that no longer existed, its events dropped unseen (the lease gate lost), until the next renewal
// noticed. Now the POST is 404 and nothing runs. Written against an Api and a store (host/ under vitest:
// reserve-refused.test.ts; dist/ on Node, Deno and Bun, on a real Redis: test/xrt/reserve-refused.xrt.ts).
// `other`: a second connection to the same store, the other replica's (the same object for a memory store).
import type { createHost as CreateHost, scriptedModel as ScriptedModel } from '../../host/index.js';
import type { createServer as CreateServer } from '../../host/server/index.js';
import type { SessionStore } from '../../host/store/types.js';

export interface ReserveApi {
  createHost: typeof CreateHost;
  scriptedModel: typeof ScriptedModel;
  createServer: typeof CreateServer;
}

export async function deletedBeforeReservation(api: ReserveApi, store: SessionStore, other: SessionStore): Promise<string[]> {
  const problems: string[] = [];
  const ran: string[] = [];
  let armed = '';
  // The store as the server sees it: the other replica's DELETE lands right after this prompt is counted.
  const update: SessionStore['update'] = async (id, patch, fence) => {
    const stored = await store.update(id, patch, fence);
    if (id === armed && patch.prompts !== undefined) {
      armed = '';
      await other.delete(id);
    }
    return stored;
  };
  // Every other call goes to the store itself (its methods read private fields).
  const seen = new Proxy(store, {
    get(target, key) {
      if (key === 'update') return update;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const host = api.createHost({
    model: api.scriptedModel({ rules: [{ when: () => (ran.push('model'), true), reply: { text: 'fine' } }] }),
    hooks: { UserPromptSubmit: [{ hooks: [async () => (ran.push('UserPromptSubmit'), {})] }] },
  });
  const server = api.createServer(host, { store: seen, replica: 'one', leaseMs: 3000 });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await server.app.request(path, body === undefined ? { method } : { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  try {
    const id = (await call('POST', '/session', {})).json.id as string;
    armed = id;
    const posted = await call('POST', `/session/${id}/prompt`, { prompt: 'hello' });
    if (posted.status !== 404) problems.push(`the prompt of a session deleted before its reservation: ${posted.status} ${JSON.stringify(posted.json)}`);
    await new Promise((r) => setTimeout(r, 200));
    if (ran.length > 0) problems.push(`ran for a deleted session: ${ran.join(', ')}`);
    if ((await call('GET', `/session/${id}`)).status !== 404) problems.push('the session is still there');
  } finally {
    await server.close();
  }
  return problems;
}
