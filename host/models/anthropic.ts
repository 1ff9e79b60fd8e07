/**
 * A `Model` for the Anthropic Messages API, streamed, with tool use and
 * extended thinking.
 */
import { z } from 'zod';
import { WasmhooksError } from '../errors.js';
import { lazy } from '../lazy.js';
import { toRequestBody } from './anthropic-wire.js';
import { type HttpModelOptions, httpOptionsSchema, httpSettings, validate } from './options.js';
import { providerModel } from './provider.js';
import type { Model } from './types.js';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicModelOptions extends HttpModelOptions {
  /**
   * Extended thinking: the model reasons first, within `budgetTokens`
   * (at least 1024, less than `maxTokens`). Not combinable with `temperature`.
   */
  thinking?: { budgetTokens: number };
}

const optionsSchema = lazy(() =>
  httpOptionsSchema().extend({
    thinking: z.object({ budgetTokens: z.number().int().min(1024) }).optional(),
  }),
);

/** Default output cap; the API requires one. Thinking budgets are added on top. */
const DEFAULT_MAX_TOKENS = 4096;

/**
 * Creates a streaming Anthropic model. `apiKey` is required by the API
 * (sent as `x-api-key`); `baseURL` points at a proxy or gateway.
 *
 * @example
 * const model = anthropicModel({ model: 'claude-sonnet-4-5', apiKey, thinking: { budgetTokens: 2048 } });
 */
export function anthropicModel(options: AnthropicModelOptions): Model {
  validate(optionsSchema(), options, 'anthropicModel');
  const budget = options.thinking?.budgetTokens;
  if (budget !== undefined && options.temperature !== undefined) {
    throw new WasmhooksError('INVALID_OPTIONS', 'anthropicModel: temperature cannot be set together with thinking; drop one.');
  }
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS + (budget ?? 0);
  if (budget !== undefined && maxTokens <= budget) {
    throw new WasmhooksError(
      'INVALID_OPTIONS',
      `anthropicModel: maxTokens (${maxTokens}) must exceed thinking.budgetTokens (${budget}).`,
    );
  }
  const settingsHttp = httpSettings(options, ANTHROPIC_BASE_URL);
  // Like the OpenAI base URL, with or without the version: `…/v1` and `…` both work.
  const http = { ...settingsHttp, baseURL: settingsHttp.baseURL.replace(/\/v1$/, '') };
  const url = `${http.baseURL}/v1/messages`;
  const label = http.baseURL === ANTHROPIC_BASE_URL ? `Anthropic (${url})` : `the Anthropic API at ${url}`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'anthropic-version': ANTHROPIC_VERSION,
    ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
    ...options.headers,
  };
  const settings = { model: options.model, maxTokens, temperature: options.temperature, thinkingBudget: budget };
  return providerModel({
    ...http,
    id: `anthropic:${options.model}`,
    contextWindow: options.contextWindow,
    label,
    url,
    headers,
    authHint: 'Check the API key (ANTHROPIC_API_KEY or the apiKey option).',
    body: (request) => toRequestBody(settings, request),
    decoder: async () => new (await import('./anthropic-decoder.js')).MessagesDecoder(label, options.model),
  });
}
