// seq2: a replica SIGKILLed mid-prompt, the next prompt on another replica (Redis), or a serve process
// SIGKILLed and restarted on its data directory: the session's
// events, live and replayed from the log, read seq strictly increasing and prompts 1, 2 — before,
// the next prompt started again from the last prompt that had ended and repeated the killed one's seqs.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../host/store/open.js';
import { monotonic } from './seq-helpers.js';
import { haveRedis } from './redis-server.js';
import { replicaFleet } from './replica-fleet.js';
import { json, scriptDir, sse, startReplica, type, type Replica, type SseClient, type SseMessage } from './processes.js';

const NOTICED_WITHIN_MS = 20_000;

/** The session's own events (those with a seq) among SSE messages. */
const hostEvents = (messages: readonly SseMessage[], id: string) =>
  messages.map((m) => m.data as { type: string; seq?: unknown; sessionId?: string; turn?: number }).filter((e) => e.sessionId === id && typeof e.seq === 'number') as { type: string; seq: number; turn?: number }[];

describe.skipIf(!haveRedis())('seq across a replica killed mid-prompt (Redis)', () => {
  const fleet = replicaFleet();
  const { replica, watch } = fleet;

  it('the next prompt, on the other replica, counts on past every seq the killed one used', async () => {
    const [a, b] = await Promise.all([replica('a'), replica('b')]);
    const { json: s } = await json(`${a.url}/session`, 'POST', {});
    const onB = await watch(`${b.url}/event?session=${s.id}`);
    await json(`${a.url}/session/${s.id}/prompt`, 'POST', { prompt: 'calc please' });
    await onB.next(type('control.request'));
    await a.kill('SIGKILL');
    await onB.next(type('prompt.interrupted'), NOTICED_WITHIN_MS);
    expect((await json(`${b.url}/session/${s.id}/prompt`, 'POST', { prompt: 'hello' })).status).toBe(202);
    await onB.next(type('agent.end'));
    const check = (messages: readonly SseMessage[]) => {
      const events = hostEvents(messages, s.id);
      const seqs = events.map((e) => e.seq);
      expect(seqs.every((q, i) => i === 0 || q > seqs[i - 1]!), seqs.join(',')).toBe(true);
      expect(events.filter((e) => e.type === 'agent.start').map((e) => e.turn)).toEqual([1, 2]);
    };
    check(onB.messages);
    // A client replaying the session from the start of the log sees the same order.
    const replay = await watch(`${b.url}/event?session=${s.id}`, `${onB.messages[0]!.data.lastEventId.split('.')[0]}.0-0`);
    await replay.next(type('agent.end'));
    check(replay.messages);
    // The result is stored just after agent.end is published.
    let view = (await json(`${b.url}/session/${s.id}`)).json;
    for (let i = 0; i < 100 && view.running; i++) view = (await json(`${b.url}/session/${s.id}`)).json;
    expect(view).toMatchObject({ running: false, prompts: 2, lastResult: { subtype: 'success', text: 'Hello.' } });
  }, 30_000 + NOTICED_WITHIN_MS);

  it('the stored resumeAt never moves back (one Lua script decides, where it is stored)', async () => {
    const opened = await openStore({ kind: 'redis', url: fleet.redis.url, prefix: 'seq2mono:' });
    try {
      await monotonic(opened.store);
      // A tampered value (huge, fractional, a wrong `open`) is replaced like a missing one, as resumeAtOf ignores it.
      const client = (opened.store as unknown as { redis: import('ioredis').Redis }).redis;
      for (const raw of ['{"seq":1,"turn":1e300}', '{"seq":1.5,"turn":1}', '{"seq":1,"turn":1,"open":"yes"}', '[1]']) {
        await client.hset('seq2mono:s:m1', 'resumeAt', raw);
        await opened.store.update('m1', { resumeAt: { seq: 3, turn: 1 } });
        expect((await opened.store.get('m1'))?.resumeAt, raw).toEqual({ seq: 3, turn: 1 });
      }
    } finally {
      await opened.close();
    }
  });
});

describe('seq across a serve process SIGKILLed mid-prompt (data directory)', () => {
  it('the restarted process counts on past every seq the killed one sent', async () => {
    const dir = scriptDir();
    const first = await startReplica(dir, ['--data-dir', 'data']);
    let second: Replica | undefined;
    const clients: SseClient[] = [];
    try {
      const { json: s } = await json(`${first.url}/session`, 'POST', {});
      const watch = await sse(`${first.url}/event?session=${s.id}`);
      clients.push(watch);
      await json(`${first.url}/session/${s.id}/prompt`, 'POST', { prompt: 'calc please' });
      await watch.next(type('control.request'));
      await first.kill('SIGKILL');
      second = await startReplica(dir, ['--data-dir', 'data']);
      const again = await sse(`${second.url}/event?session=${s.id}`);
      clients.push(again);
      let posted = await json(`${second.url}/session/${s.id}/prompt`, 'POST', { prompt: 'hello' });
      // The new process reports the killed prompt interrupted first (its sweep), then takes prompts.
      for (let i = 0; i < 200 && posted.status === 409; i++) {
        await new Promise((r) => setTimeout(r, 50));
        posted = await json(`${second.url}/session/${s.id}/prompt`, 'POST', { prompt: 'hello' });
      }
      expect(posted.status).toBe(202);
      await again.next(type('agent.end'));
      const events = [...hostEvents(watch.messages, s.id), ...hostEvents(again.messages, s.id)];
      const seqs = events.map((e) => e.seq);
      expect(seqs.every((q, i) => i === 0 || q > seqs[i - 1]!), seqs.join(',')).toBe(true);
      expect(events.filter((e) => e.type === 'agent.start').map((e) => e.turn)).toEqual([1, 2]);
    } finally {
      for (const c of clients) c.close();
      await Promise.all([first.kill('SIGKILL'), second?.kill('SIGKILL')]);
    }
  }, 40_000);
});
