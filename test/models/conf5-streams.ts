// conf5: the output token limit (or a content filter) inside a tool call's input says so, in one wording,
// whichever provider cut it (OpenAI's finish_reason "length", Anthropic's stop_reason "max_tokens", the AI
// SDK's finishReason "length"), and a call cut before its input never runs with {}; blank user and
// assistant text never reaches an AI SDK provider.
// Case form of stream-conformance.ts; vitest twin conf5.streams.test.ts, on Node, Deno and Bun
// test/xrt/conf5.xrt.ts. Only type imports from host/ (the xrt runs it against dist/).
import type { aiSdkModel as AiSdkModel, anthropicModel as AnthropicModel, Message, Model, openaiModel as OpenaiModel } from '../../host/index.js';
import type { Case } from './stream-conformance.ts';

const start = ['message_start', { type: 'message_start', message: { id: 'msg', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, usage: { input_tokens: 7, output_tokens: 1 } } }];
const blockStart = (index: number, block: unknown) => ['content_block_start', { type: 'content_block_start', index, content_block: block }];
const delta = (index: number, d: unknown) => ['content_block_delta', { type: 'content_block_delta', index, delta: d }];
const stop = (index: number) => ['content_block_stop', { type: 'content_block_stop', index }];
const msgDelta = (reason: string) => ['message_delta', { type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 9 } }];
const msgStop = ['message_stop', { type: 'message_stop' }];
const toolStart = (index: number) => blockStart(index, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} });
const half = (index: number) => delta(index, { type: 'input_json_delta', partial_json: '{"n":' });
const finish4 = (unified: string) => ({ type: 'finish', finishReason: { unified, raw: unified }, usage: { inputTokens: { total: 3 }, outputTokens: { total: 2 } } });
const oc = (d: unknown, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', model: 'gpt-x', choices: [{ index: 0, delta: d, finish_reason: finish, logprobs: null }] });

/** The one wording (provider-stream.ts `malformedToolInput`), with the provider's own name for the limit. */
const cut = (by: string) => new RegExp(`malformed JSON input .*The answer was cut at the output token limit \\(${by.replace(/[()]/g, '\\$&')}\\) before the input ended: raise maxTokens\\.$`, 's');
/** A call named just before the limit, with no input at all: never run with `{}`. */
const cutBeforeInput = (by: string) => new RegExp(`has no input\\. The answer was cut at the output token limit \\(${by.replace(/[()]/g, '\\$&')}\\) before the input ended: raise maxTokens\\.$`);
/** The provider's content filter ended the answer inside the input: said so, and the call is not run. */
const filtered = (by: string) => new RegExp(`The provider's content filter ended the answer \\(${by.replace(/[()]/g, '\\$&')}\\) before the input ended; the call is not run\\.$`);
/** Malformed, and not said to be cut. */
const brokenNotCut = /^(?!.*(token limit|content filter)).*malformed JSON input/s;

export const conf5Cases: Case[] = [
  {
    // The API sends the tool block's content_block_stop before the message_delta that says max_tokens:
    // the input was reported as malformed JSON at the stop, and the user was not told to raise maxTokens.
    name: 'anthropic: tool input cut by stop_reason max_tokens says the token limit cut it and to raise maxTokens',
    provider: 'anthropic',
    stream: [start, toolStart(0), half(0), stop(0), msgDelta('max_tokens'), msgStop],
    expect: { error: 'BAD_STREAM', says: cut('stop_reason "max_tokens"') },
  },
  {
    name: 'anthropic: a context window that ends the answer inside the input is the same cut',
    provider: 'anthropic',
    stream: [start, toolStart(0), half(0), stop(0), msgDelta('model_context_window_exceeded'), msgStop],
    expect: { error: 'BAD_STREAM', says: cut('stop_reason "model_context_window_exceeded"') },
  },
  {
    name: 'anthropic: stop_reason refusal inside a tool input says the content filter ended it',
    provider: 'anthropic',
    stream: [start, toolStart(0), half(0), stop(0), msgDelta('refusal'), msgStop],
    expect: { error: 'BAD_STREAM', says: filtered('stop_reason "refusal"') },
  },
  {
    name: 'anthropic: stop_reason refusal right after a tool name: the call does not run with {}',
    provider: 'anthropic',
    stream: [start, toolStart(0), stop(0), msgDelta('refusal'), msgStop],
    expect: { error: 'BAD_STREAM', says: filtered('stop_reason "refusal"'), calls: [] },
  },
  {
    name: 'openai: finish_reason content_filter inside the arguments says the content filter ended them',
    provider: 'openai',
    stream: [oc({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"n":' } }] }), oc({}, 'content_filter')],
    expect: { error: 'BAD_STREAM', says: filtered('finish_reason "content_filter"') },
  },
  {
    name: 'ai-sdk: finishReason content-filter after a broken tool-call input says the content filter ended it',
    provider: 'ai-sdk',
    stream: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: '{"n":' }, finish4('content-filter')],
    expect: { error: 'BAD_STREAM', says: filtered('finishReason "content-filter"') },
  },
  {
    name: 'anthropic: broken input with stop_reason tool_use is malformed, not a cut',
    provider: 'anthropic',
    stream: [start, toolStart(0), half(0), stop(0), msgDelta('tool_use'), msgStop],
    expect: { error: 'BAD_STREAM', says: brokenNotCut },
  },
  {
    name: 'anthropic: a block after the broken input shows the answer went on: malformed, and no later call runs',
    provider: 'anthropic',
    stream: [start, toolStart(0), half(0), stop(0), blockStart(1, { type: 'tool_use', id: 'toolu_2', name: 'f', input: {} }), delta(1, { type: 'input_json_delta', partial_json: '{"n":2}' }), stop(1), msgDelta('max_tokens'), msgStop],
    expect: { error: 'BAD_STREAM', says: brokenNotCut, calls: [] },
  },
  {
    name: 'anthropic: a stream that ends after the broken input reports the input',
    provider: 'anthropic',
    stream: [start, toolStart(0), half(0), stop(0)],
    expect: { error: 'BAD_STREAM', says: brokenNotCut },
  },
  {
    // Before, the call ran with `{}`: the tool's defaults, on an answer the limit had cut.
    name: 'anthropic: a tool named just before max_tokens, with no input, does not run with {}: the same cut',
    provider: 'anthropic',
    stream: [start, toolStart(0), stop(0), msgDelta('max_tokens'), msgStop],
    expect: { error: 'BAD_STREAM', says: cutBeforeInput('stop_reason "max_tokens"'), calls: [] },
  },
  {
    name: 'anthropic: a call without arguments (no input, stop_reason tool_use) still runs with {}',
    provider: 'anthropic',
    stream: [start, toolStart(0), delta(0, { type: 'input_json_delta', partial_json: '' }), stop(0), msgDelta('tool_use'), msgStop],
    expect: { calls: ['toolu_1 f {}'], stopReason: 'tool_use' },
  },
  {
    name: 'anthropic: a call without arguments followed by another block runs, in order',
    provider: 'anthropic',
    stream: [start, toolStart(0), stop(0), blockStart(1, { type: 'tool_use', id: 'toolu_2', name: 'f', input: {} }), delta(1, { type: 'input_json_delta', partial_json: '{"n":2}' }), stop(1), msgDelta('tool_use'), msgStop],
    expect: { calls: ['toolu_1 f {}', 'toolu_2 f {"n":2}'], stopReason: 'tool_use' },
  },
  {
    name: 'openai: a call named just before finish_reason "length", with no arguments, does not run with {}',
    provider: 'openai',
    stream: [oc({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }] }), oc({}, 'length')],
    expect: { error: 'BAD_STREAM', says: cutBeforeInput('finish_reason "length"'), calls: [] },
  },
  {
    name: 'openai: arguments cut by finish_reason "length" in the same words',
    provider: 'openai',
    stream: [oc({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"n":' } }] }), oc({}, 'length')],
    expect: { error: 'BAD_STREAM', says: cut('finish_reason "length"') },
  },
  {
    // @ai-sdk/anthropic emits the tool-call (its input as streamed) at the block's stop, then the finish part.
    name: 'ai-sdk: a tool-call input cut by finishReason "length" in the same words',
    provider: 'ai-sdk',
    stream: [
      { type: 'tool-input-start', id: 'c1', toolName: 'f' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"n":' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: '{"n":' },
      finish4('length'),
    ],
    expect: { error: 'BAD_STREAM', says: cut('finishReason "length"') },
  },
  {
    name: 'ai-sdk: a tool-call with empty input cut by finishReason "length" does not run with {}',
    provider: 'ai-sdk',
    stream: [{ type: 'tool-input-start', id: 'c1', toolName: 'f' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: '' }, finish4('length')],
    expect: { error: 'BAD_STREAM', says: cutBeforeInput('finishReason "length"'), calls: [] },
  },
  {
    name: 'ai-sdk: a tool-call with empty input otherwise runs with {}, in order',
    provider: 'ai-sdk',
    stream: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: '' }, { type: 'tool-call', toolCallId: 'c2', toolName: 'f', input: '{"n":2}' }, finish4('tool-calls')],
    expect: { calls: ['c1 f {}', 'c2 f {"n":2}'], stopReason: 'tool_use' },
  },
  {
    name: 'ai-sdk: a malformed tool-call input with finishReason "tool-calls" is malformed, not a cut',
    provider: 'ai-sdk',
    stream: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: '{"n":' }, finish4('tool-calls')],
    expect: { error: 'BAD_STREAM', says: brokenNotCut },
  },
  {
    // @ai-sdk/anthropic passes a text part on as a text block: "\n\n" before a tool call refused every later turn.
    name: 'ai-sdk: whitespace-only text before a tool call is not sent back',
    provider: 'ai-sdk',
    stream: [
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: '\n\n' },
      { type: 'text-end', id: 't' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: '{"n":1}' },
      finish4('tool-calls'),
    ],
    expect: {
      calls: ['c1 f {"n":1}'],
      next: ['{"role":"assistant","content":[{"type":"tool-call","toolCallId":"c1","toolName":"f","input":{"n":1}}]}'],
      notNext: ['"text":"\\n\\n"'],
    },
  },
];

