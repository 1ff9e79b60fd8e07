// Provider stream conformance (conf3): every chunk/event shape each provider's own SDK types allow
// mid-stream, and the broken shapes a proxy or a hostile endpoint can send, run through a whole agent
// prompt. Each case says what the host must make of it (tool calls with the ids, names and inputs the
// provider gave, a stop reason, or a typed error), and every stream must satisfy the event grammar.
// Written against an `Api` (the sources under vitest: stream-conformance.test.ts; dist/ under Node,
// Deno and Bun: test/xrt/conf3.xrt.ts), so only type imports from host/ here.
import type { aiSdkModel as AiSdkModel, anthropicModel as AnthropicModel, createHost as CreateHost, eventGrammarViolations as Grammar, openaiModel as OpenaiModel } from '../../host/index.js';
import type { HostEvent, Model, ToolHandler } from '../../host/index.js';
import { transcriptViolations } from '../agent/transcript-check.ts';

export interface Api {
  createHost: typeof CreateHost;
  openaiModel: typeof OpenaiModel;
  anthropicModel: typeof AnthropicModel;
  aiSdkModel: typeof AiSdkModel;
  eventGrammarViolations: typeof Grammar;
}

/** What a case must produce: the calls made (id name input), the first message's stop reason, or an error code. */
interface Expect {
  calls?: string[];
  /** Every tool.input.delta as `toolUseId name partialJson`. */
  deltas?: string[];
  stopReason?: string;
  error?: string;
  /** A piece of the error's message. */
  says?: RegExp;
  /** Pieces the second model request must hold (its JSON body; an AI SDK model's prompt as JSON): what the turn replays. */
  next?: string[];
  /** Pieces it must not hold. */
  notNext?: string[];
}

export interface Case {
  name: string;
  provider: 'openai' | 'anthropic' | 'ai-sdk';
  /** SSE `data` payloads (openai), `[type, payload]` events (anthropic), or stream parts (ai-sdk). */
  stream: unknown[];
  /** OpenAI: end with `data: [DONE]` (default true). */
  done?: boolean;
  expect: Expect;
}

const oc = (delta: unknown, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', model: 'gpt-x', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });
const tc = (index: number, fields: { id?: string; name?: string; args?: string }) => ({
  index,
  ...(fields.id === undefined ? {} : { id: fields.id, type: 'function' }),
  function: { ...(fields.name === undefined ? {} : { name: fields.name }), ...(fields.args === undefined ? {} : { arguments: fields.args }) },
});
const start = ['message_start', { type: 'message_start', message: { id: 'msg', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, usage: { input_tokens: 7, output_tokens: 1 } } }];
const blockStart = (index: number, block: unknown) => ['content_block_start', { type: 'content_block_start', index, content_block: block }];
const delta = (index: number, d: unknown) => ['content_block_delta', { type: 'content_block_delta', index, delta: d }];
const stop = (index: number) => ['content_block_stop', { type: 'content_block_stop', index }];
const msgDelta = (reason: string) => ['message_delta', { type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 9 } }];
const msgStop = ['message_stop', { type: 'message_stop' }];
const ping = ['ping', { type: 'ping' }];
const finish4 = (unified: string) => ({ type: 'finish', finishReason: { unified, raw: unified }, usage: { inputTokens: { total: 3 }, outputTokens: { total: 2 } } });

