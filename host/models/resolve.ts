/**
 * From a model spec (`--model openai:gpt-4o-mini`, `anthropic:claude-…`,
 * `scripted`) plus flags and environment variables to a `Model`.
 */
import { WasmhooksError } from '../errors.js';
import { ANTHROPIC_BASE_URL, type AnthropicModelOptions, anthropicModel } from './anthropic.js';
import { OPENAI_BASE_URL, type OpenAIModelOptions, openaiModel } from './openai.js';
import { scriptedModel } from './scripted.js';
import type { Model } from './types.js';

export type ModelSpec =
  | { provider: 'scripted' }
  | { provider: 'openai'; model: string }
  | { provider: 'anthropic'; model: string };

export interface ResolveModelOptions {
  /** `--base-url`; wins over OPENAI_BASE_URL / ANTHROPIC_BASE_URL. */
  baseURL?: string;
  /** Wins over OPENAI_API_KEY / ANTHROPIC_API_KEY. */
  apiKey?: string;
  /** Where keys and base URLs are read from (default: `process.env` when there is one). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Builds the offline model used for `scripted` and for an empty spec (default: an empty `scriptedModel()`). */
  scripted?: () => Model;
  /** Further options for the provider (retry, headers, temperature, thinking, …). */
  openai?: Partial<OpenAIModelOptions>;
  anthropic?: Partial<AnthropicModelOptions>;
}

/**
 * Parses `provider:model`. Only the first colon splits, so Ollama tags
 * survive: `openai:llama3.2:3b` is model `llama3.2:3b`.
 */
export function parseModelSpec(spec: string): ModelSpec {
  const trimmed = spec.trim();
  if (trimmed === '' || trimmed === 'scripted') return { provider: 'scripted' };
  const colon = trimmed.indexOf(':');
  const provider = colon < 0 ? trimmed : trimmed.slice(0, colon);
  const model = colon < 0 ? '' : trimmed.slice(colon + 1).trim();
  if (provider !== 'openai' && provider !== 'anthropic') {
    throw new WasmhooksError(
      'INVALID_CONFIG',
      `Unknown model provider "${provider}" in "${spec}": use openai:<model> (any OpenAI-compatible server), anthropic:<model> or scripted.`,
    );
  }
  if (model === '') {
    throw new WasmhooksError('INVALID_CONFIG', `Model spec "${spec}" names no model: write ${provider}:<model>, e.g. ${provider === 'openai' ? 'openai:gpt-4o-mini' : 'anthropic:claude-sonnet-4-5'}.`);
  }
  return { provider, model };
}

/**
 * The model for `spec`, with keys and base URLs from options, then the
 * usual environment variables. Without a spec the scripted model is used.
 *
 * @example
 * const model = resolveModel('openai:llama3.2', { baseURL: 'http://localhost:11434/v1' });
 */
export function resolveModel(spec: string | undefined, options: ResolveModelOptions = {}): Model {
  const env = options.env ?? processEnv();
  const parsed = parseModelSpec(spec ?? '');
  switch (parsed.provider) {
    case 'scripted':
      return options.scripted?.() ?? scriptedModel();
    case 'openai': {
      const baseURL = options.baseURL ?? nonEmpty(env.OPENAI_BASE_URL) ?? options.openai?.baseURL;
      const apiKey = options.apiKey ?? nonEmpty(env.OPENAI_API_KEY) ?? options.openai?.apiKey;
      if (apiKey === undefined && (baseURL === undefined || baseURL.startsWith(OPENAI_BASE_URL))) {
        throw new WasmhooksError(
          'INVALID_CONFIG',
          `openai:${parsed.model} needs an API key: set OPENAI_API_KEY, or point --base-url (OPENAI_BASE_URL) at a local OpenAI-compatible server.`,
        );
      }
      return openaiModel({ ...options.openai, model: parsed.model, baseURL, apiKey });
    }
    case 'anthropic': {
      const baseURL = options.baseURL ?? nonEmpty(env.ANTHROPIC_BASE_URL) ?? options.anthropic?.baseURL;
      const apiKey = options.apiKey ?? nonEmpty(env.ANTHROPIC_API_KEY) ?? options.anthropic?.apiKey;
      if (apiKey === undefined && (baseURL === undefined || baseURL.startsWith(ANTHROPIC_BASE_URL))) {
        throw new WasmhooksError('INVALID_CONFIG', `anthropic:${parsed.model} needs an API key: set ANTHROPIC_API_KEY.`);
      }
      return anthropicModel({ ...options.anthropic, model: parsed.model, baseURL, apiKey });
    }
    default:
      return parsed satisfies never;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** `process.env` on Node, Bun and Deno (Deno needs --allow-env); empty elsewhere. */
function processEnv(): Readonly<Record<string, string | undefined>> {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env ?? {};
}
