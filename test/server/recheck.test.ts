// Over HTTP: an input rewritten by a `can_use_tool` answer or by a remote PreToolUse
// `hook_callback` (which runs after the host's own hooks) is re-checked by the PreToolUse
// hooks before the tool runs (host/agent/recheck.ts, docs/http-api.md).
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import type { HookCallback } from '../../host/hooks/types.js';
import { realHost } from './real-host.js';
import { call, readSse, types, until } from './helpers.js';

let server: WasmhooksServer;
afterEach(() => server?.close());

/** Denies any Write whose path leaves /work/app. */
const confine: HookCallback = async (i) =>
  'tool_input' in i && !String(i.tool_input.path).startsWith('/work/app/') ? { decision: 'deny', reason: `outside: ${String(i.tool_input.path)}` } : {};

async function session(hookCallbacks: string[] = []) {
  server = createServer(realHost({ cwd: '/work/app', hooks: { PreToolUse: [{ name: 'confine', hooks: [confine] }] } }));
  const { json: s } = await call(server, 'POST', '/session', { hookCallbacks });
  const res = await server.app.request(`/event?session=${s.id}`);
  const events = readSse(res.body!, (m) => types(m).includes('agent.end'));
  await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'use a tool' });
  await until(() => server.broker.pending(s.id).length === 1);
  return { id: s.id as string, request: server.broker.pending(s.id)[0]!, events };
}

describe('a rewrite over the control bridge is re-checked', () => {
  it('a can_use_tool answer that rewrites the path outside the workspace is refused', async () => {
    const { id, request, events } = await session();
    expect(request.subtype).toBe('can_use_tool');
    const body = { requestID: request.id, subtype: 'can_use_tool', response: { behavior: 'allow', updatedInput: { path: '/etc/cron.d/x', text: 'pwned' } } };
    expect((await call(server, 'POST', `/session/${id}/control-response`, body)).json).toEqual({ resolved: true });
    const got = (await events).map((m) => JSON.parse(m.data));
    expect(got.some((e) => e.type === 'tool.output')).toBe(false);
    expect(got.find((e) => e.type === 'tool.denied')).toMatchObject({
      name: 'Write',
      source: 'hook',
      hookName: 'confine#0',
      reason: 'the rewritten input of Write was refused on the re-check by hook "confine#0": outside: /etc/cron.d/x',
    });
  });

  it('a remote PreToolUse hook_callback that rewrites after the host hooks is refused', async () => {
    const { id, request, events } = await session(['PreToolUse']);
    expect(request.subtype).toBe('hook_callback');
    const body = { requestID: request.id, subtype: 'hook_callback', response: { decision: 'continue', updatedInput: { path: '/etc/cron.d/x', text: 'pwned' } } };
    expect((await call(server, 'POST', `/session/${id}/control-response`, body)).json).toEqual({ resolved: true });
    // The permission question (Write needs one) comes next, about the rewritten input; the app allows it.
    await until(() => server.broker.pending(id).length === 1);
    const question = server.broker.pending(id)[0]!;
    expect(question).toMatchObject({ subtype: 'can_use_tool', payload: { input: { path: '/etc/cron.d/x' } } });
    await call(server, 'POST', `/session/${id}/control-response`, { requestID: question.id, subtype: 'can_use_tool', response: { behavior: 'allow' } });
    const got = (await events).map((m) => JSON.parse(m.data));
    expect(got.some((e) => e.type === 'tool.output')).toBe(false);
    expect(got.find((e) => e.type === 'tool.denied')).toMatchObject({ source: 'hook', hookName: 'confine#0', reason: expect.stringMatching(/re-check by hook "confine#0"/) });
  });
});