export const cases: Case[] = [
  {
    name: 'openai: two calls interleaved by index, ids and names in a later chunk than the first arguments, null and empty deltas, a usage-only chunk',
    provider: 'openai',
    stream: [
      oc({ role: 'assistant', content: null, refusal: null }),
      oc({ tool_calls: [tc(1, { args: '{"n":' })] }),
      oc({ tool_calls: [tc(0, { id: 'call_a', name: 'f', args: '{"n":' })] }),
      oc({ tool_calls: [tc(1, { id: 'call_b', name: 'f', args: '2}' })] }),
      oc(null),
      oc({ content: '', tool_calls: [tc(0, { args: '1}' })] }),
      oc({ tool_calls: [tc(0, { id: 'call_a', name: 'f' })] }), // some servers repeat the id and name: the same ones are fine
      oc({}, 'tool_calls'),
      { id: 'c', object: 'chat.completion.chunk', model: 'gpt-x', choices: [], usage: { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 } },
    ],
    expect: { calls: ['call_a f {"n":1}', 'call_b f {"n":2}'], deltas: ['call_a f {"n":', 'call_b f {"n":', 'call_b f 2}', 'call_a f 1}'], stopReason: 'tool_use' },
  },
  {
    name: 'openai: calls without an index (Gemini), each whole in its own chunk, are calls of their own; a piece without id continues the last',
    provider: 'openai',
    stream: [
      oc({ tool_calls: [{ id: 'g1', type: 'function', function: { name: 'f', arguments: '{"n":1}' } }] }),
      oc({ tool_calls: [{ id: 'g2', type: 'function', function: { name: 'f', arguments: '{"n":' } }] }),
      oc({ tool_calls: [{ function: { arguments: '2}' } }] }),
      oc({ tool_calls: [{ function: { name: 'f', arguments: '{"n":3}' } }, { function: { name: 'f', arguments: '{"n":4}' } }] }),
      oc({}, 'tool_calls'),
    ],
    expect: { calls: ['g1 f {"n":1}', 'g2 f {"n":2}', 'call_2 f {"n":3}', 'call_3 f {"n":4}'], deltas: ['g1 f {"n":1}', 'g2 f {"n":', 'g2 f 2}', 'call_2 f {"n":3}', 'call_3 f {"n":4}'], stopReason: 'tool_use' },
  },
  {
    name: 'openai: a call given a second, different id is BAD_STREAM, not renamed after its deltas went out',
    provider: 'openai',
    stream: [oc({ tool_calls: [tc(0, { id: 'call_a', name: 'f', args: '{' })] }), oc({ tool_calls: [tc(0, { id: 'call_z', args: '}' })] }), oc({}, 'tool_calls')],
    expect: { error: 'BAD_STREAM', says: /second id/ },
  },
  {
    name: 'openai: a call given a second name is BAD_STREAM',
    provider: 'openai',
    stream: [oc({ tool_calls: [tc(0, { id: 'call_a', name: 'get_', args: '{' })] }), oc({ tool_calls: [tc(0, { name: 'weather', args: '}' })] }), oc({}, 'tool_calls')],
    expect: { error: 'BAD_STREAM', says: /second name/ },
  },
  {
    name: 'openai: arguments for a call after its finish reason are BAD_STREAM, not dropped from its input',
    provider: 'openai',
    stream: [oc({ tool_calls: [tc(0, { id: 'call_a', name: 'f', args: '{}' })] }, 'tool_calls'), oc({ tool_calls: [tc(0, { args: ' ' })] })],
    expect: { error: 'BAD_STREAM', says: /after its finish reason/ },
  },
  {
    name: 'openai: a call that never says its id gets one from its index',
    provider: 'openai',
    stream: [oc({ tool_calls: [tc(0, { name: 'f', args: '{"n":3}' })] }, 'tool_calls')],
    expect: { calls: ['call_0 f {"n":3}'], deltas: ['call_0 f {"n":3}'], stopReason: 'tool_use' },
  },
  { name: 'openai: finish_reason length is max_tokens', provider: 'openai', stream: [oc({ content: 'cut' }, 'length')], expect: { stopReason: 'max_tokens' } },
  { name: 'openai: finish_reason content_filter is refusal', provider: 'openai', stream: [oc({ content: 'no' }, 'content_filter')], expect: { stopReason: 'refusal' } },
  { name: 'openai: finish_reason "abort" (vLLM, SGLang) is BAD_STREAM, not a finished message', provider: 'openai', stream: [oc({ content: 'half an ans' }, 'abort')], expect: { error: 'BAD_STREAM', says: /finished with reason "abort"/ } },
  { name: 'openai: a refusal delta is a refusal', provider: 'openai', stream: [oc({ refusal: 'I cannot help.' }), oc({}, 'stop')], expect: { stopReason: 'refusal' } },
  {
    name: 'openai: an error chunk mid-stream keeps its kind (server_error: OVERLOADED)',
    provider: 'openai',
    stream: [oc({ content: 'partial' }), { error: { message: 'The server had an error', type: 'server_error', code: null } }],
    expect: { error: 'OVERLOADED', says: /The server had an error/ },
  },
  { name: 'openai: a stream cut before its finish reason and [DONE] is BAD_STREAM', provider: 'openai', stream: [oc({ tool_calls: [tc(0, { id: 'call_a', name: 'f', args: '{"n":' })] })], done: false, expect: { error: 'BAD_STREAM', says: /ended before a finish reason/ } },
  {
    name: 'anthropic: ping, signed thinking, redacted thinking, a server tool with its streamed input and result, text, then a tool_use',
    provider: 'anthropic',
    stream: [
      start,
      ping,
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'Let me look.' }),
      delta(0, { type: 'signature_delta', signature: 'sig' }),
      stop(0),
      blockStart(1, { type: 'redacted_thinking', data: 'opaque' }),
      stop(1),
      blockStart(2, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
      delta(2, { type: 'input_json_delta', partial_json: '{"query":"x"}' }),
      stop(2),
      blockStart(3, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] }),
      stop(3),
      blockStart(4, { type: 'text', text: '' }),
      delta(4, { type: 'text_delta', text: 'Calling f.' }),
      delta(4, { type: 'citations_delta', citation: { type: 'char_location', cited_text: 'x' } }),
      stop(4),
      ping,
      blockStart(5, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }),
      delta(5, { type: 'input_json_delta', partial_json: '' }),
      delta(5, { type: 'input_json_delta', partial_json: '{"n":' }),
      delta(5, { type: 'input_json_delta', partial_json: '5}' }),
      stop(5),
      msgDelta('tool_use'),
      msgStop,
    ],
    expect: { calls: ['toolu_1 f {"n":5}'], deltas: ['toolu_1 f {"n":', 'toolu_1 f 5}'], stopReason: 'tool_use' },
  },
  {
    name: 'anthropic: a second content_block_stop for a tool_use is BAD_STREAM, not a second call',
    provider: 'anthropic',
    stream: [start, blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }), delta(0, { type: 'input_json_delta', partial_json: '{}' }), stop(0), stop(0), msgDelta('tool_use'), msgStop],
    expect: { error: 'BAD_STREAM', says: /stopped content block 0 twice/ },
  },
  {
    name: 'anthropic: input after a tool_use block stopped is BAD_STREAM, not dropped',
    provider: 'anthropic',
    stream: [start, blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }), stop(0), delta(0, { type: 'input_json_delta', partial_json: '{"n":1}' }), msgDelta('tool_use'), msgStop],
    expect: { error: 'BAD_STREAM', says: /after its content_block_stop/ },
  },
  {
    name: 'anthropic: a second content_block_start at an index is BAD_STREAM, not a replacement of the first block',
    provider: 'anthropic',
    stream: [start, blockStart(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'hi' }), blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }), stop(0), msgStop],
    expect: { error: 'BAD_STREAM', says: /started content block 0 twice/ },
  },
  { name: 'anthropic: stop_reason max_tokens', provider: 'anthropic', stream: [start, blockStart(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'cut' }), stop(0), msgDelta('max_tokens'), msgStop], expect: { stopReason: 'max_tokens' } },
  {
    name: 'anthropic: stop_reason pause_turn is BAD_STREAM, not a finished message (server-tool turns are not resumed)',
    provider: 'anthropic',
    stream: [start, blockStart(0, { type: 'text', text: 'Searching' }), stop(0), blockStart(1, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }), stop(1), msgDelta('pause_turn'), msgStop],
    expect: { error: 'BAD_STREAM', says: /pause_turn/ },
  },
  { name: 'anthropic: stop_reason refusal', provider: 'anthropic', stream: [start, msgDelta('refusal'), msgStop], expect: { stopReason: 'refusal' } },
  {
    name: 'anthropic: an overloaded_error event mid-stream is OVERLOADED',
    provider: 'anthropic',
    stream: [start, blockStart(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'par' }), ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]],
    expect: { error: 'OVERLOADED', says: /Overloaded/ },
  },
  { name: 'anthropic: a stream cut before message_stop is BAD_STREAM', provider: 'anthropic', stream: [start, blockStart(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'par' })], expect: { error: 'BAD_STREAM', says: /before message_stop/ } },
  {
    name: 'ai-sdk: finish reason "error" is BAD_STREAM, not a finished message',
    provider: 'ai-sdk',
    stream: [{ type: 'stream-start', warnings: [] }, { type: 'text-delta', id: 't', delta: 'par' }, finish4('error')],
    expect: { error: 'BAD_STREAM', says: /finished with reason "error"/ },
  },
  {
    name: 'ai-sdk: a provider-executed tool streams its input without a tool.input.delta of ours; our own call goes through',
    provider: 'ai-sdk',
    stream: [
      { type: 'tool-input-start', id: 'srv1', toolName: 'web_search', providerExecuted: true },
      { type: 'tool-input-delta', id: 'srv1', delta: '{"q":1}' },
      { type: 'tool-call', toolCallId: 'srv1', toolName: 'web_search', input: '{"q":1}', providerExecuted: true },
      { type: 'tool-input-start', id: 'c1', toolName: 'f' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"n":4}' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: '{"n":4}' },
      finish4('tool-calls'),
    ],
    expect: { calls: ['c1 f {"n":4}'], deltas: ['c1 f {"n":4}'], stopReason: 'tool_use' },
  },
];

