// rv16: stream shapes conf3's conformance cases left out, in the Case form of stream-conformance.ts
// (run through a whole prompt by its runCase): vitest twin rv16-streams.test.ts, and on Node, Deno
// and Bun test/xrt/rv16.xrt.ts. Only type imports from host/.
import type { Case } from './stream-conformance.ts';

const oc = (delta: unknown, finish: string | null = null, extra: object = {}) => ({ id: 'c', object: 'chat.completion.chunk', model: 'gpt-x', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }], ...extra });
const call = (index: number, id: string | undefined, name: string | undefined, args: string) => ({ index, ...(id ? { id, type: 'function' } : {}), function: { ...(name ? { name } : {}), arguments: args } });
const start = ['message_start', { type: 'message_start', message: { id: 'msg', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, usage: { input_tokens: 7, output_tokens: 1 } } }];
const usage = { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 };

export const rv16Cases: Case[] = [
  {
    // The openai SDK's accumulator overwrites choice.finish_reason; a server that repeats it (in the
    // usage chunk, or in a chunk of its own) has made its calls once.
    name: 'openai: a finish reason repeated in a later chunk (with the usage) makes each call once',
    provider: 'openai',
    stream: [oc({ tool_calls: [call(0, 'call_a', 'f', '{"n":1}')] }), oc({}, 'tool_calls'), oc({}, 'tool_calls', { usage })],
    expect: { calls: ['call_a f {"n":1}'], stopReason: 'tool_use' },
  },
  {
    name: 'openai: a finish reason repeated with its calls repeated (same id, name and no arguments) makes each call once',
    provider: 'openai',
    stream: [oc({ tool_calls: [call(0, 'call_a', 'f', '{"n":1}')] }, 'tool_calls'), oc({ tool_calls: [call(0, 'call_a', 'f', '')] }, 'tool_calls')],
    expect: { calls: ['call_a f {"n":1}'], stopReason: 'tool_use' },
  },
  {
    name: 'openai: tool arguments whose \\u escape of an emoji is cut between its surrogates across chunks read whole',
    provider: 'openai',
    stream: [oc({ tool_calls: [call(0, 'call_a', 'f', '{"s":"\\ud83d')] }), oc({ tool_calls: [call(0, undefined, undefined, '\\ude00 é"}')] }), oc({}, 'tool_calls')],
    expect: { calls: ['call_a f {"s":"😀 é"}'], stopReason: 'tool_use' },
  },
  {
    name: 'anthropic: a second message_stop does not end the message twice',
    provider: 'anthropic',
    stream: [
      start,
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }],
      ['message_stop', { type: 'message_stop' }],
      ['message_stop', { type: 'message_stop' }],
    ],
    expect: { stopReason: 'end_turn' },
  },
  {
    name: 'ai-sdk: a tool-call repeated with the same toolCallId is one call',
    provider: 'ai-sdk',
    stream: [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId: 't1', toolName: 'f', input: '{"n":1}' },
      { type: 'tool-call', toolCallId: 't1', toolName: 'f', input: '{"n":1}' },
      { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 3, outputTokens: 2 } },
    ],
    expect: { error: 'BAD_STREAM' },
  },
];

const ollama = (id: string, args: string) => oc({ tool_calls: [{ id, index: 0, type: 'function', function: { name: 'f', arguments: args } }] });

/** Ollama's multi-call shape (every call at index 0, each whole with its own id), and what stays refused. */
export const rv16OllamaCases: Case[] = [
  {
    name: 'openai: Ollama sends every call at index 0, each whole with its own id: three calls, not BAD_STREAM',
    provider: 'openai',
    stream: [ollama('call_x', '{"n":1}'), ollama('call_y', '{"n":2}'), ollama('call_z', '{"n":3}'), oc({}, 'tool_calls')],
    expect: { calls: ['call_x f {"n":1}', 'call_y f {"n":2}', 'call_z f {"n":3}'], deltas: ['call_x f {"n":1}', 'call_y f {"n":2}', 'call_z f {"n":3}'], stopReason: 'tool_use' },
  },
  {
    name: 'openai: a new id at an index whose call is not yet whole JSON is still BAD_STREAM (a proxy with an id per chunk)',
    provider: 'openai',
    stream: [ollama('call_x', '{"n":'), ollama('call_y', '1}'), oc({}, 'tool_calls')],
    expect: { error: 'BAD_STREAM', says: /second id/ },
  },
];

const wide = '😀語é'.repeat(5);

/** Multi-byte characters raw in tool input: the 7-byte reads of runCase cut inside them. */
export const rv16WideCases: Case[] = [
  {
    name: 'openai: tool arguments of 4-, 3- and 2-byte characters, read 7 bytes at a time, arrive whole',
    provider: 'openai',
    stream: [oc({ tool_calls: [call(0, 'call_w', 'f', `{"s":"${wide}`)] }), oc({ tool_calls: [call(0, undefined, undefined, `${wide}"}`)] }), oc({}, 'tool_calls')],
    expect: { calls: [`call_w f {"s":"${wide}${wide}"}`], stopReason: 'tool_use' },
  },
  {
    name: 'anthropic: tool input of 4-, 3- and 2-byte characters, read 7 bytes at a time, arrives whole',
    provider: 'anthropic',
    stream: [
      start,
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'tu_w', name: 'f', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: `{"s":"${wide}` } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: `${wide}"}` } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } }],
      ['message_stop', { type: 'message_stop' }],
    ],
    expect: { calls: [`tu_w f {"s":"${wide}${wide}"}`], stopReason: 'tool_use' },
  },
];

/** AI SDK: the streamed input and the call must be one call. */
export const rv16AiSdkCases: Case[] = [
  {
    name: 'ai-sdk: a tool call under another name than its streamed input is BAD_STREAM (the stream showed f, the call would run g)',
    provider: 'ai-sdk',
    stream: [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-input-start', id: 't1', toolName: 'f' },
      { type: 'tool-input-delta', id: 't1', delta: '{"n":1}' },
      { type: 'tool-input-end', id: 't1' },
      { type: 'tool-call', toolCallId: 't1', toolName: 'g', input: '{"n":1}' },
      { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 3, outputTokens: 2 } },
    ],
    expect: { error: 'BAD_STREAM', says: /streamed the input of f as tool call t1 but called g/ },
  },
  {
    name: 'ai-sdk: input for a call after the call itself is BAD_STREAM',
    provider: 'ai-sdk',
    stream: [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-input-start', id: 't1', toolName: 'f' },
      { type: 'tool-input-delta', id: 't1', delta: '{"n":1}' },
      { type: 'tool-call', toolCallId: 't1', toolName: 'f', input: '{"n":1}' },
      { type: 'tool-input-delta', id: 't1', delta: ' ' },
      { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 3, outputTokens: 2 } },
    ],
    expect: { error: 'BAD_STREAM', says: /after the call itself/ },
  },
  {
    name: 'ai-sdk: streamed input then its call (the ordinary shape) is one call',
    provider: 'ai-sdk',
    stream: [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-input-start', id: 't1', toolName: 'f' },
      { type: 'tool-input-delta', id: 't1', delta: '{"n":' },
      { type: 'tool-input-delta', id: 't1', delta: '1}' },
      { type: 'tool-input-end', id: 't1' },
      { type: 'tool-call', toolCallId: 't1', toolName: 'f', input: '{"n":1}' },
      { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 3, outputTokens: 2 } },
    ],
    expect: { calls: ['t1 f {"n":1}'], deltas: ['t1 f {"n":', 't1 f 1}'], stopReason: 'tool_use' },
  },
];
