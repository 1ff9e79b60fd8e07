// The AI SDK adapter against fakes typed with the real @ai-sdk/provider
// types: if those types stop fitting AiSdkLanguageModel, typecheck fails.
import type { LanguageModelV2, LanguageModelV3, LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { aiSdkModel } from '../../host/models/ai-sdk.js';
import { collect, last, recordingRetry, request, text } from './helpers.js';

function streamOf<T>(parts: T[], hang = false, onCancel?: () => void): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      if (!hang) controller.close();
    },
    cancel: () => onCancel?.(),
  });
}

function fakeV4(script: Array<LanguageModelV4StreamPart[] | Error>, seen: LanguageModelV4CallOptions[] = []): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'fake.chat',
    modelId: 'fake-1',
    supportedUrls: {},
    doGenerate: async () => {
      throw new Error('not used');
    },
    doStream: async (options) => {
      seen.push(options);
      const next = script[seen.length - 1];
      if (next === undefined || next instanceof Error) throw next ?? new Error('no script left');
      return { stream: streamOf(next) };
    },
  };
}

const usage4 = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

const TOOL_TURN: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', modelId: 'fake-1-2026' },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'Two calls.' },
  { type: 'reasoning-end', id: 'r' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Prüfe…' },
  { type: 'text-end', id: 't' },
  { type: 'tool-input-start', id: 'c1', toolName: 'read_file' },
  { type: 'tool-input-delta', id: 'c1', delta: '{"path":' },
  { type: 'tool-input-delta', id: 'c1', delta: '"/a"}' },
  { type: 'tool-input-end', id: 'c1' },
  { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: '{"path":"/a"}' },
  { type: 'tool-call', toolCallId: 'c2', toolName: 'now', input: '' },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: usage4(12, 7) },
];

/** APICallError's shape, as AI SDK providers throw it. */
const apiCallError = (statusCode: number, message: string) =>
  Object.assign(new Error(message), { name: 'AI_APICallError', statusCode, isRetryable: statusCode === 429 || statusCode >= 500 });