/** Each provider's plain closing turn (after tool results). */
const CLOSING = {
  openai: [oc({ content: 'done' }, 'stop')],
  anthropic: [start, blockStart(0, { type: 'text', text: 'done' }), stop(0), msgDelta('end_turn'), msgStop],
  'ai-sdk': [{ type: 'text-delta', id: 't', delta: 'done' }, finish4('stop')],
} as const;

function sseBody(c: Pick<Case, 'provider' | 'stream' | 'done'>): string {
  if (c.provider === 'openai') return c.stream.map((d) => `data: ${JSON.stringify(d)}\n\n`).join('') + (c.done === false ? '' : 'data: [DONE]\n\n');
  return (c.stream as Array<[string, unknown]>).map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

/** Answers the first request with the case's stream and later ones with a closing turn, 7 bytes at a time. */
function fetchOf(c: Case, sent: string[]): typeof fetch {
  let calls = 0;
  return async (_url, init) => {
    sent.push(String(init?.body));
    const body = calls++ === 0 ? sseBody(c) : sseBody({ provider: c.provider, stream: [...CLOSING[c.provider]] });
    const bytes = new TextEncoder().encode(body);
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at < bytes.length) controller.enqueue(bytes.slice(at, (at += 7)));
        else controller.close();
      },
    });
    return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
  };
}

