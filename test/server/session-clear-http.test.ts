// POST /session/:id/clear (session-clear-http.ts; the same scenario on Node, Deno and Bun against dist/ in
// test/xrt/session-clear-http.xrt.ts). Before session 40 an HTTP client could not clear a session.
import { expect, it } from 'vitest';
import { createHost, scriptedModel } from '../../host/index.js';
import { createServer } from '../../host/server/index.js';
import { MemorySessionStore } from '../../host/store/memory.js';
import { call, until } from './helpers.js';
import { realHost } from './real-host.js';
import { clearOverHttp } from './session-clear-http.js';

const api = { createHost, scriptedModel, createServer };

it('one process: SessionEnd clear, a new session with the old options and clearedFrom, SessionStart clear at its first prompt', async () => {
  expect(await clearOverHttp(api, new MemorySessionStore())).toEqual([]);
});

it('two replicas on a shared store: the record carries clearedFrom, so the replica that builds the new session starts it as clear', async () => {
  const store = new MemorySessionStore();
  Object.defineProperty(store, 'shared', { value: true });
  expect(await clearOverHttp(api, store, true)).toEqual([]);
});

it('is 409 while a prompt runs, and ends nothing', async () => {
  const ends: string[] = [];
  // "wait" calls Sleep, which runs until the prompt is aborted.
  const host = realHost({ hooks: { SessionEnd: [{ hooks: [async (input) => (ends.push(input.hook_event_name), {})] }] } });
  const server = createServer(host, { store: new MemorySessionStore() });
  try {
    const { id } = (await call(server, 'POST', '/session', {})).json as { id: string };
    expect((await call(server, 'POST', `/session/${id}/prompt`, { prompt: 'wait' })).status).toBe(202);
    await until(async () => (await call(server, 'GET', `/session/${id}`)).json.running === true);
    const refused = await call(server, 'POST', `/session/${id}/clear`, {});
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toMatch(/running a prompt.*abort/);
    expect((await call(server, 'GET', '/session')).json.total).toBe(1);
    expect(ends).toEqual([]);
  } finally {
    await server.close();
  }
});