describe('aiSdkModel', () => {
  it('maps a v4 stream: reasoning, text, tool input deltas, tool calls, finish and nested usage', async () => {
    const seen: LanguageModelV4CallOptions[] = [];
    const model = aiSdkModel(fakeV4([TOOL_TURN], seen), { maxTokens: 500, temperature: 0 });
    expect(model.id).toBe('fake.chat:fake-1');
    const events = await collect(model.stream(request({ tools: [{ name: 'now', description: 'Now', inputSchema: { type: 'object' } }] })));
    expect(events[0]).toEqual({ type: 'message.start', model: 'fake-1-2026' });
    expect(text(events)).toBe('Prüfe…');
    expect(events.filter((e) => e.type === 'thinking.delta')).toEqual([{ type: 'thinking.delta', text: 'Two calls.' }]);
    expect(events.filter((e) => e.type === 'tool.input.delta').map((e) => e.type === 'tool.input.delta' && e.partialJson).join('')).toBe('{"path":"/a"}');
    expect(events.filter((e) => e.type === 'tool.call')).toEqual([
      { type: 'tool.call', id: 'c1', name: 'read_file', input: { path: '/a' } },
      { type: 'tool.call', id: 'c2', name: 'now', input: {} },
    ]);
    expect(last(events)).toEqual({
      type: 'message.end',
      stopReason: 'tool_use',
      usage: { inputTokens: 12, outputTokens: 7 },
      content: [
        { type: 'thinking', text: 'Two calls.' },
        { type: 'text', text: 'Prüfe…' },
        { type: 'tool_call', id: 'c1', name: 'read_file', input: { path: '/a' } },
        { type: 'tool_call', id: 'c2', name: 'now', input: {} },
      ],
    });
    expect(seen[0]).toMatchObject({
      prompt: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
      ],
      tools: [{ type: 'function', name: 'now', description: 'Now', inputSchema: { type: 'object' } }],
      maxOutputTokens: 500,
      temperature: 0,
    });
    expect(seen[0]?.abortSignal).toBeInstanceOf(AbortSignal);
  });

  it('sends history as AI SDK prompt messages, tool results batched in one tool message', async () => {
    const seen: LanguageModelV4CallOptions[] = [];
    const done: LanguageModelV4StreamPart[] = [{ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage4(1, 1) }];
    await collect(
      aiSdkModel(fakeV4([done], seen)).stream(
        request({
          system: undefined,
          messages: [
            { role: 'user', content: 'Go' },
            {
              role: 'assistant',
              content: [
                { type: 'thinking', text: 'hm' },
                { type: 'thinking', text: '', redacted: 'opaque' },
                { type: 'tool_call', id: 'c1', name: 'a', input: { x: 1 } },
                { type: 'tool_call', id: 'c2', name: 'b', input: {} },
              ],
            },
            { role: 'tool', toolUseId: 'c1', toolName: 'a', content: 'denied', isError: true },
            { role: 'tool', toolUseId: 'c2', toolName: 'b', content: 'ok', isError: false },
          ],
        }),
      ),
    );
    expect(seen[0]?.prompt).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'hm' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'a', input: { x: 1 } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'b', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'a', output: { type: 'error-text', value: 'denied' } },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'b', output: { type: 'text', value: 'ok' } },
        ],
      },
    ]);
    expect(seen[0]).not.toHaveProperty('tools');
  });

  it('reads v2 streams (string finish reason, flat usage) and accepts v2 and v3 models by type', async () => {
    const v2: LanguageModelV2 = {
      specificationVersion: 'v2',
      provider: 'old',
      modelId: 'm2',
      supportedUrls: {},
      doGenerate: async () => {
        throw new Error('not used');
      },
      doStream: async () => ({
        stream: streamOf([
          { type: 'text-delta', id: 't', delta: 'hi' },
          { type: 'finish', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } },
        ]),
      }),
    };
    const events = await collect(aiSdkModel(v2).stream(request()));
    expect(events).toEqual([
      { type: 'message.start', model: 'm2' },
      { type: 'text.delta', text: 'hi' },
      { type: 'message.end', stopReason: 'end_turn', usage: { inputTokens: 3, outputTokens: 1 }, content: [{ type: 'text', text: 'hi' }] },
    ]);
    // Compile-time: every current spec version's model type fits the adapter.
    const acceptsEveryVersion: (model: LanguageModelV2 | LanguageModelV3 | LanguageModelV4) => unknown = aiSdkModel;
    expect(acceptsEveryVersion).toBe(aiSdkModel);
  });

  it('retries retryable APICallErrors from doStream, maps the rest to typed failures', async () => {
    const { waits, retry } = recordingRetry();
    const ok = await collect(aiSdkModel(fakeV4([apiCallError(429, 'slow down'), apiCallError(503, 'busy'), TOOL_TURN]), { retry }).stream(request()));
    expect(waits).toEqual([375, 750]);
    expect(last(ok)?.type).toBe('message.end');

    const auth = await collect(aiSdkModel(fakeV4([apiCallError(401, 'Invalid API key'), TOOL_TURN]), { retry }).stream(request()));
    expect(auth).toEqual([{ type: 'error', error: { code: 'AUTH', message: 'fake.chat:fake-1 failed (HTTP 401): Invalid API key' } }]);
  });

  it('turns error parts, interrupted finishes, missing finishes and bad tool input into error results', async () => {
    const cases: Array<[LanguageModelV4StreamPart[], string, RegExp]> = [
      [[{ type: 'text-delta', id: 't', delta: 'a' }, { type: 'error', error: apiCallError(529, 'Overloaded') }], 'OVERLOADED', /mid-stream \(HTTP 529\): Overloaded/],
      [[{ type: 'error', error: new Error('socket hang up') }], 'BAD_STREAM', /socket hang up/],
      [[{ type: 'text-delta', id: 't', delta: 'a' }, { type: 'finish', finishReason: { unified: 'interrupted', raw: undefined }, usage: usage4(1, 1) }], 'BAD_STREAM', /interrupted/],
      [[{ type: 'text-delta', id: 't', delta: 'a' }], 'BAD_STREAM', /without a finish part/],
      [[{ type: 'tool-call', toolCallId: 'c', toolName: 'x', input: '{"a":' }], 'BAD_STREAM', /malformed JSON/],
    ];
    for (const [parts, code, message] of cases) {
      const end = last(await collect(aiSdkModel(fakeV4([parts])).stream(request())));
      expect(end).toMatchObject({ type: 'error', error: { code, message: expect.stringMatching(message) } });
    }
  });

  it('stops at once on abort and cancels the provider stream', async () => {
    const controller = new AbortController();
    let cancelled = false;
    const model = fakeV4([]);
    model.doStream = async () => ({ stream: streamOf<LanguageModelV4StreamPart>([{ type: 'text-delta', id: 't', delta: 'a' }], true, () => (cancelled = true)) });
    const events = [];
    setTimeout(() => controller.abort(), 30);
    for await (const event of aiSdkModel(model).stream(request({ signal: controller.signal }))) events.push(event);
    expect(events.map((e) => e.type)).toEqual(['message.start', 'text.delta']);
    expect(cancelled).toBe(true);
  });
});