function modelOf(api: Api, c: Case, sent: string[]): Model {
  const retry = { maxRetries: 0 };
  switch (c.provider) {
    case 'openai':
      return api.openaiModel({ model: 'gpt-x', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', fetch: fetchOf(c, sent), retry });
    case 'anthropic':
      return api.anthropicModel({ model: 'claude-x', baseURL: 'http://127.0.0.1:9', apiKey: 'k', fetch: fetchOf(c, sent), retry });
    case 'ai-sdk': {
      let calls = 0;
      const parts = () => (calls++ === 0 ? c.stream : [...CLOSING['ai-sdk']]);
      const fake = {
        specificationVersion: 'v2',
        provider: 'fake',
        modelId: 'fake-1',
        supportedUrls: {},
        doGenerate: async () => Promise.reject(new Error('not used')),
        doStream: async (options: { prompt: unknown }) => {
          sent.push(JSON.stringify(options.prompt));
          const list = parts();
          return { stream: new ReadableStream({ start: (controller) => { for (const p of list) controller.enqueue(p); controller.close(); } }) };
        },
      };
      return api.aiSdkModel(fake as never, { retry });
    }
    default:
      return c.provider satisfies never;
  }
}

const fTool: ToolHandler = {
  name: 'f',
  description: 'f (a test tool)',
  inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
  kind: 'js',
  concurrencySafe: true,
  run: async () => ({ content: 'ok', isError: false }),
} as unknown as ToolHandler;

/** Runs one case as a whole prompt; returns what differs from its expectation (empty when it conforms). */
export async function runCase(api: Api, c: Case): Promise<string[]> {
  const sent: string[] = [];
  const host = api.createHost({ model: modelOf(api, c, sent), tools: [fTool], allowedTools: ['f'], cwd: '/proj' });
  const events: HostEvent[] = [];
  const session = host.session();
  for await (const event of session.stream('go')) events.push(event);
  const problems = api.eventGrammarViolations(events).map((v) => `grammar: ${v.rule} ${v.message}`);
  // conf4: the conversation the stream left agrees with its events and replays as providers accept.
  problems.push(...transcriptViolations(events, 0, session.messages).map((p) => `transcript: ${p}`));
  const calls = events.flatMap((e) => (e.type === 'tool.call' ? [`${e.toolUseId} ${e.name} ${JSON.stringify(e.input)}`] : []));
  const deltas = events.flatMap((e) => (e.type === 'tool.input.delta' ? [`${e.toolUseId} ${e.name} ${e.partialJson}`] : []));
  const error = events.find((e): e is Extract<HostEvent, { type: 'error' }> => e.type === 'error');
  const end = events.find((e): e is Extract<HostEvent, { type: 'message.end' }> => e.type === 'message.end');
  const want = c.expect;
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (want.error === undefined && error) problems.push(`unexpected error ${error.code}: ${error.message}`);
  if (want.error !== undefined && error?.code !== want.error) problems.push(`error ${String(error?.code)} (${String(error?.message)}), wanted ${want.error}`);
  if (want.says && !want.says.test(error?.message ?? '')) problems.push(`error message ${JSON.stringify(error?.message)} does not match ${String(want.says)}`);
  if (want.error !== undefined && end?.stopReason !== undefined && calls.length > 0) problems.push(`a failed stream still made calls: ${calls.join('; ')}`);
  if (want.calls && !same(calls, want.calls)) problems.push(`calls ${JSON.stringify(calls)}, wanted ${JSON.stringify(want.calls)}`);
  if (want.deltas && !same(deltas, want.deltas)) problems.push(`deltas ${JSON.stringify(deltas)}, wanted ${JSON.stringify(want.deltas)}`);
  if (want.stopReason && end?.stopReason !== want.stopReason) problems.push(`stop reason ${String(end?.stopReason)}, wanted ${want.stopReason}`);
  for (const piece of want.next ?? []) if (!(sent[1] ?? '').includes(piece)) problems.push(`the next request lacks ${piece}: ${String(sent[1]).slice(0, 2000)}`);
  for (const piece of want.notNext ?? []) if ((sent[1] ?? '').includes(piece)) problems.push(`the next request holds ${piece}: ${String(sent[1]).slice(0, 2000)}`);
  return problems;
}
