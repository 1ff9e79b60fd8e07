// red40: the bus marked a subscriber's queue as draining before it scheduled the drain, so a throw
// in between (a RangeError from queueMicrotask, on a nearly exhausted stack) left it marked with
// no drain to come: that subscriber heard nothing more for the rest of the session. A throw at any
// point (inside publish, a subscriber, its onError, the dropped-count notice) now leaves the bus
// delivering (the same on Node, Deno and Bun against dist/: test/xrt/red40-deeplog.xrt.ts).
// Fails on the old code: the first, third and fifth tests (nothing heard after the throw; the drain's
// own throw an unhandled rejection). The second and fourth hold the new scheduling to its promises.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../host/events/bus.js';
import type { HostEvent } from '../../host/events/types.js';
import { stackEndProblems } from '../fixtures/deep-log.js';

const ev = (seq: number): HostEvent => ({ type: 'text.delta', text: String(seq), seq, sessionId: 's', time: 0 });
const tick = () => new Promise((r) => setTimeout(r, 0));
const overflow = () => new RangeError('Maximum call stack size exceeded');

afterEach(() => vi.restoreAllMocks());

describe('a throw anywhere never freezes the bus (red40)', () => {
  it('a publish whose scheduling throws: the event is kept and goes out with the next one', async () => {
    const bus = new EventBus();
    const got: number[] = [];
    bus.subscribe((e) => void got.push(e.seq));
    vi.spyOn(globalThis, 'queueMicrotask').mockImplementationOnce(() => {
      throw overflow();
    });
    expect(() => bus.publish(ev(1))).toThrow(RangeError);
    bus.publish(ev(2));
    await tick();
    expect(got).toEqual([1, 2]);
  });

  it('a publish that throws after scheduling: one drain at a time, a busy subscriber is never handed a second event', async () => {
    const bus = new EventBus();
    const got: number[] = [];
    let busy = 0;
    let overlapped = false;
    const release: Array<() => void> = [];
    bus.subscribe((e) => {
      got.push(e.seq);
      overlapped ||= busy > 0;
      busy++;
      return new Promise<void>((resolve) => release.push(() => (busy--, resolve())));
    });
    const queue = globalThis.queueMicrotask.bind(globalThis);
    vi.spyOn(globalThis, 'queueMicrotask').mockImplementationOnce((task) => {
      queue(task);
      throw overflow();
    });
    expect(() => bus.publish(ev(1))).toThrow(RangeError);
    bus.publish(ev(2));
    bus.publish(ev(3));
    for (let i = 0; i < 10; i++) {
      await tick();
      release.shift()?.();
    }
    expect(got).toEqual([1, 2, 3]);
    expect(overlapped).toBe(false);
  });

  it('publishes from every depth near the stack limit: wherever in publish the RangeError strikes, the bus goes on', async () => {
    expect(await stackEndProblems({ EventBus })).toEqual([]);
  });

  it('a subscriber that throws, and its onError that throws too, lose only their own event', async () => {
    const bus = new EventBus();
    const got: number[] = [];
    bus.subscribe(
      (e) => {
        if (e.seq === 1) throw overflow();
        got.push(e.seq);
      },
      {
        onError: () => {
          throw overflow();
        },
      },
    );
    bus.publish(ev(1));
    bus.publish(ev(2));
    await tick();
    bus.publish(ev(3));
    await tick();
    expect(got).toEqual([2, 3]);
  });

  it('a dropped-count notice that throws as the drain makes it: reported, its count kept for the next event', async () => {
    const bus = new EventBus();
    const got: HostEvent[] = [];
    const errors: unknown[] = [];
    const release: Array<() => void> = [];
    bus.subscribe((e) => {
      got.push(e);
      return new Promise<void>((resolve) => release.push(resolve));
    }, { buffer: 1, onError: (error) => errors.push(error) });
    bus.publish(ev(1)); // queued
    bus.publish(ev(2)); // full and idle: #1 handed over at once (now busy), #2 queued
    bus.publish(ev(3)); // full and busy: dropped
    vi.spyOn(Date, 'now').mockImplementationOnce(() => {
      throw overflow();
    });
    release.shift()?.();
    await tick(); // #2 handed over; the queue is empty, so the drain makes the notice, and throws
    expect(errors).toEqual([expect.any(RangeError)]);
    bus.publish(ev(4));
    for (let i = 0; i < 5; i++) {
      release.shift()?.();
      await tick();
    }
    expect(got.map((e) => (e.type === 'events.dropped' ? `dropped ${e.count}` : e.seq))).toEqual([1, 2, 'dropped 1', 4]);
  });
});
