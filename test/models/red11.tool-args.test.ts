// red11, class "data that means one thing here and another a step later", from the model's side:
// a plugin's rewritten input that names a key twice or uses `__proto__` is BAD_OUTPUT (red8), but the
// model's own tool-call arguments (a prompt-injected call) went through JSON.parse as they were: the
// last of two "command" keys won here, the first in a reader that keeps the first. Now the provider
// decoders refuse them as BAD_STREAM, whole or streamed in parts. Fails on the old code.
import { describe, expect, it } from 'vitest';
import { ChatCompletionsDecoder } from '../../host/models/openai-decoder.js';
import { MessagesDecoder } from '../../host/models/anthropic-decoder.js';
import type { ModelEvent } from '../../host/models/types.js';

const msg = (data: object | string, event?: string) => ({ data: typeof data === 'string' ? data : JSON.stringify(data), event, id: undefined });

function openai(args: string): ModelEvent[] {
  const d = new ChatCompletionsDecoder('test', 'm');
  const chunk = (delta: object, finish: string | null = null) => msg({ choices: [{ index: 0, delta, finish_reason: finish }] });
  return [...d.push(chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'Bash', arguments: args } }] })), ...d.push(chunk({}, 'tool_calls')), ...d.push(msg('[DONE]')), ...d.finish()];
}

function anthropic(start: object, parts: string[]): ModelEvent[] {
  const d = new MessagesDecoder('test', 'm');
  const out: ModelEvent[] = [];
  const push = (data: object) => out.push(...d.push(msg(data, (data as { type: string }).type)));
  push({ type: 'message_start', message: { model: 'm', usage: { input_tokens: 1, output_tokens: 0 } } });
  push({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't1', name: 'Bash', input: start } });
  for (const p of parts) push({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: p } });
  push({ type: 'content_block_stop', index: 0 });
  push({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 1 } });
  push({ type: 'message_stop' });
  out.push(...d.finish());
  return out;
}

const refused = (events: ModelEvent[]) => {
  expect(events.some((e) => e.type === 'tool.call')).toBe(false);
  expect(events.find((e) => e.type === 'error')).toMatchObject({ type: 'error', error: { code: 'BAD_STREAM' } });
};

describe("the model's tool-call arguments (red11)", () => {
  it('OpenAI: a key named twice, or __proto__, is BAD_STREAM; a plain object still calls the tool', () => {
    refused(openai('{"command":"ls","command":"rm -rf /"}'));
    refused(openai('{"__proto__":{"command":"rm -rf /"}}'));
    refused(openai('{"a":{"b":1,"\\u0062":2}}'));
    expect(openai('{"command":"ls"}').find((e) => e.type === 'tool.call')).toMatchObject({ input: { command: 'ls' } });
  });

  it('Anthropic: streamed in parts or given whole at the block start', () => {
    refused(anthropic({}, ['{"command":"ls",', '"command":"rm -rf /"}']));
    refused(anthropic({ command: 'ls', ['__proto__' as string]: null }, []));
    const startDup = anthropic({}, []);
    expect(startDup.find((e) => e.type === 'tool.call')).toMatchObject({ input: {} });
  });
});

describe('numbers past a double (red11)', () => {
  it('a model\'s 1e400 is BAD_STREAM, a plugin\'s rewritten 1e400 BAD_OUTPUT: Infinity here, null to the next reader', async () => {
    refused(openai('{"timeout":1e400}'));
    refused(openai('{"n":[1,{"m":-1e999}]}'));
    expect(openai('{"timeout":1e300}').find((e) => e.type === 'tool.call')).toMatchObject({ input: { timeout: 1e300 } });
    const { decodeHookResponse } = await import('../../host/protocol/codec.js');
    const json = new TextEncoder().encode('{"command":"sleep","timeout":1e400}');
    const decoded = decodeHookResponse(new Uint8Array([0x1a, json.length, ...json]));
    expect(decoded).toMatchObject({ ok: false, failure: { code: 'BAD_OUTPUT', message: expect.stringMatching(/too large for a double/) } });
  });
});

describe('parseJson: the key and number rules in one pass over the text (hk3)', () => {
  it('a key named twice is reported before a 1e400 that comes first; long digit runs without an exponent; numbers in strings ignored', async () => {
    const { parseJson, TOOL_INPUT_JSON } = await import('../../host/json.js');
    const problem = (text: string) => {
      const r = parseJson(text, 'x', TOOL_INPUT_JSON);
      return r.ok ? 'ok' : r.problem;
    };
    expect(problem('{"n":1e400,"a":1,"a":2}')).toBe('duplicate_key');
    expect(problem('[1e400,{"__proto__":1}]')).toBe('duplicate_key');
    expect(problem(`[${'9'.repeat(310)}]`)).toBe('not_finite');
    expect(problem(`{"n":-${'9'.repeat(309)}.5}`)).toBe('not_finite');
    expect(problem(`[${'9'.repeat(300)},-2.5e-400,1.7976931348623157e308]`)).toBe('ok');
    expect(problem('{"s":"1e400","e1":"-9e999"}')).toBe('ok');
    expect(parseJson('[1e400]', 'x').ok).toBe(true); // the rule applies with uniqueKeys only, as before
  });
});
