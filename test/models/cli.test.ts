// The `wasmhooks run` command against the mocked providers: --model and
// --base-url pick the provider, keys come from the environment, and a
// provider failure is reported with its typed code and message.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliBundle } from '../cli/helpers.js';
import { type ReplayServer, replayServer } from './replay-server.js';

beforeAll(async () => {
  await cliBundle();
}, 60_000);

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clean = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: '' };

describe('wasmhooks run with a real provider', () => {
  it('--model openai:… --base-url streams a local OpenAI-compatible server', async () => {
    server = await replayServer([{ fixture: 'openai-text.sse' }]);
    const r = await cli(['run', 'hello', '--model', 'openai:llama3.2:3b', '--base-url', `${server.url}/v1`], { env: clean });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Grüße aus Köln 👋 — 日本語も OK.');
    expect(server.seen[0]?.body).toMatchObject({ model: 'llama3.2:3b', stream: true });
    expect(server.seen[0]?.headers.authorization).toBeUndefined();
  });

  it('--model anthropic:… takes the key and base URL from the environment', async () => {
    server = await replayServer([{ fixture: 'anthropic-text.sse' }]);
    const env = { ...clean, ANTHROPIC_API_KEY: 'sk-ant-cli', ANTHROPIC_BASE_URL: server.url };
    const r = await cli(['run', 'hello', '--model', 'anthropic:claude-sonnet-4-5', '--json'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"type":"agent.end"');
    expect(server.seen[0]?.headers['x-api-key']).toBe('sk-ant-cli');
  });

  it('reports a rejected key with the AUTH code and the provider message, and fails', async () => {
    server = await replayServer([{ status: 401, body: '{"error":{"message":"Incorrect API key provided: sk-bad.","type":"invalid_request_error"}}' }]);
    const r = await cli(['run', 'hello', '--model', 'openai:gpt-4o-mini', '--base-url', `${server.url}/v1`], { env: { ...clean, OPENAI_API_KEY: 'sk-bad' } });
    expect(r.code).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toMatch(/AUTH/);
    expect(`${r.stdout}${r.stderr}`).toContain('Incorrect API key provided: sk-bad.');
  });

  it('refuses openai:… without a key or base URL, naming the variable', async () => {
    const r = await cli(['run', 'hello', '--model', 'openai:gpt-4o-mini'], { env: clean });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('OPENAI_API_KEY');
  });
});
