// fix3 item 3, shared by vitest (test/agent/subagent-redaction.test.ts) and test/xrt/fix3.xrt.ts: a PostToolUse
// redactor matched only to the `agent` tool. The sub-agent's inner tool leaks a secret in its progress and output,
// and the sub-agent says it; the redactor takes it out of the agent call's output. Before, every inner event
// carried it live to every watcher (SSE, the log); now none does, and the stream keeps its grammar.
import assert from 'node:assert/strict';
import { z } from 'zod';

const SECRET = 'sk-fix3-0123456789abcdef';
const NOTE = '[withheld: a PostToolUse hook reviews this sub-agent\'s output]';

// Structural: the host's own modules and dist/ both fit.
interface Lib {
  createHost: (o: unknown) => { session(): { stream(p: string): AsyncIterable<{ type: string; agentId?: string }>; messages: readonly unknown[] } };
  scriptedModel: (s: unknown) => unknown;
  tool: (...a: unknown[]) => unknown;
  eventGrammarViolations: (events: readonly unknown[]) => unknown[];
}

export async function subagentRedaction(lib: Lib, redact = true): Promise<void> {
  const model = lib.scriptedModel([
    { toolCalls: [{ name: 'agent', id: 'toolu_parent', input: { subagent_type: 'researcher', prompt: 'look' } }] },
    { text: `thinking about ${SECRET}`, toolCalls: [{ name: 'Leak', input: { key: SECRET } }] },
    { text: `found ${SECRET}` },
    { text: 'done' },
  ]);
  const leak = lib.tool('Leak', 'leaks', z.object({ key: z.string() }), (_i: unknown, ctx: { onProgress(p: string): void }) => {
    ctx.onProgress(`reading ${SECRET}`);
    return `out ${SECRET}`;
  });
  const redactor = async (input: { hook_event_name: string; tool_response?: string }) =>
    input.hook_event_name === 'PostToolUse' ? { updatedOutput: (input.tool_response ?? '').replaceAll(SECRET, '[redacted]') } : {};
  const host = lib.createHost({
    model,
    permissionMode: 'bypassPermissions',
    tools: [leak],
    agents: { researcher: { description: 'looks', systemPrompt: 'Look.', tools: ['Leak'] } },
    hooks: redact ? { PostToolUse: [{ matcher: 'agent', hooks: [redactor] }] } : {},
  });
  const session = host.session();
  const events: { type: string; agentId?: string; content?: string; name?: string }[] = [];
  for await (const e of session.stream('go')) events.push(e);
  const leaked = JSON.stringify(events).includes(SECRET);
  if (!redact) {
    assert.ok(leaked, 'without a redactor the sub-agent\'s events carry the secret (the test can fail)');
    return;
  }
  assert.ok(!leaked, JSON.stringify(events.filter((e) => JSON.stringify(e).includes(SECRET))));
  assert.deepEqual(lib.eventGrammarViolations(events), []);
  // The structure stays: the inner call ran and ended, its output replaced; the agent call's output is the redactor's.
  assert.ok(events.some((e) => e.type === 'tool.output' && e.name === 'Leak' && e.agentId !== undefined && e.content === NOTE));
  const outer = events.find((e) => e.type === 'tool.output' && e.name === 'agent');
  assert.equal(outer?.content, 'found [redacted]');
  assert.ok(!JSON.stringify(session.messages).includes(SECRET));
}
