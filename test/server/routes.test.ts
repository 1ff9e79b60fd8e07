import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { hostWithGuard, realHost } from './real-host.js';

const createServerFor = () => createServer(realHost());
import { call, readSse, types, until } from './helpers.js';

let server: WasmhooksServer;
afterEach(() => server?.close());

describe('session routes', () => {
  it('creates, lists, gets and deletes a session', async () => {
    server = createServer(realHost());
    const created = await call(server, 'POST', '/session', { title: 'demo', permissionMode: 'default' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ title: 'demo', state: 'idle', running: false, prompts: 0 });
    const id = created.json.id as string;
    expect((await call(server, 'GET', '/session')).json.sessions.map((s: { id: string }) => s.id)).toEqual([id]);
    expect((await call(server, 'GET', `/session/${id}`)).json.id).toBe(id);
    expect((await call(server, 'DELETE', `/session/${id}`)).json).toEqual({ deleted: true });
    expect((await call(server, 'GET', `/session/${id}`)).status).toBe(404);
    expect((await call(server, 'GET', '/session')).json.sessions).toEqual([]);
  });

  it('refuses a session past maxSessions (429) until one is deleted', async () => {
    server = createServer(realHost(), { maxSessions: 2 });
    const a = await call(server, 'POST', '/session', {});
    expect((await call(server, 'POST', '/session', {})).status).toBe(201);
    const third = await call(server, 'POST', '/session', {});
    expect(third.status).toBe(429);
    expect(third.json.error).toMatchObject({ code: 'too_many_sessions', message: expect.stringMatching(/holds 2 sessions, its maxSessions \(2\); delete one/) });
    expect((await call(server, 'GET', '/session')).json.sessions).toHaveLength(2);
    await call(server, 'DELETE', `/session/${a.json.id}`);
    expect((await call(server, 'POST', '/session', {})).status).toBe(201);
    expect(() => createServer(realHost(), { maxSessions: 0 })).toThrow(/server option maxSessions/);
  });

  it('creates a session with an empty JSON body, and refuses a POST without the JSON content type', async () => {
    server = createServer(realHost());
    const json = { 'content-type': 'application/json' };
    expect((await server.app.request('/session', { method: 'POST', headers: json })).status).toBe(201);
    const bare = await server.app.request('/session', { method: 'POST' });
    expect(bare.status).toBe(415);
    expect((await bare.json()).error.code).toBe('unsupported_media_type');
  });

  it('accepts a prompt at once (202) and reports it through events', async () => {
    server = createServer(realHost());
    const { json: s } = await call(server, 'POST', '/session', {});
    const res = await server.app.request(`/event?session=${s.id}`);
    const reading = readSse(res.body!, (m) => types(m).includes('agent.end'));
    const posted = await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'hello' });
    expect(posted).toEqual({ status: 202, json: { accepted: true, sessionId: s.id } });
    const got = types(await reading);
    expect(got[0]).toBe('server.connected');
    expect(got).toEqual(expect.arrayContaining(['agent.start', 'text.delta', 'agent.end']));
    await until(async () => !(await server.sessions.get(s.id)).running);
    expect((await server.sessions.get(s.id)).lastResult).toMatchObject({ subtype: 'success', text: 'echo: hello' });
  });

  it('refuses a second prompt while one runs (409), and abort ends it', async () => {
    server = createServer(realHost());
    const { json: s } = await call(server, 'POST', '/session', {});
    expect((await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'wait' })).status).toBe(202);
    const second = await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'again' });
    expect(second.status).toBe(409);
    expect(second.json.error.code).toBe('conflict');
    expect((await call(server, 'POST', `/session/${s.id}/abort`, {})).json).toEqual({ aborted: true });
    await until(async () => !(await server.sessions.get(s.id)).running);
    expect((await server.sessions.get(s.id)).lastResult?.subtype).toBe('aborted');
    expect((await call(server, 'POST', `/session/${s.id}/abort`, {})).json).toEqual({ aborted: false });
  });

  it('filters /event by session and wraps /global/event in envelopes', async () => {
    server = createServer(realHost());
    const a = (await call(server, 'POST', '/session', {})).json.id as string;
    const b = (await call(server, 'POST', '/session', {})).json.id as string;
    const only = await server.app.request(`/event?session=${a}`);
    const global = await server.app.request('/global/event');
    const readingOnly = readSse(only.body!, (m) => types(m).includes('agent.end'));
    const readingGlobal = readSse(global.body!, (m) => m.filter((x) => JSON.parse(x.data).event.type === 'agent.end').length === 2);
    await call(server, 'POST', `/session/${b}/prompt`, { prompt: 'b' });
    await call(server, 'POST', `/session/${a}/prompt`, { prompt: 'a' });
    const onlyA = (await readingOnly).map((m) => JSON.parse(m.data));
    expect(onlyA.filter((e) => e.sessionId).every((e) => e.sessionId === a)).toBe(true);
    const envelopes = (await readingGlobal).map((m) => JSON.parse(m.data));
    expect(envelopes[0]).toMatchObject({ sessionId: null, event: { type: 'server.connected' } });
    const ends = envelopes.filter((e) => e.event.type === 'agent.end').map((e) => e.sessionId);
    expect(ends.sort()).toEqual([a, b].sort());
    for (const e of envelopes) if (e.event.sessionId) expect(e.sessionId).toBe(e.event.sessionId);
  });

  it('gives every event a strictly increasing SSE id', async () => {
    server = createServer(realHost());
    const res = await server.app.request('/event');
    const reading = readSse(res.body!, (m) => types(m).includes('agent.end'));
    const { json: s } = await call(server, 'POST', '/session', {});
    await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'x' });
    const ids = (await reading).slice(1).map((m) => Number(m.id));
    expect(ids.length).toBeGreaterThan(3);
    ids.forEach((id, i) => i > 0 && expect(id).toBe(ids[i - 1]! + 1));
  });

  it('lists plugins with bindings, limits and health', async () => {
    server = createServer(await hostWithGuard());
    const { json } = await call(server, 'GET', '/plugins');
    expect(json.plugins).toEqual([
      expect.objectContaining({
        name: 'write-guard',
        version: '0.3.0',
        bindings: [{ event: 'PreToolUse', matcher: 'Write', failurePolicy: null }],
        health: 'healthy',
        limits: expect.objectContaining({ timeoutMs: 100 }),
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    ]);
    expect((await call(server, 'GET', '/plugins')).json.plugins).toHaveLength(1);
    expect((await call(createServerFor(), 'GET', '/plugins')).json).toEqual({ plugins: [] });
  });

  it('refuses plugin loading over HTTP unless enabled', async () => {
    server = createServer(realHost());
    const refused = await call(server, 'POST', '/plugins', { path: '/tmp/evil.wasm' });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toMatch(/allowPluginLoading/);
    await server.close();
    server = createServer(realHost(), { allowPluginLoading: true });
    expect((await call(server, 'POST', '/plugins', { path: '/tmp/x.wasm' })).status).toBe(501);
    expect((await call(server, 'POST', '/plugins', { path: '/a', url: 'https://x/y.wasm' })).status).toBe(400);
  });

  it('sends heartbeats as SSE comments', async () => {
    server = createServer(realHost(), { heartbeatMs: 100 });
    const res = await server.app.request('/event');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes(': heartbeat')) text += (await reader.read()).value;
    await reader.cancel();
    expect(text).toMatch(/^retry: 1000\n\nid: [a-z0-9]+\.\d+\ndata: \{"type":"server.connected"/);
    await until(() => server.hub.clientCount === 0);
  });

  it('serves the console page at /', async () => {
    server = createServer(realHost(), { token: 'a-token-of-sixteen-chars' });
    const res = await server.app.request('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/wasmhooks console/);
  });
});
