import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { ControlBroker, remoteCanUseTool } from '../../host/server/control.js';
import type { ControlRequest } from '../../host/server/control-types.js';
import { realHost } from './real-host.js';
import { call, readSse, types, until } from './helpers.js';

let server: WasmhooksServer;
afterEach(() => server?.close());

function recordingBroker(timeoutMs = 1000) {
  const log: string[] = [];
  const requests: ControlRequest[] = [];
  const broker = new ControlBroker(
    {
      request: (r) => (requests.push(r), log.push(`request ${r.id}`)),
      resolved: (r) => log.push(`resolved ${r.id}`),
      cancelled: (r, reason) => log.push(`cancelled ${r.id} ${reason}`),
    },
    timeoutMs,
  );
  return { broker, log, requests };
}

const info = (signal = new AbortController().signal) => ({ toolUseId: 't', toolName: 'Bash', input: {}, signal, reason: 'mode', workingDirectory: '/w' });

describe('control broker', () => {
  it('applies a matching answer once; duplicates and mismatches are refused', async () => {
    const { broker, requests } = recordingBroker();
    const answer = remoteCanUseTool(broker, 's1')('Bash', { cmd: 'ls' }, info());
    const r = requests[0]!;
    expect(r).toMatchObject({ sessionId: 's1', subtype: 'can_use_tool', payload: { toolName: 'Bash', input: { cmd: 'ls' } } });
    expect(broker.respond('s2', r.id, 'can_use_tool', { behavior: 'allow' })).toEqual({ resolved: false, reason: 'session-mismatch' });
    expect(broker.respond('s1', r.id, 'elicitation', { action: 'accept' })).toEqual({ resolved: false, reason: 'subtype-mismatch' });
    expect(() => broker.respond('s1', r.id, 'can_use_tool', { behavior: 'maybe' })).toThrow(/response/);
    expect(broker.pending('s1')).toHaveLength(1);
    expect(broker.respond('s1', r.id, 'can_use_tool', { behavior: 'allow' })).toEqual({ resolved: true });
    await expect(answer).resolves.toEqual({ behavior: 'allow' });
    expect(broker.respond('s1', r.id, 'can_use_tool', { behavior: 'deny', message: 'late' })).toEqual({
      resolved: false,
      reason: 'not-pending',
    });
  });

  it('never applies a stale answer to a later request', async () => {
    const { broker, requests } = recordingBroker();
    const first = remoteCanUseTool(broker, 's1')('Bash', {}, info());
    broker.cancel('s1', requests[0]!.id);
    await expect(first).resolves.toMatchObject({ behavior: 'deny' });
    const second = remoteCanUseTool(broker, 's1')('Bash', {}, info());
    expect(broker.respond('s1', requests[0]!.id, 'can_use_tool', { behavior: 'allow' }).resolved).toBe(false);
    expect(broker.pending('s1').map((r) => r.id)).toEqual([requests[1]!.id]);
    broker.respond('s1', requests[1]!.id, 'can_use_tool', { behavior: 'deny', message: 'no' });
    await expect(second).resolves.toEqual({ behavior: 'deny', message: 'no' });
  });

  it('denies on timeout and on abort, announcing control.cancelled', async () => {
    const { broker, log, requests } = recordingBroker(30);
    await expect(remoteCanUseTool(broker, 's1')('Bash', {}, info())).resolves.toMatchObject({
      behavior: 'deny',
      message: expect.stringMatching(/timeout/),
    });
    expect(log).toContain(`cancelled ${requests[0]!.id} timeout`);
    const ac = new AbortController();
    const aborted = remoteCanUseTool(broker, 's1')('Bash', {}, info(ac.signal));
    ac.abort();
    await expect(aborted).resolves.toMatchObject({ behavior: 'deny', message: expect.stringMatching(/aborted/) });
    expect(log).toContain(`cancelled ${requests[1]!.id} aborted`);
    expect(broker.pending('s1')).toEqual([]);
  });

  it('answers every question as cancelled once closed', async () => {
    const { broker, requests } = recordingBroker();
    const pending = broker.ask('s1', 'elicitation', { message: 'still there?' });
    broker.close();
    await expect(pending).resolves.toEqual({ kind: 'cancelled', reason: 'server-closed' });
    await expect(broker.ask('s1', 'elicitation', { message: 'late' })).resolves.toEqual({ kind: 'cancelled', reason: 'server-closed' });
    expect(requests).toHaveLength(1);
  });

  it('carries hook callbacks and elicitations with their own response shapes', async () => {
    const { broker, requests } = recordingBroker();
    const hook = broker.ask('s1', 'hook_callback', { callbackId: 'cb1', hookEvent: 'PreToolUse', input: { a: 1 } });
    const elicit = broker.ask('s1', 'elicitation', { message: 'your name?' });
    expect(() => broker.respond('s1', requests[0]!.id, 'hook_callback', { behavior: 'allow' })).toThrow();
    broker.respond('s1', requests[0]!.id, 'hook_callback', { decision: 'deny', reason: 'remote says no' });
    broker.respond('s1', requests[1]!.id, 'elicitation', { action: 'accept', content: { name: 'Ada' } });
    await expect(hook).resolves.toEqual({ kind: 'answered', response: { decision: 'deny', reason: 'remote says no' } });
    await expect(elicit).resolves.toEqual({ kind: 'answered', response: { action: 'accept', content: { name: 'Ada' } } });
  });
});

