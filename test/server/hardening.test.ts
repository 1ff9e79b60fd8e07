// The hostile review of the HTTP control plane (issue 19), one test per
// finding, through app.request(). Raw-socket findings: sockets.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import type { StreamEvent } from '../../host/server/events.js';
import { realHost } from './real-host.js';
import { call, readSse, types, until } from './helpers.js';

let server: WasmhooksServer;
afterEach(() => server?.close());

const JSON_TYPE = { 'content-type': 'application/json' };
const deepArrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

/** A session with a pending can_use_tool question (the Write tool). */
async function pendingWrite(s: WasmhooksServer): Promise<{ id: string; requestID: string }> {
  const { json } = await call(s, 'POST', '/session', {});
  await call(s, 'POST', `/session/${json.id}/prompt`, { prompt: 'tool please' });
  await until(() => s.broker.pending(json.id).length === 1);
  return { id: json.id, requestID: s.broker.pending(json.id)[0]!.id };
}

describe('1. DNS rebinding and cross-site requests', () => {
  it('a loopback server refuses a foreign Host everywhere, so a rebound page cannot list sessions or approve a Write', async () => {
    server = createServer(realHost());
    const { id, requestID } = await pendingWrite(server);
    const foreign = { host: 'attacker.example:4096' };
    for (const [method, path, body] of [
      ['GET', '/', undefined],
      ['GET', '/session', undefined],
      ['POST', '/session', {}],
      ['GET', `/session/${id}/control-requests`, undefined],
      ['POST', `/session/${id}/control-response`, { requestID, subtype: 'can_use_tool', response: { behavior: 'allow' } }],
      ['GET', '/event', undefined],
    ] as const) {
      const res = await call(server, method, path, body, foreign);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json.error.message).toMatch(/Host attacker\.example is not served here/);
    }
    expect(server.broker.pending(id)).toHaveLength(1);
    for (const host of ['localhost:4096', '127.0.0.1', '127.1.2.3:80', '[::1]:4096', 'LOCALHOST', 'localhost.']) {
      expect((await call(server, 'GET', '/session', undefined, { host })).status, host).toBe(200);
    }
  });

  it('answers configured names, refuses malformed Host values with 400, and lets requests without Host through', async () => {
    server = createServer(realHost(), { allowedHosts: ['agent.internal'] });
    expect((await call(server, 'GET', '/health', undefined, { host: 'agent.internal:8080' })).status).toBe(200);
    expect((await call(server, 'GET', '/health', undefined, { host: 'other.internal' })).status).toBe(403);
    for (const host of ['a b', '127.0.0.1:99999', '%zz', '[::1', 'user@127.0.0.1', '127.0.0.1/x']) {
      const res = await call(server, 'GET', '/health', undefined, { host });
      expect(res.status, host).toBe(400);
      expect(res.json.error.message).toMatch(/malformed Host/);
    }
    expect((await call(server, 'GET', '/health')).status).toBe(200);
  });

  it('serves any Host when bound beyond loopback (the token guards it there)', async () => {
    server = createServer(realHost(), { hostname: '0.0.0.0', token: 'a-token-of-enough-length' });
    const res = await call(server, 'GET', '/health', undefined, { host: 'agent.example.com', authorization: 'Bearer a-token-of-enough-length' });
    expect(res.status).toBe(200);
  });

  it('refuses a disallowed Origin (null included) and accepts its own origin and corsOrigins', async () => {
    server = createServer(realHost(), { corsOrigins: ['https://ui.example'] });
    for (const origin of ['http://evil.example', 'null', 'http://localhost.evil.example', 'http://127.0.0.1:4096']) {
      const res = await call(server, 'POST', '/session', {}, { origin, host: 'localhost:4096' });
      expect(res.status, origin).toBe(403);
      expect(res.json.error.code).toBe('forbidden');
    }
    expect((await call(server, 'GET', '/session', undefined, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await call(server, 'POST', '/session', {}, { origin: 'http://localhost:4096', host: 'localhost:4096' })).status).toBe(201);
    expect((await call(server, 'POST', '/session', {}, { origin: 'https://ui.example' })).status).toBe(201);
    await server.close();
    // Every origin needs a token (red3: without one, any page the user opens could approve tool calls).
    server = createServer(realHost(), { corsOrigins: ['*'], token: 'a-token-of-enough-length' });
    expect((await call(server, 'POST', '/session', {}, { origin: 'https://any.example', authorization: 'Bearer a-token-of-enough-length' })).status).toBe(201);
  });

  it('requires application/json on every POST, empty bodies included (no "simple" cross-site request acts)', async () => {
    server = createServer(realHost());
    const { json: s } = await call(server, 'POST', '/session', {});
    for (const path of ['/session', `/session/${s.id}/prompt`, `/session/${s.id}/abort`, `/session/${s.id}/clear`, `/session/${s.id}/control-cancel`, '/plugins']) {
      for (const headers of [{} as Record<string, string>, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, { 'content-type': 'application/jsonx' }]) {
        const res = await server.app.request(path, { method: 'POST', headers, ...(path.endsWith('prompt') ? { body: '{"prompt":"hi"}' } : {}) });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(415);
      }
    }
    expect((await server.app.request(`/session/${s.id}/abort`, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' } })).status).toBe(200);
    expect((await server.sessions.get(s.id)).prompts).toBe(0);
  });
});

describe('2. deep JSON and total event encoding', () => {
  it('refuses a 20,000-deep control answer with 400; the question stays pending and the stream stays readable', async () => {
    server = createServer(realHost());
    const { id, requestID } = await pendingWrite(server);
    const body = `{"requestID":"${requestID}","subtype":"can_use_tool","response":{"behavior":"allow","updatedInput":{"x":${deepArrays(20_000)}}}}`;
    const res = await call(server, 'POST', `/session/${id}/control-response`, body);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'invalid_json', message: expect.stringContaining('deeper than 64 levels') });
    expect((await call(server, 'GET', `/session/${id}/control-requests`)).json.requests).toHaveLength(1);
    const replay = await server.app.request('/event', { headers: { 'last-event-id': `${server.hub.log.epoch}.0` } });
    expect(replay.status).toBe(200);
    expect(types(await readSse(replay.body!, (m) => types(m).includes('control.request')))).toContain('control.request');
    // Depth within the bound is an ordinary answer.
    const ok = `{"requestID":"${requestID}","subtype":"can_use_tool","response":{"behavior":"allow","updatedInput":{"x":${deepArrays(50)}}}}`;
    expect((await call(server, 'POST', `/session/${id}/control-response`, ok)).json).toEqual({ resolved: true });
  });

  it('refuses deep bodies on every JSON route with a 4xx', async () => {
    server = createServer(realHost());
    const { json: s } = await call(server, 'POST', '/session', {});
    for (const path of ['/session', `/session/${s.id}/prompt`, `/session/${s.id}/control-cancel`]) {
      const res = await call(server, 'POST', path, `{"title":${deepArrays(5_000)}}`);
      expect(res.status, path).toBe(400);
      expect(res.json.error.code).toBe('invalid_json');
    }
  });

  it('replaces an event that cannot be encoded before it enters the ring, so replays and other events survive', async () => {
    server = createServer(realHost());
    const cyclic: Record<string, unknown> = { type: 'tool.call', sessionId: 's1', seq: 1, time: 1, name: 'X', toolUseId: 't' };
    cyclic.input = cyclic;
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    server.hub.publish(cyclic as unknown as StreamEvent);
    server.hub.publish({ type: 'tool.call', sessionId: 's1', seq: 2, time: 1, name: 'Y', toolUseId: 'u', input: deep });
    server.hub.publish({ type: 'text.delta', sessionId: 's1', seq: 3, time: 1, text: 'still here' });
    for (const path of ['/event', '/global/event', '/global/event?format=reference']) {
      const res = await server.app.request(path, { headers: { 'last-event-id': `${server.hub.log.epoch}.0` } });
      expect(res.status).toBe(200);
      const got = await readSse(res.body!, (m) => m.length === 4);
      const data = got.slice(1).map((m) => JSON.parse(m.data));
      const events = data.map((d) => d.event ?? d.payload ?? d);
      expect(events.map((e) => e.type)).toEqual(['event.unencodable', 'event.unencodable', 'text.delta']);
      const first = events[0].properties ?? events[0];
      expect(first).toMatchObject({ originalType: 'tool.call', message: expect.stringMatching(/could not be encoded/) });
    }
  });

  it('settles a control request whose payload cannot be encoded at once, as a denial nobody had to wait for', async () => {
    server = createServer(realHost());
    const input: Record<string, unknown> = {};
    input.self = input;
    const outcome = await server.broker.ask('s1', 'can_use_tool', { toolName: 'Write', toolUseId: 't', input, reason: 'mode', workingDirectory: '/tmp' });
    expect(outcome).toEqual({ kind: 'cancelled', reason: 'unencodable' });
    expect(server.broker.pending('s1')).toHaveLength(0);
  });
});

describe('7. small findings', () => {
  it('refuses a token with surrounding whitespace at start-up', () => {
    expect(() => createServer(realHost(), { token: ' correct-horse-battery-staple' })).toThrow(/whitespace/);
    expect(() => createServer(realHost(), { token: 'correct-horse-battery-staple\n' })).toThrow(/whitespace/);
  });

  it('shows the error code and message in lastResult', async () => {
    const failing = { async *stream() { yield { type: 'error' as const, error: { code: 'OVERLOADED', message: 'try later' } }; } };
    server = createServer(realHost({ model: failing as never }));
    const { json: s } = await call(server, 'POST', '/session', {});
    await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'hi' });
    await until(async () => (await server.sessions.get(s.id)).lastResult !== undefined);
    expect((await call(server, 'GET', `/session/${s.id}`)).json.lastResult).toMatchObject({
      subtype: 'error_during_execution',
      error: { code: 'OVERLOADED', message: expect.stringContaining('try later') },
    });
  });

  it('control-cancel accepts {requestID, subtype} and checks the subtype; mcp_message resolves nothing', async () => {
    server = createServer(realHost());
    const { id, requestID } = await pendingWrite(server);
    expect((await call(server, 'POST', `/session/${id}/control-cancel`, { requestID, subtype: 'elicitation' })).json).toEqual({ cancelled: 0 });
    expect((await call(server, 'POST', `/session/${id}/control-cancel`, { subtype: 'can_use_tool' })).status).toBe(400);
    const mcp = await call(server, 'POST', `/session/${id}/control-response`, { requestID, subtype: 'mcp_message', response: {} });
    expect(mcp.json).toEqual({ resolved: false, reason: 'subtype-mismatch' });
    expect((await call(server, 'POST', `/session/${id}/control-cancel`, { requestID, subtype: 'can_use_tool' })).json).toEqual({ cancelled: 1 });
  });
});
