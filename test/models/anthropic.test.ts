import { afterEach, describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { anthropicModel } from '../../host/models/anthropic.js';
import type { ModelEvent } from '../../host/models/types.js';
import { byteByByteFetch, collect, last, recordingRetry, request, text } from './helpers.js';
import { fixture, type Reply, type ReplayServer, replayServer } from './replay-server.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Options = Parameters<typeof anthropicModel>[0];

async function run(replies: Reply[], extra: Partial<Options> = {}, req = request()) {
  server = await replayServer(replies);
  const { waits, retry } = recordingRetry();
  const model = anthropicModel({ model: 'claude-sonnet-4-5', baseURL: server.url, apiKey: 'sk-ant-test', retry, ...extra });
  const events = await collect(model.stream(req));
  return { events, waits, seen: server.seen };
}

const apiError = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_011' });

describe('anthropicModel streaming', () => {
  it('streams text, skips pings, and reports stop reason and usage', async () => {
    const { events, seen } = await run([{ fixture: 'anthropic-text.sse' }]);
    expect(events[0]).toEqual({ type: 'message.start', model: 'claude-sonnet-4-5-20250929' });
    expect(text(events)).toBe('Grüße aus Köln 👋 — 日本語も OK.');
    expect(last(events)).toEqual({
      type: 'message.end',
      stopReason: 'end_turn',
      usage: { inputTokens: 25, outputTokens: 15 },
      content: [{ type: 'text', text: 'Grüße aus Köln 👋 — 日本語も OK.' }],
    });
    expect(seen[0]?.url).toBe('/v1/messages');
    expect(seen[0]?.headers['x-api-key']).toBe('sk-ant-test');
    expect(seen[0]?.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen[0]?.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      stream: true,
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    });
  });

  it('assembles several tool_use blocks from awkwardly split input_json_delta', async () => {
    const { events } = await run([{ fixture: 'anthropic-tools.sse' }]);
    const deltas = events.filter((e) => e.type === 'tool.input.delta');
    const perIndex = (i: number) => deltas.filter((d) => d.index === i).map((d) => d.partialJson).join('');
    expect(perIndex(0)).toBe('{"path": "/tmp/grüße.txt", "limit": 120}');
    expect(perIndex(1)).toBe('{"dir": "/var/log", "deep": true}');
    expect(deltas.find((d) => d.index === 1)).toMatchObject({ id: 'toolu_01B', name: 'list_dir' });
    expect(events.filter((e) => e.type === 'tool.call')).toEqual([
      { type: 'tool.call', id: 'toolu_01A', name: 'read_file', input: { path: '/tmp/grüße.txt', limit: 120 } },
      { type: 'tool.call', id: 'toolu_01B', name: 'list_dir', input: { dir: '/var/log', deep: true } },
      { type: 'tool.call', id: 'toolu_01C', name: 'now', input: {} },
    ]);
    // Cache reads count as input: 472 + 100.
    expect(last(events)).toMatchObject({ type: 'message.end', stopReason: 'tool_use', usage: { inputTokens: 572, outputTokens: 89 } });
  });

  it('streams thinking and keeps its signature in the assembled message', async () => {
    const { events, seen } = await run([{ fixture: 'anthropic-thinking.sse' }], { thinking: { budgetTokens: 2048 } });
    const thinking = events.flatMap((e) => (e.type === 'thinking.delta' ? [e.text] : [])).join('');
    expect(thinking).toBe('The user wants the log. I should call read_file.');
    expect(events.map((e) => e.type)).toEqual([
      'message.start',
      'thinking.delta',
      'thinking.delta',
      'text.delta',
      'tool.input.delta',
      'tool.call',
      'message.end',
    ]);
    expect(last(events)).toEqual({
      type: 'message.end',
      stopReason: 'tool_use',
      usage: { inputTokens: 60, outputTokens: 210 },
      content: [
        { type: 'thinking', text: 'The user wants the log. I should call read_file.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
        { type: 'text', text: 'Reading it now.' },
        { type: 'tool_call', id: 'toolu_01T', name: 'read_file', input: { path: '/var/log/syslog' } },
      ],
    });
    expect(seen[0]?.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 4096 + 2048 });
  });

  it('keeps redacted thinking opaque in the assembled message and sends it back unchanged', async () => {
    const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const body =
      ev('message_start', { message: { model: 'm', usage: { input_tokens: 3 } } }) +
      ev('content_block_start', { index: 0, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3p' } }) +
      ev('content_block_stop', { index: 0 }) +
      ev('content_block_start', { index: 1, content_block: { type: 'text', text: 'Done' } }) +
      ev('content_block_stop', { index: 1 }) +
      ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }) +
      ev('message_stop', {});
    const first = await run([{ body }]);
    expect(text(first.events)).toBe('Done');
    const end = last(first.events);
    expect(end?.type === 'message.end' && end.content).toEqual([
      { type: 'thinking', text: '', redacted: 'EmwKAhgBEgy3va3p' },
      { type: 'text', text: 'Done' },
    ]);
    await server?.close();
    const history = request({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: end?.type === 'message.end' ? (end.content ?? []) : [] }, { role: 'user', content: 'More' }] });
    const second = await run([{ fixture: 'anthropic-text.sse' }], {}, history);
    expect((second.seen[0]?.body.messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3p' },
        { type: 'text', text: 'Done' },
      ],
    });
  });

  it('gives the same events when the body arrives one byte at a time', async () => {
    for (const name of ['anthropic-thinking.sse', 'anthropic-tools.sse']) {
      const bytewise = await collect(anthropicModel({ model: 'm', apiKey: 'k', fetch: byteByByteFetch(fixture(name)) }).stream(request()));
      const { events } = await run([{ fixture: name }]);
      expect(bytewise.filter((e) => e.type !== 'tool.input.delta')).toEqual(events.filter((e) => e.type !== 'tool.input.delta'));
      expect(last(bytewise)?.type).toBe('message.end');
      await server?.close();
      server = undefined;
    }
  });

  it('sends tool results as user tool_result blocks and signed thinking back in history', async () => {
    const messages = request({
      system: undefined,
      messages: [
        { role: 'user', content: 'Check both' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', text: 'Two calls.', signature: 'sig-1' },
            { type: 'thinking', text: 'unsigned, from another provider' },
            { type: 'text', text: '' },
            { type: 'tool_call', id: 'toolu_1', name: 'read_file', input: { path: '/a' } },
            { type: 'tool_call', id: 'toolu_2', name: 'now', input: {} },
          ],
        },
        { role: 'tool', toolUseId: 'toolu_1', toolName: 'read_file', content: 'denied by guard', isError: true },
        { role: 'tool', toolUseId: 'toolu_2', toolName: 'now', content: '2026-11-30', isError: false },
        { role: 'user', content: 'and then?' },
      ],
      tools: [{ name: 'now', description: 'The date', inputSchema: { type: 'object', properties: {} } }],
    });
    const { seen } = await run([{ fixture: 'anthropic-text.sse' }], { temperature: 0.3, maxTokens: 1000 }, messages);
    expect(seen[0]?.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1000,
      stream: true,
      temperature: 0.3,
      tools: [{ name: 'now', description: 'The date', input_schema: { type: 'object', properties: {} } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Check both' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Two calls.', signature: 'sig-1' },
            { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: '/a' } },
            { type: 'tool_use', id: 'toolu_2', name: 'now', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'denied by guard', is_error: true },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: '2026-11-30' },
            { type: 'text', text: 'and then?' },
          ],
        },
      ],
    });
  });
});

