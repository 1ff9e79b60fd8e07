// A borrowed input (CallOptions.borrowed: the caller reuses its buffer once `call` returns, as the
// hook encoder does) is read at once by an idle in-thread module and copied otherwise: a queued
// call and a worker call see the bytes as they were when `call` was made. And the in-thread
// engine's kept exact-size input buffers never leak one call's bytes into another.
import { describe, expect, it } from 'vitest';
import { echoSandboxes, str, text } from './sandbox-helpers.js';

const echo = echoSandboxes();

/** A view into a larger buffer, as the encoder lends it; `scribble` overwrites it after the call is made. */
function lent(s: string) {
  const buffer = new Uint8Array(1024);
  const bytes = text(s);
  buffer.set(bytes, 16);
  return { view: buffer.subarray(16, 16 + bytes.length), scribble: () => buffer.fill(0x58) };
}

describe('borrowed inputs', () => {
  it('an idle in-thread module reads the input before call() returns', async () => {
    const a = lent('first');
    const running = echo.inThread.call('run', a.view, { borrowed: true });
    a.scribble();
    const outcome = await running;
    expect(outcome.ok && str(outcome.output)).toBe('first');
  });

  it('a queued call gets its own copy', async () => {
    const inputs = ['one', 'two', 'three'].map(lent);
    const running = inputs.map((i) => echo.inThread.call('run', i.view, { borrowed: true }));
    for (const i of inputs) i.scribble();
    const outcomes = await Promise.all(running);
    expect(outcomes.map((o) => o.ok && str(o.output))).toEqual(['one', 'two', 'three']);
  });

  it('a worker call gets its own copy (the worker may still be starting)', async () => {
    const inputs = ['alpha', 'beta'].map(lent);
    const running = inputs.map((i) => echo.worker.call('run', i.view, { borrowed: true }));
    for (const i of inputs) i.scribble();
    const outcomes = await Promise.all(running);
    expect(outcomes.map((o) => o.ok && str(o.output))).toEqual(['alpha', 'beta']);
  });

  it('the kept input buffers carry each call its own bytes, whatever the sizes in between', async () => {
    const words = ['same', 'size', 'a much longer input than the others', 'x', 'same', '', 'tail', 'y'.repeat(300), 'size'];
    for (const w of words) {
      const a = lent(w);
      const outcome = await echo.inThread.call('run', a.view, { borrowed: true });
      expect(outcome.ok && str(outcome.output)).toBe(w);
      // A caller's own whole buffer is handed on as it is and stays the caller's.
      const own = text(w);
      const again = await echo.inThread.call('run', own);
      expect(again.ok && str(again.output)).toBe(w);
      expect(str(own)).toBe(w);
    }
  });
});
