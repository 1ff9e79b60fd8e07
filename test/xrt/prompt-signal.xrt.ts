// A prompt's `signal` that is not an AbortSignal, on Node, Deno and Bun against the build. Before, a plain
// object ({ aborted: false }) was taken as one: the prompt ran with nothing that could ever stop it, and one
// without addEventListener threw a TypeError after the prompt had been counted and the session started (the
// next prompt was numbered 2 and fired no SessionStart). Now INVALID_OPTIONS, before anything changes.
import assert from 'node:assert/strict';
import { createHost, scriptedModel, WasmhooksError, type HookEventName } from '../../dist/index.js';

function host(seen: string[]) {
  const record = (name: HookEventName) => ({ [name]: [{ hooks: [async (input: { turn: number }) => (seen.push(`${name} ${input.turn}`), {})] }] });
  return createHost({
    model: scriptedModel({ rules: [{ when: () => true, reply: { text: 'ok' } }] }),
    hooks: { ...record('SessionStart'), ...record('UserPromptSubmit') },
  });
}

export const scenarios: Record<string, () => Promise<void>> = {
  'a signal that is not an AbortSignal is INVALID_OPTIONS, and the session is as before (prompt, stream, compact)': async () => {
    const seen: string[] = [];
    const session = host(seen).session();
    const fakes: unknown[] = [{ aborted: false }, { aborted: false, addEventListener: 'x' }, 'abort', 1, null];
    for (const signal of fakes) {
      const options = { signal } as unknown as { signal: AbortSignal };
      for (const call of [() => session.prompt('go', options), () => session.stream('go', options), () => session.compact(options)]) {
        let error: unknown;
        try {
          await call();
        } catch (e) {
          error = e;
        }
        assert.ok(error instanceof WasmhooksError, `${JSON.stringify(signal)}: ${String(error)}`);
        assert.equal(error.code, 'INVALID_OPTIONS');
        assert.match(error.message, /signal must be an AbortSignal/);
      }
    }
    assert.equal(session.state, 'idle');
    assert.deepEqual(seen, []);
    // Nothing was counted: the first real prompt is the session's first.
    const result = await session.prompt('go', { signal: new AbortController().signal });
    assert.equal(result.text, 'ok');
    assert.deepEqual(seen, ['SessionStart 1', 'UserPromptSubmit 1']);
    await session.close();
  },
  'a real AbortSignal still aborts the prompt': async () => {
    const session = host([]).session();
    const controller = new AbortController();
    controller.abort();
    const result = await session.prompt('go', { signal: controller.signal });
    assert.equal(result.subtype, 'aborted');
    await session.close();
  },
};
