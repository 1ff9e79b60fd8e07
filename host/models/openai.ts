/**
 * A `Model` for any server that speaks OpenAI Chat Completions with
 * streaming: OpenAI itself, Ollama, vLLM, llama.cpp's server, LM Studio, …
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { z } from 'zod';
import { messageOf } from '../errors.js';
import { lazy } from '../lazy.js';
import { providerMessage } from './http.js';
import { type HttpModelOptions, httpOptionsSchema, httpSettings, validate } from './options.js';
import { type Chunk, chunkSchema, toRequestBody } from './openai-wire.js';
import { badStream, midStreamError, parseData, providerModel, type WireDecoder } from './provider-stream.js';
import type { Model, ModelEvent, StopReason, Usage } from './types.js';
import { parseJson } from '../json.js';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIModelOptions extends HttpModelOptions {
  /**
   * The body field that carries `maxTokens`. OpenAI's reasoning models only
   * accept `max_completion_tokens`; most local servers only `max_tokens`
   * (the default).
   */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /**
   * Ask for token usage in the last chunk (`stream_options.include_usage`,
   * default true). Turn off for servers that reject `stream_options`; usage
   * is then reported as zero unless the server sends it anyway.
   */
  includeUsage?: boolean;
}

const optionsSchema = lazy(() =>
  httpOptionsSchema().extend({
    maxTokensField: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
    includeUsage: z.boolean().optional(),
  }),
);

/**
 * Creates a streaming OpenAI-compatible model. Without `baseURL` it talks to
 * api.openai.com; `apiKey` is sent as a bearer token when given.
 *
 * @example
 * const model = openaiModel({ model: 'llama3.2', baseURL: 'http://localhost:11434/v1' });
 */
export function openaiModel(options: OpenAIModelOptions): Model {
  validate(optionsSchema(), options, 'openaiModel');
  const http = httpSettings(options, OPENAI_BASE_URL);
  const url = `${http.baseURL}/chat/completions`;
  const label = http.baseURL === OPENAI_BASE_URL ? `OpenAI (${url})` : `the OpenAI-compatible server at ${url}`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    ...options.headers,
  };
  const settings = {
    model: options.model,
    temperature: options.temperature,
    maxTokens: options.maxTokens,
    maxTokensField: options.maxTokensField ?? 'max_tokens',
    includeUsage: options.includeUsage ?? true,
  };
  return providerModel({
    ...http,
    id: `openai:${options.model}`,
    contextWindow: options.contextWindow,
    label,
    url,
    headers,
    authHint: 'Check the API key (OPENAI_API_KEY or the apiKey option).',
    body: (request) => toRequestBody(settings, request),
    decoder: () => new ChatCompletionsDecoder(label, options.model),
  });
}

const FINISH_REASONS: Record<string, StopReason> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
};

interface ToolCallState {
  id: string;
  name: string;
  args: string;
}

/** Assembles one streamed completion: text, reasoning, tool calls per index, finish reason, usage. */
class ChatCompletionsDecoder implements WireDecoder {
  private started = false;
  private finishReason: string | undefined;
  private refused = false;
  private usage: Usage = { inputTokens: 0, outputTokens: 0 };
  private readonly calls = new Map<number, ToolCallState>();

  constructor(
    private readonly label: string,
    private readonly model: string,
  ) {}

  push(message: EventSourceMessage): ModelEvent[] {
    if (message.data.trim() === '[DONE]') return [...this.start(undefined), ...this.end()];
    const parsed = parseData(chunkSchema(), message, this.label);
    if (parsed.ok && parsed.value.error) {
      return [midStreamError(this.label, parsed.value.error.message, parsed.value.error.type)];
    }
    // Some servers name the SSE event `error` with a body of their own shape.
    if (message.event === 'error') {
      return [midStreamError(this.label, providerMessage(message.data) ?? 'no message', undefined)];
    }
    if (!parsed.ok) return [{ type: 'error', error: parsed.failure }];
    const chunk = parsed.value;
    const events = this.start(chunk.model);
    if (chunk.usage) {
      this.usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
    }
    // Only the first choice is used: we never ask for n > 1.
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (choice === undefined) return events;
    const delta = choice.delta;
    const reasoning = delta?.reasoning_content ?? delta?.reasoning;
    if (reasoning) events.push({ type: 'thinking.delta', text: reasoning });
    if (delta?.content) events.push({ type: 'text.delta', text: delta.content });
    if (delta?.refusal) {
      this.refused = true;
      events.push({ type: 'text.delta', text: delta.refusal });
    }
    const toolError = this.addToolDeltas(delta?.tool_calls ?? [], events);
    if (toolError) return [...events, toolError];
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      events.push(...this.completeToolCalls());
    }
    return events;
  }

  finish(): ModelEvent[] {
    // Some servers close without `[DONE]`; after a finish reason nothing is missing but usage.
    if (this.finishReason !== undefined) return this.end();
    return [badStream(`The stream from ${this.label} ended before a finish reason and [DONE]; the response is incomplete.`)];
  }

  private start(model: string | null | undefined): ModelEvent[] {
    if (this.started) return [];
    this.started = true;
    return [{ type: 'message.start', model: model || this.model }];
  }

  private addToolDeltas(deltas: NonNullable<NonNullable<Chunk['choices']>[number]['delta']>['tool_calls'], events: ModelEvent[]): ModelEvent | undefined {
    for (const [position, delta] of (deltas ?? []).entries()) {
      const index = delta.index ?? position;
      let call = this.calls.get(index);
      if (call === undefined) {
        if (this.finishReason !== undefined) {
          return badStream(`The stream from ${this.label} sent tool call ${index} after its finish reason.`);
        }
        call = { id: delta.id || `call_${index}`, name: '', args: '' };
        this.calls.set(index, call);
      }
      if (delta.function?.name) call.name = call.name === '' ? delta.function.name : call.name;
      const piece = delta.function?.arguments ?? '';
      if (piece !== '') {
        call.args += piece;
        events.push({ type: 'tool.input.delta', index, id: call.id, name: call.name, partialJson: piece });
      }
    }
    return undefined;
  }

  private completeToolCalls(): ModelEvent[] {
    const events: ModelEvent[] = [];
    for (const index of [...this.calls.keys()].sort((a, b) => a - b)) {
      const call = this.calls.get(index) as ToolCallState;
      if (call.name === '') return [badStream(`Tool call ${index} in the stream from ${this.label} has no function name.`)];
      const parsed = call.args.trim() === '' ? { ok: true as const, value: {} } : parseJson(call.args, `tool call ${index} (${call.name}) arguments`);
      if (!parsed.ok) {
        return [badStream(`Tool call ${index} (${call.name}) from ${this.label} has malformed JSON arguments (${parsed.message}): ${call.args.slice(0, 200)}`)];
      }
      events.push({ type: 'tool.call', id: call.id, name: call.name, input: parsed.value });
    }
    return events;
  }

  private end(): ModelEvent[] {
    const events: ModelEvent[] = [];
    if (this.finishReason === undefined) events.push(...this.completeToolCalls());
    if (events.some((e) => e.type === 'error')) return events;
    // Several local servers report finish_reason "stop" even when they called tools.
    let stopReason = FINISH_REASONS[this.finishReason ?? 'stop'] ?? 'end_turn';
    if (this.calls.size > 0 && stopReason === 'end_turn') stopReason = 'tool_use';
    if (this.refused) stopReason = 'refusal';
    events.push({ type: 'message.end', stopReason, usage: this.usage });
    return events;
  }
}
