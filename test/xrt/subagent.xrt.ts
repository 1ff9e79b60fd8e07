// Cross-runtime sub-agent and compaction scenarios, on Node, Deno and Bun.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createHost, loadPlugin, scriptedModel, type HookInput, type HostEvent, type ToolHandler } from '../../dist/index.js';

const wasm = new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url);

const read: ToolHandler = {
  name: 'Read',
  description: 'Read a file',
  kind: 'js',
  inputSchema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
  run: async (input: Record<string, unknown>) => ({ content: String(input.file_path).endsWith('big') ? 'x'.repeat(800) : `contents of ${String(input.file_path)}`, isError: false }),
};
const ran: string[] = [];
const bash: ToolHandler = {
  name: 'Bash',
  description: 'Run a command',
  kind: 'js',
  inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  run: async (input: Record<string, unknown>) => (ran.push(String(input.command)), { content: 'ok', isError: false }),
};
const researcher = { description: 'Reads and reports', systemPrompt: 'You research.', tools: ['Read', 'Bash'] };
const callAgent = (prompt: string) => ({ toolCalls: [{ name: 'agent', id: 'toolu_p', input: { subagent_type: 'researcher', prompt } }] });

async function collect(stream: AsyncIterable<HostEvent>): Promise<HostEvent[]> {
  const out: HostEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

export const scenarios: Record<string, () => Promise<void>> = {
  'sub-agent: strict hook order, agent_id only inside, every sub event stamped': async () => {
    const seen: string[] = [];
    const rec = async (i: HookInput) => (seen.push(`${i.hook_event_name}${'tool_name' in i ? `[${i.tool_name}]` : ''}${i.agent_id ? '@sub' : ''}`), {});
    const hooks = Object.fromEntries(['PreToolUse', 'PostToolUse', 'SubagentStart', 'SubagentStop', 'Stop'].map((e) => [e, [{ hooks: [rec] }]]));
    const model = scriptedModel([callAgent('read a'), { toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] }, { text: 'a says hi' }, { text: 'done' }]);
    const host = createHost({ model, tools: [read, bash], permissionMode: 'bypassPermissions', agents: { researcher }, hooks });
    const events = await collect(host.session().stream('go'));
    assert.deepEqual(seen, [
      'PreToolUse[agent]', 'SubagentStart@sub', 'PreToolUse[Read]@sub', 'PostToolUse[Read]@sub', 'SubagentStop@sub', 'PostToolUse[agent]', 'Stop',
    ]);
    const subEvents = events.filter((e) => e.agentId !== undefined);
    assert.ok(subEvents.length > 5);
    assert.ok(subEvents.every((e) => e.agentId === 'researcher@toolu_p' && e.parentToolUseId === 'toolu_p'));
    const end = events.find((e) => e.type === 'subagent.end');
    // A PostToolUse hook applies to the agent call (this one matches every tool): the sub-agent's own text is withheld
    // from its live events (fix3: subagent-gate.ts); the hooks and the conversation see the agent call's output.
    assert.equal(end?.type === 'subagent.end' && end.result.text, "[withheld: a PostToolUse hook reviews this sub-agent's output]");
    assert.equal(events.filter((e) => e.type === 'agent.end').length, 1);
    assert.equal(events.at(-1)?.type, 'agent.end');
  },

  'sub-agent: the guard-shell WASM guard denies rm -rf / inside it': async () => {
    ran.length = 0;
    const guard = await loadPlugin({ bytes: new Uint8Array(await readFile(wasm)) });
    const model = scriptedModel([
      callAgent('clean up'),
      { toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }, { name: 'Bash', input: { command: 'ls' } }] },
      { text: 'refused one' },
      { text: 'done' },
    ]);
    const host = createHost({ model, tools: [read, bash], plugins: [guard], permissionMode: 'bypassPermissions', agents: { researcher } });
    const events = await collect(host.session().stream('go'));
    assert.deepEqual(ran, ['ls']);
    const denied = events.filter((e) => e.type === 'tool.denied');
    assert.equal(denied.length, 1);
    assert.equal(denied[0]?.agentId, 'researcher@toolu_p');
    assert.match(denied[0]?.type === 'tool.denied' ? denied[0].reason : '', /guard-shell/);
    await guard.close();
  },

  'compaction: by size; the next call sees the summary and the latest turn': async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] },
      { toolCalls: [{ name: 'Read', input: { file_path: 'big' } }] },
      { text: 'SUMMARY' },
      { text: 'final' },
    ]);
    const host = createHost({ model, tools: [read], permissionMode: 'bypassPermissions', contextWindow: 200, autoCompact: 0.5, keepTurns: 1 });
    const events = await collect(host.session().stream('go'));
    const compacted = events.find((e) => e.type === 'context.compacted');
    assert.ok(compacted && compacted.type === 'context.compacted' && compacted.tokensAfter < compacted.tokensBefore);
    const next = model.requests[3]?.messages ?? [];
    assert.deepEqual(next[0], { role: 'user', content: 'Summary of the conversation so far:\nSUMMARY' });
    assert.deepEqual(next.map((m) => m.role), ['user', 'assistant', 'tool']);
    assert.ok(events.some((e) => e.type === 'state.change' && e.to === 'compacting'));
    const end = events.at(-1);
    assert.equal(end?.type === 'agent.end' && end.result.text, 'final');
  },
};
