// The bus never blocks the publisher; full queues drop and count; throwing subscribers are isolated.
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../host/events/bus.js';
import { channel } from '../../host/events/stream.js';
import type { HostEvent } from '../../host/events/types.js';

const ev = (seq: number): HostEvent => ({ type: 'text.delta', text: String(seq), seq, sessionId: 's', time: 0 });
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('EventBus', () => {
  it('delivers every event in order to every subscriber', async () => {
    const bus = new EventBus();
    const a: number[] = [];
    const b: number[] = [];
    bus.subscribe((e) => void a.push(e.seq));
    bus.subscribe((e) => void b.push(e.seq));
    for (let i = 1; i <= 5; i++) bus.publish(ev(i));
    await tick();
    expect(a).toEqual([1, 2, 3, 4, 5]);
    expect(b).toEqual(a);
  });

  it('publish returns before a slow subscriber has seen anything', () => {
    const bus = new EventBus();
    let seen = 0;
    bus.subscribe(async () => {
      seen++;
      await new Promise((r) => setTimeout(r, 50));
    });
    const t0 = performance.now();
    for (let i = 1; i <= 100; i++) bus.publish(ev(i));
    expect(performance.now() - t0).toBeLessThan(40);
    expect(seen).toBe(0);
  });

  it('a synchronous burst larger than the queue loses nothing for a subscriber that keeps up', async () => {
    const bus = new EventBus();
    const sync: number[] = [];
    const asyncFast: number[] = [];
    bus.subscribe((e) => void sync.push(e.seq), { buffer: 16 });
    bus.subscribe(async (e) => void asyncFast.push(e.seq)); // default buffer 4096
    for (let i = 1; i <= 10_000; i++) bus.publish(ev(i));
    await tick();
    for (let i = 0; i < 50 && asyncFast.length < 10_000; i++) await tick();
    expect(sync).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 1));
    // An async subscriber is busy while its promise is pending: it keeps what fits and hears of the rest.
    expect(asyncFast.length).toBeGreaterThan(4096);
  });

  it('a full queue drops for that subscriber alone, then sends events.dropped with the count', async () => {
    const bus = new EventBus();
    const release: Array<() => void> = [];
    const slow: HostEvent[] = [];
    const fast: HostEvent[] = [];
    bus.subscribe((e) => {
      slow.push(e);
      return new Promise<void>((r) => release.push(r));
    }, { buffer: 3 });
    bus.subscribe((e) => void fast.push(e));
    for (let i = 1; i <= 10; i++) bus.publish(ev(i));
    await tick();
    // #1..#3 filled the queue; at #4 the idle subscriber was handed #1 (it is now busy with it), so #4
    // fit; #5..#10 were dropped while it stayed busy.
    expect(slow.map((e) => e.seq)).toEqual([1]);
    expect(fast).toHaveLength(10);
    while (release.length) {
      release.shift()?.();
      await tick();
    }
    expect(slow.map((e) => e.seq)).toEqual([1, 2, 3, 4, 10]);
    expect(slow[4]).toMatchObject({ type: 'events.dropped', count: 6, seq: 10 });
    bus.publish(ev(11));
    await tick();
    release.shift()?.();
    expect(slow.at(-1)?.seq).toBe(11);
  });

  it('a throwing or rejecting subscriber affects neither the others nor the publisher', async () => {
    const bus = new EventBus();
    const errors: unknown[] = [];
    const got: number[] = [];
    bus.subscribe(() => { throw new Error('sync'); }, { onError: (e) => errors.push(e) });
    bus.subscribe(async () => { throw new Error('async'); }, { onError: (e) => errors.push(e) });
    bus.subscribe((e) => void got.push(e.seq));
    expect(() => bus.publish(ev(1))).not.toThrow();
    bus.publish(ev(2));
    await tick();
    expect(got).toEqual([1, 2]);
    expect(errors).toHaveLength(4);
  });

  it('unsubscribe stops delivery, also of what was queued', async () => {
    const bus = new EventBus();
    const got: number[] = [];
    const off = bus.subscribe((e) => void got.push(e.seq));
    bus.publish(ev(1));
    off();
    bus.publish(ev(2));
    await tick();
    expect(got).toEqual([]);
    expect(bus.subscriberCount).toBe(0);
  });

  it('rejects a buffer below 1', () => {
    expect(() => new EventBus().subscribe(() => {}, { buffer: 0 })).toThrow(RangeError);
  });
});

describe('channel', () => {
  it('yields pushed values, then ends', async () => {
    const ch = channel<number>();
    ch.push(1);
    setTimeout(() => (ch.push(2), ch.end()), 5);
    const out: number[] = [];
    for await (const v of ch) out.push(v);
    expect(out).toEqual([1, 2]);
  });

  it('calls onReturn when the consumer breaks early, and only once', async () => {
    let returned = 0;
    const ch = channel<number>(() => returned++);
    ch.push(1);
    ch.push(2);
    for await (const v of ch) if (v === 1) break;
    expect(returned).toBe(1);
    ch.end();
    expect(returned).toBe(1);
  });
});
