// The hub joins a replay and live delivery without a gap or a duplicate,
// even when reading the log takes a while (Redis) and events keep coming.
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../host/server/hub.js';
import type { ServerEvent } from '../../host/server/events.js';
import { MemoryEventLog } from '../../host/store/memory-log.js';
import type { Since } from '../../host/store/types.js';
import { readSse } from '../server/helpers.js';

class SlowLog extends MemoryEventLog {
  onSince: (() => void) | undefined;
  override async since(afterId: string): Promise<Since> {
    // The snapshot is taken at once; it arrives late, while more is appended.
    const snapshot = await super.since(afterId);
    this.onSince?.();
    await new Promise((r) => setTimeout(r, 30));
    return snapshot;
  }
}

const ev = (n: number): ServerEvent => ({ type: 'session.created', time: n, sessionId: `s${n}` });
const options = { replayBufferSize: 100, heartbeatMs: 60_000, clientQueueLimit: 1000, clientQueueBytes: 1 << 20, retryMs: 1000 };

describe('replay joined to live delivery', () => {
  it('delivers every event once, in order, when events arrive while the replay is read', async () => {
    const log = new SlowLog(100);
    const hub = new EventHub(options, log);
    for (let i = 1; i <= 5; i++) hub.publish(ev(i));
    // While the replay is in flight: 5 more, one of which is also in the snapshot's range.
    log.onSince = () => {
      for (let i = 6; i <= 10; i++) hub.publish(ev(i));
    };
    const body = hub.open({ format: 'plain', lastEventId: `${log.epoch}.2` });
    const got = await readSse(body, (m) => m.length >= 9);
    const positions = got.slice(1).map((m) => Number(m.id!.split('.')[1]));
    expect(positions).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    await hub.close(10);
  });

  it('an id of another epoch gets replay.gap (unknown-id) and then everything held', async () => {
    const log = new MemoryEventLog(100);
    const hub = new EventHub(options, log);
    for (let i = 1; i <= 3; i++) hub.publish(ev(i));
    const got = await readSse(hub.open({ format: 'plain', lastEventId: 'otherepoch.2' }), (m) => m.length >= 5);
    expect(JSON.parse(got[1]!.data)).toMatchObject({ type: 'replay.gap', reason: 'unknown-id', missed: null, oldestAvailable: `${log.epoch}.1` });
    expect(got.slice(2).map((m) => m.id)).toEqual([1, 2, 3].map((n) => `${log.epoch}.${n}`));
    await hub.close(10);
  });

  it('a replay read that stalls while live events pile up drops the client past its queue limit (no unbounded hold)', async () => {
    const log = new MemoryEventLog(100);
    let release!: () => void;
    log.since = () => new Promise<Since>((resolve) => (release = () => resolve({ kind: 'ok', entries: [] })));
    const hub = new EventHub({ ...options, clientQueueLimit: 50 }, log);
    hub.publish(ev(1));
    const body = hub.open({ format: 'plain', lastEventId: `${log.epoch}.1` });
    const reader = body.getReader();
    await new Promise((r) => setTimeout(r, 5));
    for (let i = 2; i <= 60; i++) hub.publish(ev(i));
    await new Promise((r) => setTimeout(r, 5));
    // The stream is errored (cut), not ended: the client reconnects with its Last-Event-ID.
    const outcome = await (async () => {
      try {
        for (;;) if ((await reader.read()).done) return 'ended';
      } catch {
        return 'cut';
      }
    })();
    expect(outcome).toBe('cut');
    release();
    await hub.close(10);
  });
});
