// fix3 item 2 with real `serve` processes on Redis: a prompt whose replica stalls past its lease (SIGSTOP) keeps
// writing when nobody took the session over (before: its lease lapsed, its own sweep reported it interrupted and
// its conversation was dropped); a prompt taken over while stalled can never write over the new owner's prompt.
import { describe, expect, it } from 'vitest';
import { haveRedis } from './redis-server.js';
import { json, type } from './processes.js';
import { replicaFleet } from './replica-fleet.js';

const LEASE_MS = 600;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!haveRedis())('lease fencing across a stalled replica (Redis)', () => {
  const { replica, watch } = replicaFleet(LEASE_MS);

  it('stalled past its lease, nobody took over: the prompt goes on and its conversation and result are stored', async () => {
    const a = await replica('a');
    const { json: s } = await json(`${a.url}/session`, 'POST', {});
    const events = await watch(`${a.url}/event?session=${s.id}`);
    expect((await json(`${a.url}/session/${s.id}/prompt`, 'POST', { prompt: 'calc please' })).status).toBe(202);
    const request = (await events.next(type('control.request'))).data;
    a.child.kill('SIGSTOP');
    await sleep(4 * LEASE_MS); // the lease lapses while the process cannot renew it
    a.child.kill('SIGCONT');
    await sleep(2 * LEASE_MS); // its heartbeat and its own sweep run again
    const answer = { requestID: request.id, subtype: 'can_use_tool', response: { behavior: 'allow' } };
    expect((await json(`${a.url}/session/${s.id}/control-response`, 'POST', answer)).json).toEqual({ resolved: true });
    const end = (await events.next(type('agent.end'))).data;
    expect(end.result.subtype, a.output()).toBe('success');
    expect(events.messages.some(type('prompt.interrupted'))).toBe(false);
    expect((await json(`${a.url}/session/${s.id}/messages`)).json.messages).toHaveLength(4);
    for (let i = 0; i < 50 && (await json(`${a.url}/session/${s.id}`)).json.lastResult?.text !== 'Computed.'; i++) await sleep(50);
    expect((await json(`${a.url}/session/${s.id}`)).json.lastResult).toMatchObject({ subtype: 'success', text: 'Computed.' });
  }, 30_000);

  it('stalled and taken over: the new owner’s conversation and result stay as it wrote them', async () => {
    const [a, b] = await Promise.all([replica('a'), replica('b')]);
    const { json: s } = await json(`${a.url}/session`, 'POST', {});
    const onB = await watch(`${b.url}/event?session=${s.id}`);
    expect((await json(`${a.url}/session/${s.id}/prompt`, 'POST', { prompt: 'calc please' })).status).toBe(202);
    await onB.next(type('control.request'));
    a.child.kill('SIGSTOP');
    await onB.next(type('prompt.interrupted'), 20_000);
    expect((await json(`${b.url}/session/${s.id}/prompt`, 'POST', { prompt: 'hello' })).status).toBe(202);
    await onB.next(type('agent.end'));
    for (let i = 0; i < 50 && (await json(`${b.url}/session/${s.id}`)).json.running !== undefined; i++) await sleep(50);
    const conversation = (await json(`${b.url}/session/${s.id}/messages`)).json.messages;
    const view = (await json(`${b.url}/session/${s.id}`)).json;
    expect(view.lastResult).toMatchObject({ subtype: 'success', text: 'Hello.' });
    a.child.kill('SIGCONT');
    await sleep(3 * LEASE_MS); // A's heartbeat finds the session taken, aborts, and tries to write its end
    expect((await json(`${b.url}/session/${s.id}/messages`)).json.messages).toEqual(conversation);
    const after = (await json(`${b.url}/session/${s.id}`)).json;
    expect(after.lastResult).toEqual(view.lastResult);
    expect(after.resumeAt ?? null).toEqual(view.resumeAt ?? null);
  }, 40_000);
});
