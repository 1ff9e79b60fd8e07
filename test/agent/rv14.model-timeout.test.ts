// rv14: one model call has an overall deadline (modelTimeoutMs). A provider's idle timeout bounds only the gap
// between two chunks; a model that drips, or one that never answers and ignores its signal, held the turn
// (and the session) for good. Twin of test/xrt/rv14.xrt.ts (Node, Deno, Bun).
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/index.js';
import type { Model, ModelEvent } from '../../host/models/types.js';

/** Starts an answer, then drips a word every 20 ms for ever; it never looks at its signal. */
function drippingModel(): Model & { stopped: () => boolean } {
  let stopped = false;
  return {
    id: 'drip',
    stopped: () => stopped,
    async *stream(): AsyncGenerator<ModelEvent> {
      try {
        yield { type: 'message.start', model: 'drip' };
        for (;;) {
          await new Promise((r) => setTimeout(r, 20));
          yield { type: 'text.delta', text: '.' };
        }
      } finally {
        stopped = true;
      }
    },
  };
}

describe('modelTimeoutMs', () => {
  it('ends a model call that never finishes with MODEL_TIMEOUT, even when the model ignores its signal', async () => {
    const model = drippingModel();
    const host = createHost({ model, modelTimeoutMs: 300 });
    const started = Date.now();
    const result = await Promise.race([host.session().prompt('hi'), new Promise<'open'>((r) => setTimeout(() => r('open'), 5_000))]);
    expect(result).not.toBe('open');
    if (result === 'open') return;
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(result.subtype).toBe('error_during_execution');
    expect(result.error).toMatchObject({ code: 'MODEL_TIMEOUT', message: expect.stringMatching(/drip: the call took longer than 300 ms \(modelTimeoutMs\)/) });
    await new Promise((r) => setTimeout(r, 60));
    expect(model.stopped()).toBe(true);
  });

  it('the model sees the deadline on its signal (an HTTP provider closes its stream)', async () => {
    let seen: AbortSignal | undefined;
    const model: Model = {
      id: 'watch',
      async *stream(request): AsyncGenerator<ModelEvent> {
        seen = request.signal;
        yield { type: 'message.start', model: 'watch' };
        await new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
      },
    };
    const result = await createHost({ model, modelTimeoutMs: 100 }).session().prompt('hi');
    expect(result.error?.code).toBe('MODEL_TIMEOUT');
    expect(seen?.aborted).toBe(true);
    expect((seen?.reason as DOMException).name).toBe('TimeoutError');
  });

  it('defaults to ten minutes and is read from a session\'s options over the host\'s', async () => {
    const model = drippingModel();
    const host = createHost({ model, modelTimeoutMs: 60_000 });
    const result = await host.session({ modelTimeoutMs: 150 }).prompt('hi');
    expect(result.error?.code).toBe('MODEL_TIMEOUT');
    expect(() => createHost({ modelTimeoutMs: 0 })).toThrow(/modelTimeoutMs/);
  });
});
