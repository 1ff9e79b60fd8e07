// conf4: what a turn sends back. Stream shapes whose answer the next request must replay as the
// provider accepts it (AI SDK provider metadata: Anthropic thinking signatures and redacted data,
// Gemini thought signatures; Anthropic text blocks), and an AI SDK input delta no start named.
// In the Case form of stream-conformance.ts (its runCase runs a whole prompt and reads the second
// request): vitest twin conf4-streams.test.ts, on Node, Deno and Bun test/xrt/conf4.xrt.ts.
import type { Case } from './stream-conformance.ts';

const finish4 = (unified: string) => ({ type: 'finish', finishReason: { unified, raw: unified }, usage: { inputTokens: { total: 3 }, outputTokens: { total: 2 } } });
const start = ['message_start', { type: 'message_start', message: { id: 'msg', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, usage: { input_tokens: 7, output_tokens: 1 } } }];
const blockStart = (index: number, block: unknown) => ['content_block_start', { type: 'content_block_start', index, content_block: block }];
const delta = (index: number, d: unknown) => ['content_block_delta', { type: 'content_block_delta', index, delta: d }];
const stop = (index: number) => ['content_block_stop', { type: 'content_block_stop', index }];
const msgDelta = (reason: string) => ['message_delta', { type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 9 } }];
const msgStop = ['message_stop', { type: 'message_stop' }];
const oc = (d: unknown, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', model: 'gpt-x', choices: [{ index: 0, delta: d, finish_reason: finish, logprobs: null }] });
const tc = (index: number, id: string | undefined, name: string | undefined, args: string) => ({ index, ...(id ? { id, type: 'function' } : {}), function: { ...(name ? { name } : {}), arguments: args } });

export const conf4Cases: Case[] = [
  {
    // @ai-sdk/anthropic streams a signature as a reasoning-delta's metadata and redacted thinking as a
    // reasoning-start's; @ai-sdk/google puts thought signatures on text and tool-call parts. Without them
    // back as providerOptions the provider refuses the tool-result turn (Anthropic: "thinking blocks …
    // must remain as they were"; Gemini 3: a function call without its thought signature).
    name: 'ai-sdk: each reasoning block, text and tool call goes back with its provider metadata as providerOptions',
    provider: 'ai-sdk',
    stream: [
      { type: 'stream-start', warnings: [] },
      { type: 'reasoning-start', id: '0' },
      { type: 'reasoning-delta', id: '0', delta: 'Let me check.' },
      { type: 'reasoning-delta', id: '0', delta: '', providerMetadata: { anthropic: { signature: 'sig-A' } } },
      { type: 'reasoning-end', id: '0' },
      { type: 'reasoning-start', id: '1', providerMetadata: { anthropic: { redactedData: 'opaque-B' } } },
      { type: 'reasoning-end', id: '1' },
      { type: 'text-start', id: '2' },
      { type: 'text-delta', id: '2', delta: 'Checking.', providerMetadata: { google: { thoughtSignature: 'ts-T' } } },
      { type: 'text-end', id: '2' },
      { type: 'tool-input-start', id: 'c1', toolName: 'f' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"n":1}' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: '{"n":1}', providerMetadata: { google: { thoughtSignature: 'ts-C' } } },
      finish4('tool-calls'),
    ],
    expect: {
      calls: ['c1 f {"n":1}'],
      stopReason: 'tool_use',
      next: [
        '{"role":"assistant","content":[{"type":"reasoning","text":"Let me check.","providerOptions":{"anthropic":{"signature":"sig-A"}}},' +
          '{"type":"reasoning","text":"","providerOptions":{"anthropic":{"redactedData":"opaque-B"}}},' +
          '{"type":"text","text":"Checking.","providerOptions":{"google":{"thoughtSignature":"ts-T"}}},' +
          '{"type":"tool-call","toolCallId":"c1","toolName":"f","input":{"n":1},"providerOptions":{"google":{"thoughtSignature":"ts-C"}}}]}',
      ],
    },
  },
  {
    // The AI SDK's UI stream throws on it ("Ensure a tool-input-start chunk is sent before any
    // tool-input-delta chunks"); dropping it showed watchers less input than the call ran with.
    name: 'ai-sdk: a tool-input-delta for an id no tool-input-start named is BAD_STREAM, not dropped',
    provider: 'ai-sdk',
    stream: [
      { type: 'tool-input-start', id: 'c1', toolName: 'f' },
      { type: 'tool-input-delta', id: 'c2', delta: '{"n":1}' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: '{"n":1}' },
      finish4('tool-calls'),
    ],
    expect: { error: 'BAD_STREAM', says: /tool call c2 without a tool-input-start/ },
  },
  {
    // The Messages API refuses a text block that is empty or only whitespace when its message has no
    // other text ("text content blocks must contain non-whitespace text"); kept in the history, it
    // refused every later turn of the session.
    name: 'anthropic: a whitespace-only text block is not sent back; signed thinking is, before its tool_use',
    provider: 'anthropic',
    stream: [
      start,
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'hm' }),
      delta(0, { type: 'signature_delta', signature: 'sig' }),
      stop(0),
      blockStart(1, { type: 'text', text: '' }),
      delta(1, { type: 'text_delta', text: '\n\n' }),
      stop(1),
      blockStart(2, { type: 'tool_use', id: 'tu1', name: 'f', input: {} }),
      delta(2, { type: 'input_json_delta', partial_json: '{"n":1}' }),
      stop(2),
      msgDelta('tool_use'),
      msgStop,
    ],
    expect: {
      calls: ['tu1 f {"n":1}'],
      stopReason: 'tool_use',
      next: ['{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"sig"},{"type":"tool_use","id":"tu1","name":"f","input":{"n":1}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1"'],
    },
  },
  {
    name: 'openai: arguments cut by finish_reason "length" are BAD_STREAM saying the token limit cut them',
    provider: 'openai',
    stream: [oc({ tool_calls: [tc(0, 'call_a', 'f', '{"n":')] }), oc({}, 'length')],
    expect: { error: 'BAD_STREAM', says: /cut at the output token limit \(finish_reason "length"\).*raise maxTokens/ },
  },
  {
    name: 'openai: parallel calls interleaved by index go back in index order, each result right after them under its id',
    provider: 'openai',
    stream: [oc({ tool_calls: [tc(1, 'call_b', 'f', '{"n":')] }), oc({ tool_calls: [tc(0, 'call_a', 'f', '{}')] }), oc({ tool_calls: [tc(1, undefined, undefined, '2}')] }), oc({}, 'tool_calls')],
    expect: {
      calls: ['call_a f {}', 'call_b f {"n":2}'],
      next: [
        '{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"call_b","type":"function","function":{"name":"f","arguments":"{\\"n\\":2}"}}]},' +
          '{"role":"tool","tool_call_id":"call_a","content":"ok"},{"role":"tool","tool_call_id":"call_b","content":"ok"}',
      ],
    },
  },
];