interface AiSdkApi {
  aiSdkModel: typeof AiSdkModel;
}

/**
 * The prompt an AI SDK model is given for a history with blank user text (a prompt `""` or `"  "`, an
 * assistant turn of whitespace): @ai-sdk/anthropic passes `{type:'text',text:''}` on as an empty text
 * block (refused: "text content blocks must be non-empty"), Gemini refuses an empty text part, and a
 * message with no content is refused by every provider. Returns what is wrong (empty when it conforms).
 */
export async function blankUserText(api: AiSdkApi): Promise<string[]> {
  const prompts: unknown[] = [];
  const fake = {
    specificationVersion: 'v2',
    provider: 'fake',
    modelId: 'fake-1',
    supportedUrls: {},
    doGenerate: async () => Promise.reject(new Error('not used')),
    doStream: async (options: { prompt: unknown }) => {
      prompts.push(options.prompt);
      return { stream: new ReadableStream({ start: (c) => { c.enqueue({ type: 'text-delta', id: 't', delta: 'ok' }); c.enqueue(finish4('stop')); c.close(); } }) };
    },
  };
  const model = api.aiSdkModel(fake as never, { retry: { maxRetries: 0 } });
  const messages: Message[] = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
    { role: 'user', content: '' },
    { role: 'assistant', content: [{ type: 'text', text: ' \n' }] },
    { role: 'user', content: ' \t\n' },
    { role: 'user', content: 'go on' },
  ];
  for await (const event of model.stream({ messages, tools: [], signal: new AbortController().signal })) if (event.type === 'error') return [`the turn failed: ${event.error.message}`];
  const problems: string[] = [];
  const sent = JSON.stringify(prompts[0]);
  const want = JSON.stringify([
    { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
    { role: 'user', content: [{ type: 'text', text: 'go on' }] },
  ]);
  if (sent !== want) problems.push(`prompt ${sent}, wanted ${want}`);
  return problems;
}

