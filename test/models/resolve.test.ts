import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { parseModelSpec, resolveModel } from '../../host/models/resolve.js';
import type { Model } from '../../host/models/types.js';
import { collect, request } from './helpers.js';
import { replayServer } from './replay-server.js';

const scripted: Model = { id: 'scripted', stream: async function* () {} };

describe('parseModelSpec', () => {
  it('reads provider:model, splitting at the first colon only', () => {
    expect(parseModelSpec('openai:gpt-4o-mini')).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
    expect(parseModelSpec('openai:llama3.2:3b')).toEqual({ provider: 'openai', model: 'llama3.2:3b' });
    expect(parseModelSpec('anthropic:claude-sonnet-4-5')).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(parseModelSpec('scripted')).toEqual({ provider: 'scripted' });
    expect(parseModelSpec('')).toEqual({ provider: 'scripted' });
  });

  it('names the fix for unknown providers and missing model names', () => {
    expect(() => parseModelSpec('gemini:pro')).toThrow(/Unknown model provider "gemini".*openai:<model>/);
    expect(() => parseModelSpec('openai:')).toThrow(/names no model/);
    expect(() => parseModelSpec('anthropic')).toThrow(WasmhooksError);
  });
});

describe('resolveModel', () => {
  it('defaults to the scripted model', () => {
    expect(resolveModel(undefined, { scripted: () => scripted, env: {} })).toBe(scripted);
    expect(resolveModel('scripted', { env: {} }).id).toBe('scripted');
  });

  it('requires a key for the hosted APIs but not for a local server', () => {
    expect(() => resolveModel('openai:gpt-4o-mini', { env: {} })).toThrow(/OPENAI_API_KEY/);
    expect(() => resolveModel('anthropic:claude-sonnet-4-5', { env: {} })).toThrow(/ANTHROPIC_API_KEY/);
    expect(resolveModel('openai:llama3.2', { env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' } }).id).toBe('openai:llama3.2');
    expect(resolveModel('openai:gpt-4o', { env: { OPENAI_API_KEY: 'sk' } }).id).toBe('openai:gpt-4o');
  });

  it('sends the key and base URL from the environment, the flag winning over the variable', async () => {
    const server = await replayServer([{ fixture: 'openai-text.sse' }, { fixture: 'anthropic-text.sse' }]);
    try {
      const env = { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ANTHROPIC_API_KEY: 'sk-ant-env' };
      await collect(resolveModel('openai:gpt-4o-mini', { env, baseURL: `${server.url}/v1` }).stream(request()));
      await collect(resolveModel('anthropic:claude-x', { env, baseURL: server.url, anthropic: { maxTokens: 64 } }).stream(request()));
      expect(server.seen[0]?.headers.authorization).toBe('Bearer sk-env');
      expect(server.seen[1]?.headers['x-api-key']).toBe('sk-ant-env');
      expect(server.seen[1]?.body).toMatchObject({ model: 'claude-x', max_tokens: 64 });
    } finally {
      await server.close();
    }
  });
});
