// Issue 19, findings 8 and 9: the reference runtime API's /global/event
// envelope as an option, and elicitation questions raised by tools.
import { afterEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { Entry } from '../../host/server/ring.js';
import { asker, realHost } from './real-host.js';
import { call, readSse, until } from './helpers.js';

let server: WasmhooksServer;
afterEach(async () => {
  asker.elicit = undefined;
  await server?.close();
});

const data = (m: { data: string }) => JSON.parse(m.data);

describe('8. the reference runtime API envelope', () => {
  it('speaks {sessionID, payload: {type, properties}} on ?format=reference, ours by default', async () => {
    server = createServer(realHost());
    const ref = await server.app.request('/global/event?format=reference');
    const ours = await server.app.request('/global/event');
    const { json: s } = await call(server, 'POST', '/session', {});
    const [connected, created] = (await readSse(ref.body!, (m) => m.length === 2)).map(data);
    expect(connected).toEqual({ sessionID: null, payload: { type: 'server.connected', properties: expect.objectContaining({ lastEventId: `${server.hub.log.epoch}.0` }) } });
    expect(created).toEqual({ sessionID: s.id, payload: { type: 'session.created', properties: { sessionID: s.id, time: expect.any(Number) } } });
    const [, mine] = (await readSse(ours.body!, (m) => m.length === 2)).map(data);
    expect(mine).toEqual({ sessionId: s.id, event: { type: 'session.created', sessionId: s.id, time: expect.any(Number) } });
    expect((await call(server, 'GET', '/global/event?format=other')).status).toBe(400);
  });

  it('encodes a tick\'s reference frames once, however many session views of that format read them', async () => {
    server = createServer(realHost());
    const views = ['/global/event?format=reference', '/global/event?format=reference&session=s-1', '/global/event?format=reference&session=s-2'];
    const streams = await Promise.all(views.map((v) => server.app.request(v)));
    // server.connected, then each view's events: all five, s-1's three, s-2's two.
    const reading = streams.map((r, i) => readSse(r.body!, (m) => m.length === [6, 4, 3][i]));
    await until(() => server.hub.clientCount === 3);
    const text = vi.spyOn(Entry.prototype, 'text');
    try {
      server.hub.publish({ type: 'text.delta', sessionId: 's-1', seq: 0, time: 1, text: 'a' });
      server.hub.publish({ type: 'text.delta', sessionId: 's-2', seq: 1, time: 2, text: 'b' });
      server.hub.publish({ type: 'text.delta', sessionId: 's-1', seq: 2, time: 3, text: 'c' });
      // The tick's entries are joined in a microtask: three entries, one encoding each, for three views.
      await new Promise((r) => setTimeout(r, 0));
      expect(text.mock.calls).toEqual([['reference'], ['reference'], ['reference']]);
    } finally {
      text.mockRestore();
    }
    server.hub.publish({ type: 'text.delta', sessionId: 's-2', seq: 3, time: 4, text: 'd' });
    server.hub.publish({ type: 'text.delta', sessionId: 's-1', seq: 4, time: 5, text: 'e' });
    const [all, one, two] = (await Promise.all(reading)).map((ms) => ms.slice(1).map((m) => data(m).payload.properties.text as string));
    expect(all).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(one).toEqual(['a', 'c', 'e']);
    expect(two).toEqual(['b', 'd']);
  });

  it('takes the default from the globalEventFormat option and sends server.heartbeat as a data event without an id', async () => {
    server = createServer(realHost(), { globalEventFormat: 'reference', heartbeatMs: 100 });
    const res = await server.app.request('/global/event');
    const got = await readSse(res.body!, (m) => m.length === 2);
    expect(data(got[1]!)).toEqual({ sessionID: null, payload: { type: 'server.heartbeat', properties: {} } });
    expect(got[1]!.id).toBeUndefined();
    const plain = await server.app.request('/global/event?format=wasmhooks');
    expect(data((await readSse(plain.body!, (m) => m.length === 1))[0]!).event.type).toBe('server.connected');
  });

  it('names the sub-agent in its control requests (agentId)', async () => {
    server = createServer(realHost());
    const { json: s } = await call(server, 'POST', '/session', {});
    const outcome = server.broker.ask(s.id, 'can_use_tool', { toolName: 'Write', toolUseId: 't1', input: {}, reason: 'mode', workingDirectory: '/tmp', agentId: 'reviewer@toolu_1' });
    const res = await server.app.request(`/global/event?format=reference&lastEventId=${server.hub.log.epoch}.0`);
    const frames = (await readSse(res.body!, (m) => m.some((x) => x.data.includes('control.request')))).map(data);
    const request = frames.find((f) => f.payload.type === 'control.request');
    expect(request.payload.properties).toMatchObject({ sessionID: s.id, subtype: 'can_use_tool', payload: { agentId: 'reviewer@toolu_1' } });
    server.broker.cancel(s.id);
    await outcome;
  });
});

describe('9. elicitation', () => {
  it('a tool asks the user; a malformed answer is refused and the question stays; a valid one reaches the tool', async () => {
    server = createServer(realHost());
    asker.elicit = server.elicit;
    const { json: s } = await call(server, 'POST', '/session', {});
    await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'ask me' });
    await until(() => server.broker.pending(s.id).length === 1);
    const [request] = server.broker.pending(s.id);
    expect(request).toMatchObject({ subtype: 'elicitation', payload: { message: 'Which file?', schema: { required: ['file'] } } });
    const answer = (response: unknown) => call(server, 'POST', `/session/${s.id}/control-response`, { requestID: request!.id, subtype: 'elicitation', response });
    const bad = await answer({ action: 'accept', content: { file: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.path).toBe('response.content');
    expect(server.broker.pending(s.id)).toHaveLength(1);
    expect((await answer({ action: 'accept', content: { file: 'notes.txt' } })).json).toEqual({ resolved: true });
    await until(async () => (await server.sessions.get(s.id)).lastResult !== undefined);
    expect((await server.sessions.get(s.id)).lastResult?.text).toBe('Thanks for answering.');
  });

  it('declines, cancels, and refuses malformed questions without throwing', async () => {
    server = createServer(realHost(), { controlTimeoutMs: 50 });
    const { json: s } = await call(server, 'POST', '/session', {});
    const declined = server.elicit(s.id, { message: 'ok?' });
    await until(() => server.broker.pending(s.id).length === 1);
    const id = server.broker.pending(s.id)[0]!.id;
    await call(server, 'POST', `/session/${s.id}/control-response`, { requestID: id, subtype: 'elicitation', response: { action: 'decline' } });
    expect(await declined).toEqual({ action: 'decline' });
    expect(await server.elicit(s.id, { message: 'anyone?' })).toEqual({ action: 'cancel', reason: 'timeout' });
    expect(await server.elicit('nope', { message: 'hello?' })).toEqual({ action: 'cancel', reason: 'no session nope' });
    expect(await server.elicit(s.id, { message: '' })).toMatchObject({ action: 'cancel', reason: expect.stringContaining('invalid elicitation request') });
  });
});