interface WireApi extends AiSdkApi {
  anthropicModel: typeof AnthropicModel;
  openaiModel: typeof OpenaiModel;
}

/**
 * What each provider is sent for a failed tool result without text (a hook's deny without a reason, a
 * tool's bare failure): Anthropic refuses `is_error` with empty content ("content cannot be empty if
 * is_error is true"), natively and through @ai-sdk/anthropic, on that and every later turn.
 */
export async function blankErrorResult(api: WireApi): Promise<string[]> {
  const sent: string[] = [];
  const sse = (body: string) => async (_url: unknown, init?: { body?: unknown }) => {
    sent.push(String(init?.body));
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
  const anthropicEnd = ['message_start', 'message_delta', 'message_stop'].map((type) => `event: ${type}\ndata: ${JSON.stringify(type === 'message_start' ? { type, message: { model: 'claude-x', usage: { input_tokens: 1, output_tokens: 1 } } } : type === 'message_delta' ? { type, delta: { stop_reason: 'end_turn' } } : { type })}\n\n`).join('');
  const openaiEnd = `data: ${JSON.stringify({ model: 'gpt-x', choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
  const fake = {
    specificationVersion: 'v2',
    provider: 'fake',
    modelId: 'fake-1',
    supportedUrls: {},
    doGenerate: async () => Promise.reject(new Error('not used')),
    doStream: async (options: { prompt: unknown }) => {
      sent.push(JSON.stringify(options.prompt));
      return { stream: new ReadableStream({ start: (c) => { c.enqueue(finish4('stop')); c.close(); } }) };
    },
  };
  const retry = { maxRetries: 0 };
  const models: Array<[string, Model, string]> = [
    ['anthropic', api.anthropicModel({ model: 'claude-x', baseURL: 'http://127.0.0.1:9', apiKey: 'k', fetch: sse(anthropicEnd) as typeof fetch, retry }), '"content":"f failed without a message","is_error":true'],
    ['ai-sdk', api.aiSdkModel(fake as never, { retry }), '"output":{"type":"error-text","value":"f failed without a message"}'],
    ['openai', api.openaiModel({ model: 'gpt-x', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', fetch: sse(openaiEnd) as typeof fetch, retry }), '"content":"Error: f failed without a message"'],
  ];
  const messages: Message[] = [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: [{ type: 'tool_call', id: 'toolu_1', name: 'f', input: {} }] },
    { role: 'tool', toolUseId: 'toolu_1', toolName: 'f', content: ' ', isError: true },
  ];
  const problems: string[] = [];
  for (const [name, model, want] of models) {
    sent.length = 0;
    for await (const event of model.stream({ messages, tools: [], signal: new AbortController().signal })) if (event.type === 'error') problems.push(`${name}: ${event.error.message}`);
    if (!(sent[0] ?? '').includes(want)) problems.push(`${name} was sent ${String(sent[0]).slice(0, 1000)}, wanted ${want}`);
  }
  return problems;
}
