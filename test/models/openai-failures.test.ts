// openaiModel's failures (split from openai.test.ts): HTTP errors and retries, broken streams, timeouts, abort.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { openaiModel } from '../../host/models/openai.js';
import type { ModelEvent } from '../../host/models/types.js';
import { collect, last, recordingRetry, request, text } from './helpers.js';
import { type Reply, replayServer } from './replay-server.js';
import { replay, run } from './openai-replay.js';

const ERROR_401 = JSON.stringify({
  error: { message: 'Incorrect API key provided: sk-test.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
});
const ERROR_429 = JSON.stringify({
  error: { message: 'Rate limit reached for gpt-4o-mini on tokens per min (TPM).', type: 'tokens', code: 'rate_limit_exceeded' },
});

describe('openaiModel failures', () => {
  it('waits as retry-after says on 429, then succeeds', async () => {
    const { events, waits, seen } = await run([
      { status: 429, headers: { 'retry-after': '1' }, body: ERROR_429 },
      { fixture: 'openai-text.sse' },
    ]);
    expect(waits).toEqual([1000]);
    expect(seen).toHaveLength(2);
    expect(last(events)?.type).toBe('message.end');
  });

  it('backs off with jitter on 500, then succeeds', async () => {
    const { events, waits } = await run([{ status: 500, body: '{"error":{"message":"boom"}}' }, { fixture: 'openai-text.sse' }]);
    expect(waits).toEqual([375]); // 500 ms step: half fixed + half × random(0.5)
    expect(text(events)).toContain('Köln');
  });

  it('gives up after the bounded retries with RATE_LIMITED and the provider message', async () => {
    const busy: Reply = { status: 429, body: ERROR_429 };
    const { events, waits, seen } = await run([busy, busy, busy, { fixture: 'openai-text.sse' }]);
    expect(seen).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', error: { code: 'RATE_LIMITED' } });
    expect(JSON.stringify(events[0])).toContain('Rate limit reached for gpt-4o-mini');
  });

  it('does not wait for a retry-after beyond the cap', async () => {
    const { events, seen } = await run([{ status: 429, headers: { 'retry-after': '3600' }, body: ERROR_429 }]);
    expect(seen).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', error: { code: 'RATE_LIMITED' } });
    expect(JSON.stringify(events[0])).toMatch(/retry after 3600s/);
  });

  it('maps 401 to AUTH with the provider message, without retrying', async () => {
    const { events, seen } = await run([{ status: 401, body: ERROR_401 }]);
    expect(seen).toHaveLength(1);
    expect(events).toEqual([
      {
        type: 'error',
        error: {
          code: 'AUTH',
          message: expect.stringContaining('HTTP 401: Incorrect API key provided: sk-test. (invalid_request_error). Check the API key (OPENAI_API_KEY'),
        },
      },
    ]);
  });

  it('maps 404 to BAD_REQUEST with an Ollama-style string error', async () => {
    const { events } = await run([{ status: 404, body: '{"error":"model \\"llama9\\" not found, try pulling it first"}' }]);
    expect(events[0]).toMatchObject({ type: 'error', error: { code: 'BAD_REQUEST', message: expect.stringContaining('model "llama9" not found') } });
  });

  it('retries a dropped connection, and reports NETWORK when nothing answers', async () => {
    const { events, seen } = await run([{ drop: true }, { fixture: 'openai-text.sse' }]);
    expect(seen).toHaveLength(2);
    expect(last(events)?.type).toBe('message.end');

    const { waits, retry } = recordingRetry(1);
    const closed = await replayServer([]);
    const url = closed.url;
    await closed.close();
    const failed = await collect(openaiModel({ model: 'm', baseURL: url, retry }).stream(request()));
    expect(waits).toHaveLength(1);
    expect(failed).toEqual([{ type: 'error', error: { code: 'NETWORK', message: expect.stringContaining(`Could not reach the OpenAI-compatible server at ${url}`) } }]);
  });

  it('turns a stream that ends early into BAD_STREAM, whether closed cleanly or cut', async () => {
    for (const after of ['end', 'destroy'] as const) {
      const { events } = await run([{ fixture: 'openai-cut.sse', after }]);
      expect(text(events)).toBe('Grüße aus Köln 👋');
      expect(events.some((e) => e.type === 'tool.call')).toBe(false);
      expect(last(events)).toMatchObject({ type: 'error', error: { code: 'BAD_STREAM' } });
      await replay.server?.close();
      replay.server = undefined;
    }
  });

  it('turns malformed JSON in a data line into BAD_STREAM that quotes it', async () => {
    const { events } = await run([{ fixture: 'openai-malformed.sse' }]);
    const end = last(events);
    expect(end).toMatchObject({ type: 'error', error: { code: 'BAD_STREAM' } });
    expect(end?.type === 'error' && end.error.message).toMatch(/Malformed JSON .*"content":"oops"/);
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
  });

  it('reports an error chunk mid-stream with its message', async () => {
    const { events } = await run([{ fixture: 'openai-error.sse' }]);
    expect(text(events)).toBe('Grüße aus Köln 👋');
    expect(last(events)).toEqual({
      type: 'error',
      error: { code: 'OVERLOADED', message: expect.stringContaining('The server had an error while processing your request') },
    });
  });

  it('reports an SSE event named error, whatever its body shape', async () => {
    const { events } = await run([{ body: 'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\nevent: error\ndata: {"message":"upstream provider timed out"}\n\n' }]);
    expect(text(events)).toBe('Hi');
    expect(last(events)).toEqual({ type: 'error', error: { code: 'BAD_STREAM', message: expect.stringContaining('mid-stream: upstream provider timed out') } });
  });

  it('says which field is wrong when a chunk has the wrong shape', async () => {
    const { events } = await run([{ body: 'data: {"choices":[{"index":0,"delta":{"content":5}}]}\n\n' }]);
    expect(last(events)).toMatchObject({ type: 'error', error: { code: 'BAD_STREAM', message: expect.stringMatching(/choices\[0\]\.delta\.content/) } });
  });

  it('turns malformed tool arguments into BAD_STREAM naming the tool', async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const body =
      chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'read_file', arguments: '{"path": ' } }] }) + chunk({}, 'tool_calls') + 'data: [DONE]\n\n';
    const { events } = await run([{ body }]);
    expect(last(events)).toMatchObject({ type: 'error', error: { code: 'BAD_STREAM', message: expect.stringContaining('(read_file) from') } });
  });

  it('refuses tool arguments nested deeper than the host-wide JSON bound (BAD_STREAM), before they can reach an event', async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const deep = `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const body = chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'Write', arguments: deep } }] }) + chunk({}, 'tool_calls') + 'data: [DONE]\n\n';
    const { events } = await run([{ body }]);
    expect(last(events)).toMatchObject({ type: 'error', error: { code: 'BAD_STREAM', message: expect.stringContaining('deeper than 64 levels') } });
    expect(events.some((e) => e.type === 'tool.call')).toBe(false);
  });

  it('rejects a JSON answer to a streaming request as BAD_STREAM', async () => {
    const { events } = await run([{ headers: { 'content-type': 'application/json' }, body: '{"choices":[]}' }]);
    expect(events[0]).toMatchObject({ type: 'error', error: { code: 'BAD_STREAM', message: expect.stringContaining('without a stream') } });
  });

  it('abandons a stalled stream after the idle timeout', async () => {
    const { events } = await run([{ fixture: 'openai-cut.sse', after: 'hang' }], { idleTimeoutMs: 150 });
    expect(last(events)).toMatchObject({ type: 'error', error: { code: 'BAD_STREAM', message: expect.stringContaining('stalled') } });
  });

  it('gives up on a server that never sends headers, retrying first', async () => {
    const { events, seen } = await run([{ silent: true }, { silent: true }], { idleTimeoutMs: 150, retry: { maxRetries: 1, baseDelayMs: 1 } });
    expect(seen).toHaveLength(2);
    expect(events).toEqual([{ type: 'error', error: { code: 'NETWORK', message: expect.stringContaining('no response headers within 150 ms') } }]);
  });

  it('does not hang on an error body that never ends', async () => {
    const { events } = await run([{ status: 503, body: '{"error":{"message":"warming', after: 'hang' }], { idleTimeoutMs: 150, retry: { maxRetries: 0 } });
    expect(events).toEqual([{ type: 'error', error: { code: 'OVERLOADED', message: expect.stringContaining('HTTP 503: {"error":{"message":"warming') } }]);
  });

  it('leaves no abort listener behind on the caller signal, whatever the outcome', async () => {
    const signal = new AbortController().signal;
    for (const reply of [{ fixture: 'openai-text.sse' }, { status: 400, body: '{}' }, { fixture: 'openai-cut.sse' }] satisfies Reply[]) {
      replay.server = await replayServer([reply]);
      await collect(openaiModel({ model: 'm', baseURL: replay.server.url }).stream(request({ signal })));
      await replay.server.close();
      replay.server = undefined;
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('stops at once on abort and closes the connection', async () => {
    replay.server = await replayServer([{ fixture: 'openai-cut.sse', after: 'hang' }]);
    const controller = new AbortController();
    const model = openaiModel({ model: 'm', baseURL: replay.server.url });
    const events: ModelEvent[] = [];
    let abortedAt = 0;
    for await (const event of model.stream(request({ signal: controller.signal }))) {
      events.push(event);
      if (event.type === 'tool.input.delta' && abortedAt === 0) {
        // The fixture's last event: abort while the stream waits for bytes that never come.
        setTimeout(() => {
          abortedAt = performance.now();
          controller.abort();
        }, 50);
        abortedAt = -1;
      }
    }
    const endedAt = performance.now();
    expect(endedAt - abortedAt).toBeLessThan(200);
    expect(events.some((e) => e.type === 'error' || e.type === 'message.end')).toBe(false);
    await expect.poll(() => replay.server?.closedAt.length, { timeout: 1000 }).toBe(1);
    expect((replay.server.closedAt[0] as number) - abortedAt).toBeLessThan(500);
  });

  it('rejects impossible options with INVALID_OPTIONS', () => {
    expect(() => openaiModel({ model: '' })).toThrow(WasmhooksError);
    expect(() => openaiModel({ model: 'm', baseURL: 'ftp://x' })).toThrow(/baseURL/);
    expect(() => openaiModel({ model: 'm', maxTokens: -1 })).toThrow(/maxTokens/);
  });
});
