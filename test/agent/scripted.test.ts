// The scripted model streams like a provider: chunked deltas, partial tool JSON, rules, exhaustion, abort.
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../host/models/scripted.js';
import type { ModelEvent, ModelRequest } from '../../host/models/types.js';

const req = (messages: ModelRequest['messages'] = [{ role: 'user', content: 'hi' }], signal = new AbortController().signal): ModelRequest => ({ messages, tools: [], signal });

async function all(it: AsyncIterable<ModelEvent>) {
  const out: ModelEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

describe('scriptedModel', () => {
  it('plays turns in order: thinking, text in word chunks, tool calls with partial JSON, then message.end', async () => {
    const model = scriptedModel([{ thinking: 'hmm let me see', text: 'one two three four five', toolCalls: [{ name: 'Read', input: { file_path: '/a/very/long/path.txt' } }] }]);
    const events = await all(model.stream(req()));
    expect(events[0]).toEqual({ type: 'message.start', model: 'scripted' });
    const types = events.map((e) => e.type);
    expect(types.indexOf('thinking.delta')).toBeLessThan(types.indexOf('text.delta'));
    expect(events.filter((e) => e.type === 'text.delta').map((e) => (e as { text: string }).text)).toEqual(['one ', 'two three ', 'four five']);
    const pieces = events.filter((e) => e.type === 'tool.input.delta');
    expect(pieces.length).toBeGreaterThan(2);
    expect(JSON.parse(pieces.map((p) => (p as { partialJson: string }).partialJson).join(''))).toEqual({ file_path: '/a/very/long/path.txt' });
    expect(events.at(-2)).toMatchObject({ type: 'tool.call', id: 'toolu_0001', name: 'Read' });
    expect(events.at(-1)).toMatchObject({ type: 'message.end', stopReason: 'tool_use' });
  });

  it('rules match the last user message or tool result before the turn list', async () => {
    const model = scriptedModel({
      rules: [
        { when: { lastUser: /weather/ }, reply: { text: 'sunny' } },
        { when: { lastToolName: 'Read', lastToolResult: 'ENOENT' }, reply: { text: 'missing file' }, times: 1 },
      ],
      turns: [{ text: 'fallback' }],
    });
    const text = async (r: ModelRequest) => (await all(model.stream(r))).flatMap((e) => (e.type === 'text.delta' ? [e.text] : [])).join('');
    expect(await text(req([{ role: 'user', content: 'the weather?' }]))).toBe('sunny');
    const failed: ModelRequest['messages'] = [{ role: 'tool', toolUseId: 't', toolName: 'Read', content: 'ENOENT x', isError: true }];
    expect(await text(req(failed))).toBe('missing file');
    expect(await text(req(failed))).toBe('fallback');
    expect(model.remaining).toBe(0);
  });

  it('yields SCRIPT_EXHAUSTED when out of turns, and scripted errors', async () => {
    const model = scriptedModel([{ text: 'partial', error: { code: 'OVERLOADED', message: 'busy' } }]);
    expect((await all(model.stream(req()))).at(-1)).toEqual({ type: 'error', error: { code: 'OVERLOADED', message: 'busy' } });
    expect((await all(model.stream(req()))).at(-1)).toMatchObject({ type: 'error', error: { code: 'SCRIPT_EXHAUSTED' } });
  });

  it('honours abort mid-stream, including during a delay', async () => {
    const controller = new AbortController();
    const model = scriptedModel({ turns: [{ text: 'a b c d e f g h' }], delayMs: 50 });
    setTimeout(() => controller.abort(), 70);
    const t0 = performance.now();
    const events = await all(model.stream(req(undefined, controller.signal)));
    expect(performance.now() - t0).toBeLessThan(150);
    expect(events.length).toBeLessThan(3);
  });

  it('records requests and rejects impossible options', () => {
    expect(() => scriptedModel({ wordsPerDelta: 0 })).toThrowError(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
