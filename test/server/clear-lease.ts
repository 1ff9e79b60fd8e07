// A clear holds the session's prompt lease while the old session ends, and renews it: SessionEnd hooks
// may run for their whole timeout (a minute by default), far past a lease. Before the fix the lease was
// taken and never renewed, so with SessionEnd still running on the clearing replica the other one's
// sweep took the session as an orphan: it published `prompt.interrupted` for a prompt that never ran
// (naming a replica that was alive) and let the next prompt start while the old session was still
// being ended. Written against an Api on a shared store (host/ under vitest: clear-lease.test.ts; dist/
// on Node, Deno and Bun, on a real Redis: test/xrt/clear-lease.xrt.ts). Returns what is wrong.
import type { createHost as CreateHost, HookInput, scriptedModel as ScriptedModel } from '../../host/index.js';
import type { createServer as CreateServer } from '../../host/server/index.js';
import type { SessionStore } from '../../host/store/types.js';

export interface ClearLeaseApi {
  createHost: typeof CreateHost;
  scriptedModel: typeof ScriptedModel;
  createServer: typeof CreateServer;
}

type Server = ReturnType<typeof CreateServer>;

const LEASE_MS = 200;
/** The old session's SessionEnd: five leases (the next prompt waits up to 2 s for a release, so it then runs). */
const END_MS = 5 * LEASE_MS;

async function call(server: Server, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const init: RequestInit = body === undefined ? { method } : { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  const res = await server.app.request(path, init);
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function ended(server: Server, id: string, prompts: number): Promise<boolean> {
  for (let i = 0; i < 1000; i++) {
    const view = (await call(server, 'GET', `/session/${id}`)).json;
    if (view.running === false && view.prompts === prompts && view.lastResult) return true;
    await new Promise((r) => setTimeout(r, 5));
  }
  return false;
}

export async function clearKeepsItsLease(api: ClearLeaseApi, store: SessionStore): Promise<string[]> {
  const problems: string[] = [];
  const order: string[] = [];
  let slow = false;
  let old = '';
  const hooks = {
    SessionEnd: [
      {
        hooks: [
          async (input: HookInput) => {
            if (!slow || input.session_id !== old) return {};
            order.push('SessionEnd started');
            await new Promise((r) => setTimeout(r, END_MS));
            order.push('SessionEnd done');
            return {};
          },
        ],
      },
    ],
    UserPromptSubmit: [{ hooks: [async (input: HookInput) => (input.session_id === old && slow && order.push('next prompt started'), {})] }],
  };
  const host = () => api.createHost({ model: api.scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] }), hooks });
  const one = api.createServer(host(), { store, replica: 'one', leaseMs: LEASE_MS });
  const two = api.createServer(host(), { store, replica: 'two', leaseMs: LEASE_MS });
  const interrupted: unknown[] = [];
  for (const server of [one, two]) {
    const emit = server.hub.emit.bind(server.hub);
    server.hub.emit = ((type: string, data: unknown) => {
      if (type === 'prompt.interrupted') interrupted.push(data);
      return emit(type as never, data as never);
    }) as typeof emit;
  }
  try {
    old = (await call(one, 'POST', '/session', {})).json.id as string;
    if ((await call(one, 'POST', `/session/${old}/prompt`, { prompt: 'one' })).status !== 202 || !(await ended(one, old, 1))) problems.push('the first prompt did not run');
    slow = true;
    const clearing = call(two, 'POST', `/session/${old}/clear`, {});
    // Well into SessionEnd, past a lease and a sweep: the prompt waits for the clear's release, then runs.
    for (let i = 0; i < 200 && !order.includes('SessionEnd started'); i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 3 * LEASE_MS));
    const next = await call(one, 'POST', `/session/${old}/prompt`, { prompt: 'two' });
    const cleared = await clearing;
    if (cleared.status !== 201) problems.push(`clear: ${cleared.status} ${JSON.stringify(cleared.json)}`);
    if (next.status !== 202) problems.push(`the next prompt: ${next.status} ${JSON.stringify(next.json)}`);
    else if (!(await ended(one, old, 2))) problems.push('the next prompt did not end');
    if (order.join(' > ') !== 'SessionEnd started > SessionEnd done > next prompt started') problems.push(`order: ${order.join(' > ')}`);
    if (interrupted.length > 0) problems.push(`prompt.interrupted for a clear whose replica was alive: ${JSON.stringify(interrupted)}`);
    const last = (await call(one, 'GET', `/session/${old}`)).json.lastResult as { error?: { code?: string } } | undefined;
    if (last?.error?.code === 'INTERRUPTED') problems.push('the last result says INTERRUPTED');
  } finally {
    await one.close();
    await two.close();
  }
  return problems;
}
