/**
 * A `Model` for any server that speaks OpenAI Chat Completions with
 * streaming: OpenAI itself, Ollama, vLLM, llama.cpp's server, LM Studio, …
 */
import { z } from 'zod';
import { lazy } from '../lazy.js';
import { type HttpModelOptions, httpOptionsSchema, httpSettings, validate } from './options.js';
import { toRequestBody } from './openai-wire.js';
import { providerModel } from './provider.js';
import type { Model } from './types.js';

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
    decoder: async () => new (await import('./openai-decoder.js')).ChatCompletionsDecoder(label, options.model),
  });
}
