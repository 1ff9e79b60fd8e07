// Two `wasmhooks serve` processes sharing a real redis-server: sessions,
// events and control answers cross replicas; a SIGKILLed replica's prompt is
// reported interrupted by the other; Redis restarts; both replicas restart.
import { describe, expect, it } from 'vitest';
import { HOW_TO_INSTALL, haveRedis, startRedis } from './redis-server.js';
import { json, startReplica, type } from './processes.js';
import { replicaFleet } from './replica-fleet.js';

const available = haveRedis();
/** How long a replica may take to report a dead one's prompt: generous, for a loaded machine. */
const NOTICED_WITHIN_MS = 20_000;
if (!available) console.warn(`skipping the Redis replica tests: ${HOW_TO_INSTALL}`);

describe.skipIf(!available)('serve --store redis:// across replicas', () => {
  const fleet = replicaFleet();
  const { replicas, replica, watch } = fleet;

  it('a session created on A is watched and answered on B while A runs the prompt; a second prompt anywhere is 409', async () => {
    const [a, b] = await Promise.all([replica('a'), replica('b')]);
    const { json: s } = await json(`${a.url}/session`, 'POST', {});
    const onB = await watch(`${b.url}/event?session=${s.id}`);
    const globalB = await watch(`${b.url}/global/event`);
    expect((await json(`${a.url}/session/${s.id}/prompt`, 'POST', { prompt: 'calc please' })).status).toBe(202);
    const request = (await onB.next(type('control.request'))).data;
    expect(request).toMatchObject({ sessionId: s.id, subtype: 'can_use_tool', payload: { toolName: 'calc' } });
    expect((await json(`${b.url}/session/${s.id}/prompt`, 'POST', { prompt: 'again' })).status).toBe(409);
    expect((await json(`${b.url}/session/${s.id}/control-requests`)).json.requests.map((r: { id: string }) => r.id)).toEqual([request.id]);
    const answer = { requestID: request.id, subtype: 'can_use_tool', response: { behavior: 'allow' } };
    expect((await json(`${b.url}/session/${s.id}/control-response`, 'POST', answer)).json).toEqual({ resolved: true });
    expect((await onB.next(type('tool.output'))).data).toMatchObject({ name: 'calc', content: '42', isError: false });
    const end = (await onB.next(type('agent.end'))).data;
    expect(end.result).toMatchObject({ subtype: 'success', text: 'Computed.' });
    expect((await globalB.next(type('agent.end'))).data).toMatchObject({ sessionId: s.id });
    // The lease is released just after agent.end is published.
    let view = (await json(`${b.url}/session/${s.id}`)).json;
    for (let i = 0; i < 50 && view.running; i++) view = (await json(`${b.url}/session/${s.id}`)).json;
    expect(view).toMatchObject({ running: false, prompts: 1, pendingControlRequests: 0, lastResult: { subtype: 'success' } });
    const messages = (await json(`${b.url}/session/${s.id}/messages`)).json.messages;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  }, 30_000);

  it('abort and control-cancel reach the replica that runs the prompt, from the other one', async () => {
    const [a, b] = await Promise.all([replica('a'), replica('b')]);
    const { json: s } = await json(`${a.url}/session`, 'POST', {});
    const onB = await watch(`${b.url}/event?session=${s.id}`);
    await json(`${a.url}/session/${s.id}/prompt`, 'POST', { prompt: 'calc please' });
    const first = (await onB.next(type('control.request'))).data;
    expect((await json(`${b.url}/session/${s.id}/control-cancel`, 'POST', { requestID: first.id })).json).toEqual({ cancelled: 1 });
    expect((await onB.next(type('control.cancelled'))).data).toMatchObject({ id: first.id, reason: 'cancelled' });
    expect((await onB.next(type('agent.end'))).data.result.subtype).toBe('success');
    await json(`${b.url}/session/${s.id}/prompt`, 'POST', { prompt: 'calc again' }).then(async (r) => {
      // Just after agent.end the lease may not be released yet: retry once it is.
      for (let i = 0; i < 50 && r.status === 409; i++) r = await json(`${b.url}/session/${s.id}/prompt`, 'POST', { prompt: 'calc again' });
      expect(r.status).toBe(202);
    });
    await onB.next(type('control.request'));
    expect((await json(`${a.url}/session/${s.id}/abort`, 'POST', {})).json).toEqual({ aborted: true });
    expect((await onB.next(type('agent.end'))).data.result.subtype).toBe('aborted');
  }, 30_000);

  it('a replica SIGKILLed mid-prompt: the other reports the prompt interrupted and runs the next one', async () => {
    const [a, b] = await Promise.all([replica('a'), replica('b')]);
    const { json: s } = await json(`${a.url}/session`, 'POST', {});
    const onB = await watch(`${b.url}/event?session=${s.id}`);
    await json(`${a.url}/session/${s.id}/prompt`, 'POST', { prompt: 'calc please' });
    const request = (await onB.next(type('control.request'))).data;
    await a.kill('SIGKILL');
    // B notices within about a lease (600 ms) and a sweep (every half lease) when it gets the CPU; the
    // bound only has to tell "noticed" from "never", and a loaded machine may starve B for seconds.
    const cancelled = (await onB.next(type('control.cancelled'), NOTICED_WITHIN_MS)).data;
    expect(cancelled).toMatchObject({ id: request.id, reason: 'interrupted' });
    // After the cancellation (onB.next reads on from it): the question first, then the prompt.
    const interrupted = (await onB.next(type('prompt.interrupted'), NOTICED_WITHIN_MS)).data;
    expect(interrupted).toMatchObject({ sessionId: s.id, replica: 'a' });
    const view = (await json(`${b.url}/session/${s.id}`)).json;
    expect(view).toMatchObject({ running: false, pendingControlRequests: 0, lastResult: { subtype: 'error_during_execution', error: { code: 'INTERRUPTED' } } });
    // Every event A acknowledged before it died is in the log: B replays them from the start of the session.
    const replay = await watch(`${b.url}/event?session=${s.id}`, `${onB.messages[0]!.data.lastEventId.split('.')[0]}.0-0`);
    await replay.next(type('control.request'));
    expect((await json(`${b.url}/session/${s.id}/prompt`, 'POST', { prompt: 'hello' })).status).toBe(202);
    expect((await onB.next(type('agent.end'))).data.result).toMatchObject({ subtype: 'success', text: 'Hello.' });
  }, 30_000 + 2 * NOTICED_WITHIN_MS);

  it('SIGTERM with a question pending: control.cancelled (server-closed) reaches watchers on both replicas, the prompt is stored as aborted', async () => {
    const [a, b] = await Promise.all([replica('a'), replica('b')]);
    const { json: s } = await json(`${a.url}/session`, 'POST', {});
    const onA = await watch(`${a.url}/event?session=${s.id}`);
    const onB = await watch(`${b.url}/event?session=${s.id}`);
    await json(`${a.url}/session/${s.id}/prompt`, 'POST', { prompt: 'calc please' });
    const request = (await onB.next(type('control.request'))).data;
    expect(await a.kill('SIGTERM')).toBe(0);
    for (const watcher of [onA, onB]) expect((await watcher.next(type('control.cancelled'))).data).toMatchObject({ id: request.id, reason: 'server-closed' });
    expect(await onA.ended, a.output()).toBe(true);
    expect(onA.messages.at(-1)?.data, a.output()).toMatchObject({ type: 'server.closing', reason: 'shutdown' });
    expect((await onB.next(type('agent.end'))).data.result).toMatchObject({ subtype: 'aborted' });
    const view = (await json(`${b.url}/session/${s.id}`)).json;
    expect(view).toMatchObject({ running: false, pendingControlRequests: 0, lastResult: { subtype: 'aborted' } });
  }, 30_000);

  it('Redis restarts: requests get a clear 503 meanwhile, then everything works again (streams included)', async () => {
    const a = await replica('a');
    const { json: s } = await json(`${a.url}/session`, 'POST', { title: 'kept' });
    const stream = await watch(`${a.url}/event`);
    await stream.next(type('server.connected'));
    await fleet.redis.stop('SIGKILL');
    const down = await json(`${a.url}/session`, 'POST', {});
    expect(down.status).toBe(503);
    expect(down.json.error).toMatchObject({ code: 'unavailable' });
    expect(down.json.error.message).toMatch(/session store redis:\/\/127\.0\.0\.1:\d+ is unreachable.*retry once Redis is back/);
    expect((await json(`${a.url}/health`)).status).toBe(503);
    await fleet.redis.start();
    let created = down;
    for (let i = 0; i < 50 && created.status !== 201; i++) {
      await new Promise((r) => setTimeout(r, 100));
      created = await json(`${a.url}/session`, 'POST', {});
    }
    expect(created.status).toBe(201);
    expect((await json(`${a.url}/session/${s.id}`)).json).toMatchObject({ title: 'kept' });
    expect((await json(`${a.url}/session/${created.json.id}/prompt`, 'POST', { prompt: 'hello' })).status).toBe(202);
    expect((await stream.next(type('agent.end'))).data).toMatchObject({ sessionId: created.json.id, result: { subtype: 'success' } });
  }, 30_000);

  it('a Redis that comes back empty starts a new epoch: ids from before get replay.gap, live streams go on', async () => {
    const volatile = await startRedis({ persist: false });
    try {
      const a = await startReplica(fleet.dir, ['--store', volatile.url, '--replica', 'v', '--lease-ms', '600']);
      replicas.push(a);
      const live = await watch(`${a.url}/event`);
      const { json: s } = await json(`${a.url}/session`, 'POST', {});
      const before = await live.next((m) => type('session.created')(m) && m.data.sessionId === s.id);
      await volatile.stop('SIGKILL');
      await volatile.start();
      let created = await json(`${a.url}/session`, 'POST', {});
      for (let i = 0; i < 50 && created.status !== 201; i++) {
        await new Promise((r) => setTimeout(r, 100));
        created = await json(`${a.url}/session`, 'POST', {});
      }
      expect(created.status).toBe(201);
      const after = await live.next((m) => type('session.created')(m) && m.data.sessionId === created.json.id);
      expect(after.id!.split('.')[0]).not.toBe(before.id!.split('.')[0]);
      const resumed = await watch(`${a.url}/event`, before.id);
      expect((await resumed.next(type('replay.gap'))).data).toMatchObject({ requestedAfter: before.id, reason: 'unknown-id', missed: null });
    } finally {
      await volatile.dispose();
    }
  }, 30_000);

  it('both replicas restart: sessions, transcripts and the event log are intact; the conversation continues', async () => {
    let [a, b] = await Promise.all([replica('a'), replica('b')]);
    const { json: s } = await json(`${a.url}/session`, 'POST', {});
    const before = await watch(`${b.url}/event?session=${s.id}`);
    await json(`${a.url}/session/${s.id}/prompt`, 'POST', { prompt: 'hello' });
    const firstEnd = await before.next(type('agent.end'));
    expect(await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')])).toEqual([0, 0]);
    expect(before.messages.map((m) => m.data.type).slice(-2), a.output() + b.output()).toEqual(['agent.end', 'server.closing']);
    expect(await before.ended).toBe(true);
    expect(before.messages.at(-1)?.data).toMatchObject({ type: 'server.closing' });
    replicas.length = 0;
    [a, b] = await Promise.all([replica('a2'), replica('b2')]);
    expect((await json(`${b.url}/session/${s.id}`)).json).toMatchObject({ prompts: 1, lastResult: { subtype: 'success', text: 'Hello.' } });
    expect((await json(`${a.url}/session/${s.id}/messages`)).json.messages).toHaveLength(2);
    // The log survived too: resuming after the first prompt replays nothing missing, no gap.
    const resumed = await watch(`${a.url}/event?session=${s.id}`, firstEnd.id);
    await json(`${b.url}/session/${s.id}/prompt`, 'POST', { prompt: 'hello again' });
    await resumed.next(type('agent.end'));
    expect(resumed.messages.some(type('replay.gap'))).toBe(false);
    // Read-your-writes: agent.end goes out only once the transcript is written (fix3), so no wait here.
    expect((await json(`${a.url}/session/${s.id}/messages`)).json.messages).toHaveLength(4);
  }, 40_000);
});
