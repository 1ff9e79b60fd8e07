// rv10: a prompt on a shared store rebuilds its session from the record it read. Another replica may
// finish a prompt on the same session between that read and this replica's lease; the rebuilt
// session must then count on from the record as it is under the lease (no seq or turn repeated,
// no prompt count lost), not from the copy read before.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { createHost, scriptedModel } from '../../host/index.js';
import type { HostEvent } from '../../host/events/types.js';
import { MemorySessionStore } from '../../host/store/memory.js';
import { call, readSse, until } from './helpers.js';

let server: WasmhooksServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a session rebuilt under the lease', () => {
  it('counts on from the record written by a prompt that ended between the read and the lease', async () => {
    const store = new MemorySessionStore();
    Object.defineProperty(store, 'shared', { value: true });
    server = createServer(createHost({ model: scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] }) }), { store });
    const { json } = await call(server, 'POST', '/session', {});
    const id = json.id as string;
    // Another replica's prompt ends while this one waits for the lease: its record moves on.
    const acquire = store.acquire.bind(store);
    store.acquire = async (...args: Parameters<MemorySessionStore['acquire']>) => {
      const r = await store.get(id);
      await store.update(id, { resumeAt: { seq: 500, turn: 7 }, prompts: (r?.prompts ?? 0) + 7 });
      return acquire(...args);
    };
    const res = await server.app.request(`/event?session=${id}`);
    const reading = readSse(res.body!, (m) => m.some((f) => JSON.parse(f.data).type === 'agent.end'), 20_000);
    expect((await call(server, 'POST', `/session/${id}/prompt`, { prompt: 'go' })).status).toBe(202);
    const events = (await reading).map((f) => JSON.parse(f.data) as HostEvent).filter((e) => typeof e.seq === 'number');
    expect(events[0]).toMatchObject({ type: 'agent.start', turn: 8, seq: 501 });
    await until(async () => !(await call(server!, 'GET', `/session/${id}`)).json.running);
    expect((await store.get(id))?.prompts).toBe(8);
    expect((await store.get(id))?.resumeAt?.turn).toBe(8);
  });
});
