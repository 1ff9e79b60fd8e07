// The stores' one byte-bounded LRU (host/store/byte-lru.ts): the file store's transcripts and the Redis log's
// replayed entries are kept by it (red18, red22).
import { describe, expect, it } from 'vitest';
import { ByteLru } from '../../host/store/byte-lru.js';

describe('ByteLru', () => {
  it('drops the least recently used past its bytes, telling onEvict', () => {
    const gone: string[] = [];
    const lru = new ByteLru<string, number>(10, (key) => gone.push(key));
    lru.set('a', 1, 4);
    lru.set('b', 2, 4);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3, 4);
    expect(gone).toEqual(['b']);
    expect([lru.has('a'), lru.has('b'), lru.has('c'), lru.bytes, lru.size]).toEqual([true, false, true, 8, 2]);
    lru.grow('a', 3);
    expect(gone).toEqual(['b', 'c']);
    lru.forget('a');
    expect([lru.bytes, lru.size, gone.length]).toEqual([0, 0, 2]);
  });

  it('keeps a pinned key past its bytes until its operation ends', async () => {
    const gone: string[] = [];
    const lru = new ByteLru<string, true>(5, (key) => gone.push(key));
    await lru.pinned('a', async () => {
      lru.set('a', true, 4);
      lru.set('b', true, 4);
      expect(gone).toEqual(['b']);
      lru.grow('a', 10);
      expect(lru.has('a')).toBe(true);
    });
    expect(gone).toEqual(['b', 'a']);
    expect(lru.bytes).toBe(0);
  });
});