describe('control routes', () => {
  async function pendingToolCall(options = {}) {
    server = createServer(realHost(), options);
    const { json: s } = await call(server, 'POST', '/session', {});
    const res = await server.app.request(`/event?session=${s.id}`);
    const events = readSse(res.body!, (m) => types(m).includes('agent.end'));
    await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'use a tool' });
    await until(() => server.broker.pending(s.id).length === 1);
    const { json } = await call(server, 'GET', `/session/${s.id}/control-requests`);
    return { id: s.id as string, request: json.requests[0], events };
  }

  it('turns a permission question into a control.request and applies the answer', async () => {
    const { id, request, events } = await pendingToolCall();
    expect(request).toMatchObject({ sessionId: id, subtype: 'can_use_tool', payload: { toolName: 'Write' }, timeoutMs: 300_000 });
    expect(typeof request.createdAt).toBe('number');
    expect((await call(server, 'GET', `/session/${id}`)).json.pendingControlRequests).toBe(1);
    const body = { requestID: request.id, subtype: 'can_use_tool', response: { behavior: 'allow' } };
    expect((await call(server, 'POST', `/session/${id}/control-response`, body)).json).toEqual({ resolved: true });
    expect((await call(server, 'POST', `/session/${id}/control-response`, body)).json).toMatchObject({ resolved: false });
    const got = (await events).map((m) => JSON.parse(m.data));
    const req = got.find((e) => e.type === 'control.request');
    expect(req).toMatchObject({ id: request.id, sessionId: id, subtype: 'can_use_tool' });
    expect(got.map((e) => e.type)).toEqual(expect.arrayContaining(['control.resolved', 'tool.output']));
  });

  it('refuses answers for another session, wrong subtype or unknown ids', async () => {
    const { id, request } = await pendingToolCall();
    const other = (await call(server, 'POST', '/session', {})).json.id;
    const wrongSession = await call(server, 'POST', `/session/${other}/control-response`, {
      requestID: request.id,
      subtype: 'can_use_tool',
      response: { behavior: 'allow' },
    });
    expect(wrongSession.json).toEqual({ resolved: false, reason: 'session-mismatch' });
    const wrongSubtype = await call(server, 'POST', `/session/${id}/control-response`, {
      requestID: request.id,
      subtype: 'elicitation',
      response: { action: 'accept' },
    });
    expect(wrongSubtype.json).toEqual({ resolved: false, reason: 'subtype-mismatch' });
    const unknown = await call(server, 'POST', `/session/${id}/control-response`, {
      requestID: crypto.randomUUID(),
      subtype: 'can_use_tool',
      response: { behavior: 'allow' },
    });
    expect(unknown.json).toEqual({ resolved: false, reason: 'not-pending' });
    const bad = await call(server, 'POST', `/session/${id}/control-response`, {
      requestID: request.id,
      subtype: 'can_use_tool',
      response: { behavior: 'allow', extra: true },
    });
    expect(bad.status).toBe(400);
    expect(server.broker.pending(id)).toHaveLength(1);
  });

  it('cancels over HTTP: control.cancelled, and the tool call is denied', async () => {
    const { id, request, events } = await pendingToolCall();
    expect((await call(server, 'POST', `/session/${id}/control-cancel`, { requestID: request.id })).json).toEqual({ cancelled: 1 });
    expect((await call(server, 'POST', `/session/${id}/control-cancel`, {})).json).toEqual({ cancelled: 0 });
    const got = (await events).map((m) => JSON.parse(m.data));
    expect(got.find((e) => e.type === 'control.cancelled')).toMatchObject({ id: request.id, reason: 'cancelled' });
    expect(got.find((e) => e.type === 'tool.denied')).toMatchObject({ name: 'Write' });
    expect(got.some((e) => e.type === 'tool.output')).toBe(false);
  });

  it('times out into a denial', async () => {
    const { events } = await pendingToolCall({ controlTimeoutMs: 50 });
    const got = (await events).map((m) => JSON.parse(m.data));
    expect(got.find((e) => e.type === 'control.cancelled')).toMatchObject({ reason: 'timeout' });
    expect(got.find((e) => e.type === 'tool.denied')?.reason).toMatch(/not answered \(timeout\)/);
  });

  it('deleting a session cancels its pending requests', async () => {
    const { id } = await pendingToolCall();
    await call(server, 'DELETE', `/session/${id}`);
    expect(server.broker.pending(id)).toEqual([]);
  });
});

