// hk4: a client that posts the next prompt as soon as it sees agent.end got 409 while the ended prompt still
// stored its lastResult and released its lease. The next prompt now waits for that release (at most
// READY_WAIT_MS), on one process and on a shared store; a prompt still running is 409 at once as before.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { createHost, scriptedModel } from '../../host/index.js';
import { MemorySessionStore } from '../../host/store/memory.js';
import { call, readSse, until } from './helpers.js';

let server: WasmhooksServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A store whose lastResult write is slow: the window between agent.end and the release, made wide. */
function slowResultStore(shared: boolean): MemorySessionStore {
  const store = new MemorySessionStore();
  if (shared) Object.defineProperty(store, 'shared', { value: true });
  const update = store.update.bind(store);
  store.update = async (...args: Parameters<MemorySessionStore['update']>) => {
    if (args[1].lastResult) await new Promise((r) => setTimeout(r, 150));
    return update(...args);
  };
  return store;
}

describe('the next prompt, posted on agent.end', () => {
  for (const shared of [false, true]) {
    it(`is accepted (${shared ? 'a shared store' : 'one process'})`, async () => {
      const store = slowResultStore(shared);
      server = createServer(createHost({ model: scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] }) }), { store });
      const id = (await call(server, 'POST', '/session', {})).json.id as string;
      const res = await server.app.request(`/event?session=${id}`);
      const reading = readSse(res.body!, (m) => m.some((f) => JSON.parse(f.data).type === 'agent.end'), 10_000);
      expect((await call(server, 'POST', `/session/${id}/prompt`, { prompt: 'one' })).status).toBe(202);
      await reading;
      const next = await call(server, 'POST', `/session/${id}/prompt`, { prompt: 'two' });
      expect(next.status).toBe(202);
      await until(async () => (await store.get(id))?.prompts === 2 && !(await call(server!, 'GET', `/session/${id}`)).json.running);
      expect((await store.get(id))?.lastResult?.subtype).toBe('success');
    });
  }

  it('is still 409 at once while a prompt runs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const model = scriptedModel({ rules: [{ when: () => true, reply: { text: 'slow' } }] });
    const slow = { id: 'slow', async *stream(req: Parameters<typeof model.stream>[0]) {
      await gate;
      yield* model.stream(req);
    } };
    server = createServer(createHost({ model: slow }), { store: new MemorySessionStore() });
    const id = (await call(server, 'POST', '/session', {})).json.id as string;
    expect((await call(server, 'POST', `/session/${id}/prompt`, { prompt: 'one' })).status).toBe(202);
    const started = Date.now();
    expect((await call(server, 'POST', `/session/${id}/prompt`, { prompt: 'two' })).status).toBe(409);
    expect(Date.now() - started).toBeLessThan(1_000);
    release();
    await until(async () => !(await call(server!, 'GET', `/session/${id}`)).json.running);
  });
});
