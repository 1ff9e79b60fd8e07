// A full agent run against each mocked provider, with the real guard-shell
// WASM plugin on PreToolUse: the model asks for `rm -rf /` and `ls` in one
// turn, the guard denies the first, the second runs, the results go back to
// the provider in its own wire shape, and the next turn ends the prompt.
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collect as collectSession, endResult, ofType } from '../agent/helpers.js';
import { builtWasm } from '../guest/built.js';
import { createHost } from '../../host/host.js';
import { anthropicModel } from '../../host/models/anthropic.js';
import { openaiModel } from '../../host/models/openai.js';
import type { Model } from '../../host/models/types.js';
import { loadPlugin, type WasmPlugin } from '../../host/plugins/index.js';
import { tool } from '../../host/tools/define.js';
import { type ReplayServer, replayServer } from './replay-server.js';

let guard: WasmPlugin;
beforeAll(async () => {
  guard = await loadPlugin({ path: builtWasm('plugins/guard-shell/build/guard-shell.wasm') });
});
afterAll(() => guard?.close?.());

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ran: string[] = [];
const bash = tool('Bash', 'Run a shell command', z.object({ command: z.string() }), ({ command }) => {
  ran.push(command);
  return `ran: ${command}`;
});

async function runAgent(model: Model) {
  ran.length = 0;
  const host = createHost({ model, tools: [bash], allowedTools: ['Bash'], cwd: '/proj' });
  host.use(guard);
  return collectSession(host.session(), 'Clean up the disk, then list my café folder');
}

function expectGuardedRun(events: Awaited<ReturnType<typeof runAgent>>) {
  const denied = ofType(events, 'tool.denied');
  expect(denied).toHaveLength(1);
  expect(denied[0]?.reason).toMatch(/guard-shell: rm-recursive-root/);
  expect(ran).toEqual(['ls -la ~/café']);
  const result = endResult(events);
  expect(result.subtype).toBe('success');
  expect(result.turns).toBe(2);
  expect(result.text).toBe('Grüße aus Köln 👋 — 日本語も OK.');
}

describe('agent run with the guard-shell WASM plugin', () => {
  it('against the OpenAI-compatible provider', async () => {
    server = await replayServer([{ fixture: 'openai-bash-calls.sse' }, { fixture: 'openai-text.sse' }]);
    const events = await runAgent(openaiModel({ model: 'gpt-4o-mini', baseURL: `${server.url}/v1` }));
    expectGuardedRun(events);
    const second = server.seen[1]?.body.messages as Array<Record<string, unknown>>;
    const toolMessages = second.filter((m) => m.role === 'tool');
    expect(toolMessages).toHaveLength(2);
    expect(toolMessages.find((m) => m.tool_call_id === 'call_rm')?.content).toMatch(/^Error: .*guard-shell/s);
    expect(toolMessages.find((m) => m.tool_call_id === 'call_ls')?.content).toBe('ran: ls -la ~/café');
    expect(second.find((m) => m.role === 'assistant')).toMatchObject({
      tool_calls: [
        { id: 'call_rm', function: { name: 'Bash', arguments: '{"command":"rm -rf /"}' } },
        { id: 'call_ls', function: { name: 'Bash', arguments: '{"command":"ls -la ~/café"}' } },
      ],
    });
  });

  it('against the Anthropic provider, sending the signed thinking back', async () => {
    server = await replayServer([{ fixture: 'anthropic-bash-calls.sse' }, { fixture: 'anthropic-text.sse' }]);
    const model = anthropicModel({ model: 'claude-sonnet-4-5', baseURL: server.url, apiKey: 'k', thinking: { budgetTokens: 1024 } });
    const events = await runAgent(model);
    expectGuardedRun(events);
    const second = server.seen[1]?.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    const assistant = second.find((m) => m.role === 'assistant');
    expect(assistant?.content[0]).toEqual({ type: 'thinking', thinking: 'Clean up, then list.', signature: 'ErUBCkYIBxgCIkB2sig' });
    const results = second.at(-1)?.content.filter((b) => b.type === 'tool_result') ?? [];
    expect(results).toHaveLength(2);
    expect(results.find((b) => b.tool_use_id === 'toolu_rm')).toMatchObject({ is_error: true, content: expect.stringContaining('guard-shell') });
    expect(results.find((b) => b.tool_use_id === 'toolu_ls')).toEqual({ type: 'tool_result', tool_use_id: 'toolu_ls', content: 'ran: ls -la ~/café' });
  });
});
