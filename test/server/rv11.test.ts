// Hostile review of the hub writing to Bun's direct controller itself (`DirectSink.writer`): a writer that answers a
// promise when its buffer is full (Bun's "buffer full"), one that never settles, one rejected when the peer is gone,
// and one that throws on the write made when the buffer drained. Each must leave memory bounded, the client
// forgotten by the hub, and the other clients served.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../../host/server/hub.js';
import type { StreamEvent } from '../../host/server/events.js';
import type { DirectSink, DirectSource, RuntimeWriter } from '../../host/runtime/serve-types.js';
import { MemoryEventLog } from '../../host/store/memory-log.js';

const options = { replayBufferSize: 100, heartbeatMs: 60_000, clientQueueLimit: 10, clientQueueBytes: 1 << 20, retryMs: 1000 };
const delta = (seq: number): StreamEvent => ({ type: 'text.delta', sessionId: 's', seq, time: 0, text: `t${seq}` });
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

/** Bun's direct controller as the hub sees it: a number when taken, else one promise until the buffer drains. */
class BunLike implements RuntimeWriter {
  writes: Uint8Array[] = [];
  full = false;
  throwNext = false;
  #pending: { promise: Promise<number>; resolve: (n: number) => void; reject: (e: unknown) => void } | undefined;
  write(bytes: Uint8Array): number | Promise<number> {
    if (this.throwNext) throw new Error('write after the connection closed');
    this.writes.push(bytes);
    if (!this.full) return bytes.length;
    if (this.#pending === undefined) {
      let resolve!: (n: number) => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<number>((res, rej) => ((resolve = res), (reject = rej)));
      this.#pending = { promise, resolve, reject };
    }
    return this.#pending.promise;
  }
  drain(): void {
    this.full = false;
    this.#pending?.resolve(0);
    this.#pending = undefined;
  }
  gone(): void {
    this.#pending?.reject(new Error('closed'));
    this.#pending = undefined;
  }
}

class Conn implements DirectSink {
  readonly writer = new BunLike();
  destroyed = false;
  ended = false;
  source!: DirectSource;
  write(): boolean {
    throw new Error('the hub must write to `writer` when there is one');
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

function attach(hub: EventHub): Conn {
  const conn = new Conn();
  conn.source = hub.openDirect({ format: 'plain' })(conn);
  return conn;
}

const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);
process.on('unhandledRejection', onUnhandled);
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the hub on a Bun-like direct writer', () => {
  it('a paused reader whose buffer-full promise never settles is cut at the queue limit; memory stays bounded', async () => {
    const hub = new EventHub(options, new MemoryEventLog(100));
    const slow = attach(hub);
    const fast = attach(hub);
    await tick();
    slow.writer.full = true;
    hub.publish(delta(0));
    await tick();
    const writesWhenFull = slow.writer.writes.length;
    for (let n = 1; n <= 30; n++) {
      hub.publish(delta(n));
      await tick();
    }
    expect(slow.destroyed).toBe(true);
    // Nothing more was handed to the full writer after its promise: the hub queued, then dropped.
    expect(slow.writer.writes.length).toBe(writesWhenFull);
    expect(hub.clientCount).toBe(1);
    expect(fast.writer.writes.map((w) => new TextDecoder().decode(w)).join('')).toContain('"seq":30');
    await hub.close(10);
  });

  it('a promise rejected (peer gone) forgets the client; a drained one delivers the queue in one write', async () => {
    const hub = new EventHub(options, new MemoryEventLog(100));
    const a = attach(hub);
    const b = attach(hub);
    await tick();
    a.writer.full = b.writer.full = true;
    hub.publish(delta(0));
    await tick();
    for (let n = 1; n <= 3; n++) hub.publish(delta(n));
    await tick();
    const before = b.writer.writes.length;
    a.writer.gone();
    b.writer.drain();
    await tick();
    expect(hub.clientCount).toBe(1);
    expect(b.writer.writes.length).toBe(before + 1);
    expect(new TextDecoder().decode(b.writer.writes.at(-1))).toMatch(/"seq":1[\s\S]*"seq":3/);
    await hub.close(10);
  });

  it('a writer that throws on the write made when its buffer drained drops that client only, with no unhandled rejection', async () => {
    unhandled.length = 0;
    const hub = new EventHub(options, new MemoryEventLog(100));
    const bad = attach(hub);
    const good = attach(hub);
    await tick();
    bad.writer.full = true;
    hub.publish(delta(0));
    await tick();
    hub.publish(delta(1));
    await tick();
    bad.writer.throwNext = true;
    bad.writer.drain();
    await tick();
    await tick();
    expect(unhandled).toEqual([]);
    expect(bad.destroyed).toBe(true);
    expect(hub.clientCount).toBe(1);
    hub.publish(delta(2));
    await tick();
    expect(new TextDecoder().decode(good.writer.writes.at(-1))).toContain('"seq":2');
    await hub.close(10);
  });

  it('many clients throwing in one flush are all dropped and the rest still get the tick', async () => {
    const hub = new EventHub(options, new MemoryEventLog(100));
    const conns = Array.from({ length: 20 }, () => attach(hub));
    await tick();
    conns.forEach((c, i) => (c.writer.throwNext = i % 2 === 0));
    hub.publish(delta(7));
    await tick();
    expect(hub.clientCount).toBe(10);
    conns.forEach((c, i) => {
      if (i % 2 === 0) expect(c.destroyed).toBe(true);
      else expect(new TextDecoder().decode(c.writer.writes.at(-1))).toContain('"seq":7');
    });
    await hub.close(10);
  });
});