describe('remote hook callbacks', () => {
  async function hookSession(options = {}) {
    server = createServer(realHost(), options);
    const { json: s } = await call(server, 'POST', '/session', { hookCallbacks: ['PreToolUse'] });
    const res = await server.app.request(`/event?session=${s.id}`);
    const events = readSse(res.body!, (m) => types(m).includes('agent.end'));
    await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'use a tool' });
    await until(() => server.broker.pending(s.id).length === 1);
    return { id: s.id as string, request: server.broker.pending(s.id)[0]!, events };
  }

  it('asks the remote client at PreToolUse and applies its decision', async () => {
    const { id, request, events } = await hookSession();
    expect(request).toMatchObject({ subtype: 'hook_callback', payload: { hookEvent: 'PreToolUse', input: { tool_name: 'Write' } } });
    const body = { requestID: request.id, subtype: 'hook_callback', response: { decision: 'deny', reason: 'remote says no' } };
    expect((await call(server, 'POST', `/session/${id}/control-response`, body)).json).toEqual({ resolved: true });
    const got = (await events).map((m) => JSON.parse(m.data));
    expect(got.find((e) => e.type === 'hook.end' && e.hookName === 'remote')).toMatchObject({ decision: 'deny', reason: 'remote says no' });
    expect(got.find((e) => e.type === 'tool.denied')).toMatchObject({ name: 'Write', reason: 'remote says no' });
  });

  it('leaves sessions without hookCallbacks alone, and an unanswered guard callback denies', async () => {
    const { id, events } = await hookSession({ controlTimeoutMs: 50 });
    const other = (await call(server, 'POST', '/session', {})).json.id as string;
    await call(server, 'POST', `/session/${other}/prompt`, { prompt: 'use a tool' });
    await until(() => server.broker.pending(other).length === 1);
    expect(server.broker.pending(other)[0]!.subtype).toBe('can_use_tool');
    const got = (await events).map((m) => JSON.parse(m.data));
    expect(got.find((e) => e.type === 'control.cancelled')).toMatchObject({ subtype: 'hook_callback', reason: 'timeout' });
    expect(got.find((e) => e.type === 'hook.end' && e.hookName === 'remote')).toMatchObject({
      decision: 'deny',
      failure: { code: 'TIMEOUT' },
      failurePolicy: 'fail-closed',
    });
    expect(got.find((e) => e.type === 'tool.denied')).toMatchObject({ name: 'Write' });
    expect((await server.sessions.get(id)).pendingControlRequests).toBe(0);
  });

  it('rejects unknown hook event names', async () => {
    server = createServer(realHost());
    const res = await call(server, 'POST', '/session', { hookCallbacks: ['PreToolUze'] });
    expect(res.status).toBe(400);
    expect(res.json.error.path).toBe('body.hookCallbacks.0');
  });
});
