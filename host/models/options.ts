/**
 * Options every HTTP provider takes, validated once at construction so a bad
 * URL or a negative token limit fails early with a message, not mid-turn.
 */
import { z } from 'zod';
import { WasmhooksError } from '../errors.js';
import { lazy } from '../lazy.js';
import { type ResolvedRetry, resolveRetry, type RetryOptions } from './retry.js';

export interface HttpModelOptions {
  /** Model name as the server knows it, e.g. `gpt-4o-mini` or `llama3.2`. */
  model: string;
  /** API root; each provider documents its default. */
  baseURL?: string;
  apiKey?: string;
  /** Extra request headers (a proxy's auth, an organisation id, …). */
  headers?: Record<string, string>;
  temperature?: number;
  /** Upper bound on generated tokens per turn. */
  maxTokens?: number;
  /** Context window in tokens, reported as `Model.contextWindow`. */
  contextWindow?: number;
  retry?: RetryOptions;
  /**
   * A server that sends no response headers, or a stream that sends nothing,
   * for this long is abandoned: NETWORK (retried) before the headers,
   * BAD_STREAM after (default 300000).
   */
  idleTimeoutMs?: number;
  /** The fetch to use (default `globalThis.fetch`), for proxies and tests. */
  fetch?: typeof fetch;
}

// Built at a provider's construction (see lazy.ts), not when wasmhooks is imported.
export const httpOptionsSchema = lazy(() => {
  const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'expected a function');

  return z.object({
    model: z.string().min(1, 'model must name the model, e.g. "gpt-4o-mini"'),
    // A URL with credentials is refused by every runtime's fetch, and the refusal quoted it whole into the turn's
    // error event (to every watcher, the log, the transcript): refused here, without echoing it.
    baseURL: z
      .url({ protocol: /^https?$/ })
      .refine((u) => !/^[a-z]+:\/\/[^/?#]*@/i.test(u), 'baseURL must not carry credentials (user:key@host); give the key as apiKey or in headers')
      .optional(),
    apiKey: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().optional(),
    contextWindow: z.number().int().positive().optional(),
    retry: z
      .object({
        maxRetries: z.number().int().min(0).max(10).optional(),
        baseDelayMs: z.number().min(0).optional(),
        maxDelayMs: z.number().min(0).optional(),
        maxRetryAfterMs: z.number().min(0).optional(),
        random: fn.optional(),
        sleep: fn.optional(),
      })
      .optional(),
    idleTimeoutMs: z.number().int().positive().optional(),
    fetch: fn.optional(),
  });
});

/** Checks `input` against `schema`, throwing INVALID_OPTIONS that names the factory and the field. */
export function validate<T>(schema: z.ZodType<T>, input: unknown, factory: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new WasmhooksError('INVALID_OPTIONS', `${factory}: ${z.prettifyError(result.error)}`);
}

export interface HttpSettings {
  baseURL: string;
  retry: ResolvedRetry;
  idleTimeoutMs: number;
  headersTimeoutMs: number;
  fetch: typeof fetch;
}

export function httpSettings(options: HttpModelOptions, defaultBaseURL: string): HttpSettings {
  return {
    baseURL: (options.baseURL ?? defaultBaseURL).replace(/\/+$/, ''),
    retry: resolveRetry(options.retry),
    idleTimeoutMs: options.idleTimeoutMs ?? 300_000,
    headersTimeoutMs: options.idleTimeoutMs ?? 300_000,
    // Bound late so a fetch patched after construction (tests, proxies) is honoured.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
}