describe('anthropicModel failures', () => {
  it('honours retry-after as an HTTP date on 429, then succeeds', async () => {
    const date = new Date(Date.now() + 2000).toUTCString();
    const { events, waits } = await run([
      { status: 429, headers: { 'retry-after': date }, body: apiError('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit') },
      { fixture: 'anthropic-text.sse' },
    ]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(2000);
    expect(last(events)?.type).toBe('message.end');
  });

  it('retries 529 overloaded and 500, then reports OVERLOADED with the message once retries run out', async () => {
    const overloaded: Reply = { status: 529, body: apiError('overloaded_error', 'Overloaded') };
    const ok = await run([overloaded, { status: 500, body: apiError('api_error', 'Internal server error') }, { fixture: 'anthropic-text.sse' }]);
    expect(ok.waits).toEqual([375, 750]);
    expect(last(ok.events)?.type).toBe('message.end');
    await server?.close();

    const { events, seen } = await run([overloaded, overloaded, overloaded]);
    expect(seen).toHaveLength(3);
    expect(events).toEqual([{ type: 'error', error: { code: 'OVERLOADED', message: expect.stringContaining('HTTP 529: Overloaded (overloaded_error)') } }]);
  });

  it('ends at once, without an error, when aborted during a retry wait', async () => {
    server = await replayServer([{ status: 529, body: apiError('overloaded_error', 'Overloaded') }, { fixture: 'anthropic-text.sse' }]);
    const controller = new AbortController();
    const model = anthropicModel({ model: 'm', baseURL: server.url, apiKey: 'k', retry: { baseDelayMs: 20_000 } });
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const events = await collect(model.stream(request({ signal: controller.signal })));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(events).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('maps 401 to AUTH with the provider message', async () => {
    const { events, seen } = await run([{ status: 401, body: apiError('authentication_error', 'invalid x-api-key') }]);
    expect(seen).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'error',
      error: { code: 'AUTH', message: expect.stringMatching(/invalid x-api-key \(authentication_error\).*ANTHROPIC_API_KEY/) },
    });
  });

  it('maps 400 to BAD_REQUEST with the provider message', async () => {
    const { events } = await run([{ status: 400, body: apiError('invalid_request_error', 'max_tokens: Field required') }]);
    expect(events[0]).toMatchObject({ type: 'error', error: { code: 'BAD_REQUEST', message: expect.stringContaining('max_tokens: Field required') } });
  });

  it('turns a stream cut before message_stop into BAD_STREAM without completing the open tool call', async () => {
    for (const after of ['end', 'destroy'] as const) {
      const { events } = await run([{ fixture: 'anthropic-cut.sse', after }]);
      expect(text(events)).toBe('Ich prüfe beides.');
      expect(events.some((e) => e.type === 'tool.call')).toBe(false);
      expect(last(events)).toMatchObject({ type: 'error', error: { code: 'BAD_STREAM' } });
      await server?.close();
      server = undefined;
    }
  });

  it('turns malformed JSON in a data line into BAD_STREAM', async () => {
    const { events } = await run([{ fixture: 'anthropic-malformed.sse' }]);
    expect(text(events)).toBe('Grüße');
    expect(last(events)).toMatchObject({ type: 'error', error: { code: 'BAD_STREAM', message: expect.stringContaining('Malformed JSON') } });
  });

  it('reports an overloaded_error event mid-stream as OVERLOADED with its message', async () => {
    const { events } = await run([{ fixture: 'anthropic-error.sse' }]);
    expect(text(events)).toBe('Grüße');
    expect(last(events)).toEqual({ type: 'error', error: { code: 'OVERLOADED', message: expect.stringContaining('mid-stream: Overloaded (overloaded_error)') } });
  });

  it('says what is wrong with an event of the wrong shape, and skips unknown kinds', async () => {
    const body =
      'event: message_start\ndata: {"type":"message_start","message":{"model":"m","usage":{"input_tokens":1}}}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"xx"}}\n\n' +
      'event: future_event\ndata: {"type":"future_event"}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","name":"x"}}\n\n';
    const { events } = await run([{ body }]);
    expect(last(events)).toMatchObject({ type: 'error', error: { code: 'BAD_STREAM', message: expect.stringContaining('content_block.id') } });
  });

  it('stops at once on abort and closes the connection', async () => {
    server = await replayServer([{ fixture: 'anthropic-cut.sse', after: 'hang' }]);
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    let abortedAt = 0;
    const model = anthropicModel({ model: 'm', baseURL: server.url, apiKey: 'k' });
    for await (const event of model.stream(request({ signal: controller.signal }))) {
      events.push(event);
      if (event.type === 'tool.input.delta' && abortedAt === 0) {
        abortedAt = -1;
        setTimeout(() => {
          abortedAt = performance.now();
          controller.abort();
        }, 50);
      }
    }
    expect(performance.now() - abortedAt).toBeLessThan(200);
    expect(events.some((e) => e.type === 'error' || e.type === 'message.end')).toBe(false);
    await expect.poll(() => server?.closedAt.length, { timeout: 1000 }).toBe(1);
    expect((server.closedAt[0] as number) - abortedAt).toBeLessThan(500);
  });

  it('rejects impossible thinking options with INVALID_OPTIONS', () => {
    expect(() => anthropicModel({ model: 'm', thinking: { budgetTokens: 100 } })).toThrow(WasmhooksError);
    expect(() => anthropicModel({ model: 'm', thinking: { budgetTokens: 2048 }, maxTokens: 1024 })).toThrow(/must exceed/);
    expect(() => anthropicModel({ model: 'm', thinking: { budgetTokens: 2048 }, temperature: 0.5 })).toThrow(/temperature/);
  });
});
