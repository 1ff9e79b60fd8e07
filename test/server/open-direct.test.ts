// EventHub.openDirect (the SSE fast route's body on Node and Bun, Connection.respond): no web stream; the
// connection is attached when the runtime can take bytes, and whatever happened before is kept to.
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../host/server/hub.js';
import type { DirectSink } from '../../host/runtime/serve-types.js';
import { MemoryEventLog } from '../../host/store/memory-log.js';

const options = { replayBufferSize: 100, heartbeatMs: 60_000, clientQueueLimit: 3, clientQueueBytes: 1 << 20, retryMs: 1000 };
const decoder = new TextDecoder();
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

function sink(): DirectSink & { writes: string[]; ended: boolean; destroyed: boolean } {
  return {
    writes: [],
    ended: false,
    destroyed: false,
    write(bytes) {
      this.writes.push(decoder.decode(bytes));
      return true;
    },
    end() {
      this.ended = true;
    },
    destroy() {
      this.destroyed = true;
    },
  };
}

describe('EventHub.openDirect', () => {
  it('queues until attached, then writes retry, server.connected and the events published meanwhile in one write', async () => {
    const hub = new EventHub(options, new MemoryEventLog(100));
    const attach = hub.openDirect({ format: 'plain' });
    expect(hub.clientCount).toBe(1);
    hub.publish({ type: 'text.delta', sessionId: 's', seq: 1, time: 0, text: 'a' });
    await tick();
    const connection = sink();
    const source = attach(connection);
    expect(connection.writes).toHaveLength(1);
    expect(connection.writes[0]).toMatch(/^retry: 1000\n\nid: .*\ndata: \{"type":"server.connected".*\n\nid: .*\ndata: \{"type":"text.delta".*"seq":1/s);
    source.close();
    expect(hub.clientCount).toBe(0);
    await hub.close(10);
  });

  it('cuts a connection attached after its client was dropped as too slow, and ends one attached after shutdown', async () => {
    const hub = new EventHub(options, new MemoryEventLog(100));
    const attach = hub.openDirect({ format: 'plain' });
    for (let n = 0; n < 5; n++) hub.publish({ type: 'text.delta', sessionId: 's', seq: n, time: 0, text: 'a' });
    await tick();
    expect(hub.clientCount).toBe(0); // past clientQueueLimit before the runtime took anything
    const late = sink();
    attach(late);
    expect(late.destroyed).toBe(true);
    expect(late.writes).toEqual([]);
    await hub.close(10);
    const afterClose = hub.openDirect({ format: 'plain' });
    const closed = sink();
    afterClose(closed);
    expect(closed.ended).toBe(true);
    expect(closed.destroyed).toBe(false);
  });
});
