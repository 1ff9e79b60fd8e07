// sse10: the replay window's frame bytes live in byte slabs (host/server/frame-slabs.ts), out of the JS heap.
// The store itself: frames written one after the other, a slab let go once its frames are all evicted (never
// written again: clients may still hold views of it), a frame larger than a slab in a buffer of its own,
// multibyte UTF-8 across a slab's end. Fails on the code before (no such store).
import { describe, expect, it } from 'vitest';
import { FrameSlabs, joinFrames, SLAB_BYTES } from '../../host/server/frame-slabs.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

describe('frame slabs', () => {
  it('writes frames one after the other, opens a slab when one is full, and lets a slab go once its frames are evicted', () => {
    const slabs = new FrameSlabs(32);
    const a = slabs.write('0123456789');
    const at = [slabs.lastSlab, slabs.lastStart];
    const b = slabs.write('abcdefghij');
    expect([slabs.lastSlab, slabs.lastStart]).toEqual([at[0], 10]);
    expect(b.buffer).toBe(a.buffer);
    expect(b.byteOffset).toBe(a.byteOffset + 10);
    const c = slabs.write('ABCDEFGHIJKLMNOP'); // 16 bytes: 12 left in the first slab
    expect(c.buffer).not.toBe(a.buffer);
    expect([slabs.lastStart, slabs.slabCount]).toEqual([0, 2]);
    expect(decoder.decode(slabs.view(at[0]!, 10, 10))).toBe('abcdefghij');
    // The first slab's two frames are evicted: it is let go; its bytes are never overwritten (views of it stay as they were).
    slabs.release(at[0]!);
    expect(slabs.slabCount).toBe(2);
    slabs.release(at[0]!);
    expect(slabs.slabCount).toBe(1);
    for (let i = 0; i < 10; i++) slabs.write('xxxxxxxxxxxxxxxx');
    expect(decoder.decode(a)).toBe('0123456789');
    expect(decoder.decode(b)).toBe('abcdefghij');
  });

  it('keeps the slab being filled even when every frame in it was evicted', () => {
    const slabs = new FrameSlabs(64);
    slabs.write('one');
    const slab = slabs.lastSlab;
    slabs.release(slab);
    expect(slabs.slabCount).toBe(1);
    const next = slabs.write('two');
    expect([slabs.lastSlab, slabs.lastStart]).toEqual([slab, 3]);
    expect(decoder.decode(next)).toBe('two');
  });

  it('gives a frame larger than a slab a buffer of its own, let go when it is evicted', () => {
    const slabs = new FrameSlabs(16);
    slabs.write('small');
    const big = 'é'.repeat(20); // 20 characters, 40 bytes
    const view = slabs.write(big);
    const own = slabs.lastSlab;
    expect([view.length, decoder.decode(view), slabs.lastStart, slabs.slabCount]).toEqual([40, big, 0, 2]);
    // 10 characters but 30 bytes: only its bytes show it does not fit in a fresh slab either.
    const cjk = '漢'.repeat(10);
    expect(decoder.decode(slabs.write(cjk))).toBe(cjk);
    expect(slabs.slabCount).toBe(4);
    slabs.release(own);
    expect(slabs.slabCount).toBe(3);
    expect(decoder.decode(view)).toBe(big);
  });

  it('never splits a multibyte character at a slab\'s end: the frame goes whole to the next slab', () => {
    const slabs = new FrameSlabs(16);
    const texts = ['abcdefghijklm', '😀é', 'zz', 'x€€€€y', '😀😀😀😀'];
    const views = texts.map((t) => slabs.write(t));
    expect(views.map((v) => decoder.decode(v))).toEqual(texts);
    expect(views.map((v) => v.length)).toEqual(texts.map((t) => encoder.encode(t).length));
    for (const v of views) expect(v.byteOffset + v.length).toBeLessThanOrEqual(16);
  });

  it('joins frames lying side by side in a slab as one view, others as a copy', () => {
    const slabs = new FrameSlabs(SLAB_BYTES);
    const [a, b, c] = ['id: 1\n\n', 'id: 2\n\n', 'id: 3\n\n'].map((t) => slabs.write(t)) as [Uint8Array, Uint8Array, Uint8Array];
    const joined = joinFrames([a, b, c]);
    expect(joined.buffer).toBe(a.buffer);
    expect([joined.byteOffset, joined.length]).toEqual([a.byteOffset, 21]);
    const skipped = joinFrames([a, c]);
    expect(skipped.buffer).not.toBe(a.buffer);
    expect(decoder.decode(skipped)).toBe('id: 1\n\nid: 3\n\n');
    expect(joinFrames([b])).toBe(b);
  });
});
