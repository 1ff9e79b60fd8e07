// The one bounded reader (host/read-capped.ts) behind request bodies, plugin downloads and provider error bodies.
import { describe, expect, it } from 'vitest';
import { readCapped } from '../../host/read-capped.js';

const bytes = (...xs: number[]) => new Uint8Array(xs);

/** A stream of `chunks`, then (when `hang`) nothing more, ever; `cancelled` says whether the reader let it go. */
function source(chunks: Uint8Array[], hang = false) {
  const state = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      if (!hang) controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('readCapped', () => {
  it('reads a body within the limit whole, one chunk without a copy', async () => {
    const one = bytes(1, 2, 3);
    const single = await readCapped(source([one]).stream, 3);
    expect(single).toMatchObject({ end: 'done', size: 3 });
    expect(single.bytes).toBe(one);
    const many = await readCapped(source([bytes(1), bytes(2, 3)]).stream, 10);
    expect([...many.bytes]).toEqual([1, 2, 3]);
  });

  it('stops as soon as the limit is passed, cancels the stream, and keeps a prefix only when asked', async () => {
    const refused = source([bytes(1, 2), bytes(3, 4), bytes(5)], true);
    const over = await readCapped(refused.stream, 3);
    expect(over.end).toBe('over');
    expect(over.bytes.length).toBe(0);
    expect(refused.state.cancelled).toBe(true);
    const kept = await readCapped(source([bytes(1, 2), bytes(3, 4)]).stream, 3, { partial: true });
    expect([...kept.bytes]).toEqual([1, 2, 3]);
  });

  it('gives up at the deadline (a body that never ends) and on abort, cancelling the stream', async () => {
    const stalled = source([bytes(1)], true);
    const started = Date.now();
    const expired = await readCapped(stalled.stream, 100, { timeoutMs: 50, partial: true });
    expect(expired.end).toBe('expired');
    expect([...expired.bytes]).toEqual([1]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(stalled.state.cancelled).toBe(true);
    const controller = new AbortController();
    const pending = readCapped(source([], true).stream, 100, { signal: controller.signal });
    controller.abort();
    expect((await pending).end).toBe('aborted');
  });

  it('rethrows a failed read unless a partial answer is wanted', async () => {
    const failing = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.error(new Error('reset'));
        },
      });
    await expect(readCapped(failing(), 10)).rejects.toThrow('reset');
    expect((await readCapped(failing(), 10, { partial: true })).end).toBe('failed');
  });
});
