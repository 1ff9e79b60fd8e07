// The Redis log's queue: the oldest leave first, what is kept stays in order across compactions.
import { describe, expect, it } from 'vitest';
import { Fifo } from '../../host/store/fifo.js';

describe('Fifo', () => {
  it('drops from the front in order and keeps the newest, across many compactions', () => {
    const queue = new Fifo<number>();
    const cap = 1000;
    for (let i = 0; i < 25_000; i++) {
      if (queue.size >= cap) queue.drop(1);
      queue.push(i);
    }
    expect(queue.size).toBe(cap);
    expect(queue.first(cap)).toEqual(Array.from({ length: cap }, (_, i) => 24_000 + i));
    expect(queue.at(0)).toBe(24_000);
    expect(queue.at(cap - 1)).toBe(24_999);
    expect(queue.at(cap)).toBeUndefined();
    expect(queue.at(-1)).toBeUndefined();
  });

  it('drops at most what it holds, and retains in place in order', () => {
    const queue = new Fifo<number>();
    for (let i = 0; i < 10; i++) queue.push(i);
    queue.drop(3);
    queue.retain((n) => n % 2 === 0);
    expect(queue.first(100)).toEqual([4, 6, 8]);
    queue.drop(50);
    expect(queue.size).toBe(0);
    queue.push(10);
    expect(queue.first(5)).toEqual([10]);
  });
});
