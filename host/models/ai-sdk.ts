/**
 * Any Vercel AI SDK language model (specification v2, v3 or v4: AI SDK 5,
 * 6 or 7 provider packages) as a wasmhooks `Model`. Typed structurally, so
 * the core imports nothing from the AI SDK: the user brings the provider.
 */
import { resolveRetry, type RetryOptions } from './retry.js';
import type { Model, ModelEvent, ModelRequest } from './types.js';

/**
 * The part of an AI SDK `LanguageModelV2 | V3 | V4` this adapter uses.
 * `doStream` takes `never` so that every version's own call-options type is
 * accepted; the adapter sends options that are valid for all three.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v2' | 'v3' | 'v4';
  readonly provider: string;
  readonly modelId: string;
  doStream(options: never): PromiseLike<{ stream: ReadableStream<unknown> }>;
}

export interface AiSdkModelOptions {
  maxTokens?: number;
  temperature?: number;
  /** Retries when `doStream` itself fails with a retryable error (default: 2 retries). */
  retry?: RetryOptions;
}

/**
 * Wraps an AI SDK model.
 *
 * @example
 * import { createOpenAI } from '@ai-sdk/openai';
 * const model = aiSdkModel(createOpenAI({ apiKey })('gpt-4o-mini'));
 */
export function aiSdkModel(model: AiSdkLanguageModel, options: AiSdkModelOptions = {}): Model {
  const retry = resolveRetry(options.retry);
  const id = `${model.provider}:${model.modelId}`;
  return {
    id,
    async *stream(request: ModelRequest): AsyncGenerator<ModelEvent, void, undefined> {
      // The adapter's reading code loads at the first turn (see provider.ts).
      const { streamAiSdk } = await import('./ai-sdk-stream.js');
      yield* streamAiSdk(model, { ...options, retry }, id, request);
    },
  };
}
