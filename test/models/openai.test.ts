import { describe, expect, it } from 'vitest';
import { openaiModel } from '../../host/models/openai.js';
import { byteByByteFetch, collect, last, request, text } from './helpers.js';
import { fixture, replayServer } from './replay-server.js';
import { replay, run } from './openai-replay.js';

describe('openaiModel streaming', () => {
  it('streams plain text with multi-byte characters, finish reason and usage', async () => {
    const { events, seen } = await run([{ fixture: 'openai-text.sse' }]);
    expect(events[0]).toEqual({ type: 'message.start', model: 'gpt-4o-mini-2024-07-18' });
    expect(text(events)).toBe('Grüße aus Köln 👋 — 日本語も OK.');
    expect(last(events)).toEqual({ type: 'message.end', stopReason: 'end_turn', usage: { inputTokens: 19, outputTokens: 11 } });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('/v1/chat/completions');
    expect(seen[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(seen[0]?.body).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
    });
    expect(seen[0]?.body).not.toHaveProperty('tools');
  });

  it('assembles several parallel tool calls per index from awkwardly split arguments', async () => {
    const { events } = await run([{ fixture: 'openai-tools.sse' }]);
    expect(text(events)).toBe('Ich prüfe beides.');
    const deltas = events.filter((e) => e.type === 'tool.input.delta');
    const perIndex = (i: number) => deltas.filter((d) => d.index === i).map((d) => d.partialJson).join('');
    expect(perIndex(0)).toBe('{"path": "/tmp/grüße.txt", "limit": 120}');
    expect(perIndex(1)).toBe('{"dir": "/var/log", "deep": true}');
    expect(deltas.every((d) => d.id.startsWith('call_') && d.name !== '')).toBe(true);
    const calls = events.filter((e) => e.type === 'tool.call');
    expect(calls).toEqual([
      { type: 'tool.call', id: 'call_Qx1aB', name: 'read_file', input: { path: '/tmp/grüße.txt', limit: 120 } },
      { type: 'tool.call', id: 'call_Rz2cD', name: 'list_dir', input: { dir: '/var/log', deep: true } },
      { type: 'tool.call', id: 'call_Sy3eF', name: 'now', input: {} },
    ]);
    expect(last(events)).toEqual({ type: 'message.end', stopReason: 'tool_use', usage: { inputTokens: 151, outputTokens: 64 } });
  });

  it('gives the same events when the body arrives one byte at a time', async () => {
    const bytewise = await collect(openaiModel({ model: 'm', fetch: byteByByteFetch(fixture('openai-tools.sse')) }).stream(request()));
    const { events } = await run([{ fixture: 'openai-tools.sse' }]);
    expect(bytewise.filter((e) => e.type !== 'tool.input.delta')).toEqual(events.filter((e) => e.type !== 'tool.input.delta'));
    expect(bytewise.filter((e) => e.type === 'tool.call')).toHaveLength(3);
  });

  it('reports reasoning_content (DeepSeek, vLLM, llama.cpp) as thinking deltas', async () => {
    const { events } = await run([{ fixture: 'openai-reasoning.sse' }]);
    const thinking = events.flatMap((e) => (e.type === 'thinking.delta' ? [e.text] : [])).join('');
    expect(thinking).toBe('The user wants a number.');
    expect(text(events)).toBe('42');
  });

  it('sends history, tool results and tool definitions in the Chat Completions shape', async () => {
    replay.server = await replayServer([{ fixture: 'openai-text.sse' }]);
    const model = openaiModel({ model: 'llama3.2', baseURL: `${replay.server.url}/v1/`, temperature: 0.2, maxTokens: 300, maxTokensField: 'max_completion_tokens', includeUsage: false });
    await collect(
      model.stream(
        request({
          system: undefined,
          messages: [
            { role: 'user', content: 'Read it' },
            {
              role: 'assistant',
              content: [
                { type: 'thinking', text: 'hmm', signature: 'sig' },
                { type: 'text', text: 'Reading.' },
                { type: 'tool_call', id: 'call_1', name: 'read_file', input: { path: '/a' } },
              ],
            },
            { role: 'tool', toolUseId: 'call_1', toolName: 'read_file', content: 'no such file', isError: true },
          ],
          tools: [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
        }),
      ),
    );
    const sent = replay.server.seen[0];
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.body).toEqual({
      model: 'llama3.2',
      stream: true,
      temperature: 0.2,
      max_completion_tokens: 300,
      messages: [
        { role: 'user', content: 'Read it' },
        {
          role: 'assistant',
          content: 'Reading.',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"/a"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'Error: no such file' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
        },
      ],
    });
  });
});
