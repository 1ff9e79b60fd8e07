// A remote client's hook callbacks belong to its session: on a host shared by every session of a
// server, another session's stream shows no hook.start/hook.end for them (docs/events.md: the
// events of a prompt are its own hooks' calls), and its tool calls are never routed to them.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { realHost } from './real-host.js';
import { call, readSse, types, until } from './helpers.js';

let server: WasmhooksServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('remote hook callbacks are scoped to their session', () => {
  it('a session without hookCallbacks sees no "remote" hook events while another session has them', async () => {
    server = createServer(realHost({ permissionMode: 'bypassPermissions' }));
    const s = server;
    const withHooks = (await call(s, 'POST', '/session', { hookCallbacks: ['PreToolUse', 'Stop'] })).json.id as string;
    const plain = (await call(s, 'POST', '/session', {})).json.id as string;
    const res = await s.app.request(`/event?session=${plain}`);
    const events = readSse(res.body!, (m) => types(m).includes('agent.end'));
    await call(s, 'POST', `/session/${plain}/prompt`, { prompt: 'use a tool' });
    const got = (await events).map((m) => JSON.parse(m.data) as { type: string; hookName?: string });
    expect(got.map((e) => e.type)).toContain('tool.output');
    expect(got.filter((e) => e.type.startsWith('hook.') && e.hookName === 'remote')).toEqual([]);
    expect(got.filter((e) => e.type.startsWith('hook.')).length).toBeGreaterThan(0); // the host's own hooks still show
    expect(s.broker.pending(plain)).toEqual([]);

    // The session that asked still gets its callback (and its hook.start) at PreToolUse.
    const mine = await s.app.request(`/event?session=${withHooks}`);
    const remoteStart = (data: string) => data.includes('"hook.start"') && data.includes('"remote"');
    const started = readSse(mine.body!, (m) => m.some((x) => remoteStart(x.data)));
    await call(s, 'POST', `/session/${withHooks}/prompt`, { prompt: 'use a tool' });
    await until(() => s.broker.pending(withHooks).length === 1);
    expect(s.broker.pending(withHooks)[0]).toMatchObject({ subtype: 'hook_callback', payload: { hookEvent: 'PreToolUse' } });
    expect((await started).map((m) => JSON.parse(m.data))).toContainEqual(expect.objectContaining({ type: 'hook.start', hookName: 'remote', event: 'PreToolUse' }));
    await call(s, 'POST', `/session/${withHooks}/abort`);
  });
});
