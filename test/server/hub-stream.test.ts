// The hub's web-stream clients (the path Deno takes, and any runtime without a direct connection): the stream holds
// nothing (high-water mark 0) and the hub keeps the stream's pull pending while its reader takes every chunk at once,
// so a chunk enqueued while the reader is not reading stays in the stream. That chunk must count against the client's
// limits until the reader asks again (else a slow reader holds one chunk more than `clientQueueLimit` says), and must
// stop counting once it is read.
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../host/server/hub.js';
import type { StreamEvent } from '../../host/server/events.js';
import { MemoryEventLog } from '../../host/store/memory-log.js';

const options = { replayBufferSize: 100, heartbeatMs: 60_000, clientQueueLimit: 5, clientQueueBytes: 1 << 20, retryMs: 1000 };
const delta = (seq: number): StreamEvent => ({ type: 'text.delta', sessionId: 's', seq, time: 0, text: `t${seq}` });
const tick = () => new Promise<void>((r) => setTimeout(r, 0));
const decoder = new TextDecoder();
const seqs = (text: string) => [...text.matchAll(/"seq":(\d+)/g)].map((m) => Number(m[1]));

/** A hub with one web-stream client whose first chunk (retry and server.connected) has been read. */
async function opened(): Promise<{ hub: EventHub; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const hub = new EventHub(options, new MemoryEventLog(100));
  const reader = hub.open({ format: 'plain' }).getReader();
  const first = await reader.read();
  expect(decoder.decode(first.value)).toContain('server.connected');
  return { hub, reader };
}

/** Publishes `seq`s one tick each (one chunk each). */
async function publish(hub: EventHub, ...seq: number[]): Promise<void> {
  for (const n of seq) {
    hub.publish(delta(n));
    await tick();
  }
}

describe('hub web-stream clients', () => {
  it('counts the chunk the stream keeps for a reader that stopped reading: dropped past the limit, not one later', async () => {
    const { hub, reader } = await opened();
    // The first is kept by the stream, the next four wait in the client's queue: five frames, the limit.
    await publish(hub, 1, 2, 3, 4, 5);
    expect(hub.clientCount).toBe(1);
    await publish(hub, 6);
    expect(hub.clientCount).toBe(0);
    await expect(reader.read()).rejects.toThrow(/slow client: 6 frames/);
  });

  it('stops counting the kept chunk once the reader asks again, and delivers what waited in order', async () => {
    const { hub, reader } = await opened();
    await publish(hub, 1, 2, 3);
    // The kept chunk, then (the reader asks again: the pull) the two that waited, as one chunk.
    expect(seqs(decoder.decode((await reader.read()).value))).toEqual([1]);
    expect(seqs(decoder.decode((await reader.read()).value))).toEqual([2, 3]);
    // Nothing counts now: five more fit again (one kept, four queued).
    await publish(hub, 4, 5, 6, 7, 8);
    expect(hub.clientCount).toBe(1);
    await publish(hub, 9);
    expect(hub.clientCount).toBe(0);
  });

  it('a reader that reads all along gets every event once, in order', async () => {
    const { hub, reader } = await opened();
    let text = '';
    const reading = (async () => {
      while (seqs(text).length < 300) text += decoder.decode((await reader.read()).value);
    })();
    for (let n = 0; n < 300; n++) {
      hub.publish(delta(n));
      if (n % 7 === 6) await tick();
    }
    await reading;
    expect(seqs(text)).toEqual(Array.from({ length: 300 }, (_, n) => n));
    expect(hub.clientCount).toBe(1);
  });

  it('closes after the kept chunk and the queue are read (shutdown waits for a reader that comes back)', async () => {
    const { hub, reader } = await opened();
    await publish(hub, 1, 2);
    const closed = hub.close(5_000);
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    await closed;
    expect(seqs(text)).toEqual([1, 2]);
    expect(text).toContain('server.closing');
    expect(hub.clientCount).toBe(0);
  });
});
