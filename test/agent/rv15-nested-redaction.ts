// rv15 (review of fix3 item 3): a redactor matched to the `agent` tool, and a sub-agent that starts a sub-agent of its
// own with a prompt it wrote after reading the secret. The nested call's tool.call input was emptied, but the nested
// subagent.start carried the same prompt live to every watcher (SSE, the log, MCP). Shared by vitest
// (test/agent/rv15-nested-redaction.test.ts) and test/xrt/rv15.xrt.ts.
import assert from 'node:assert/strict';
import { z } from 'zod';

const SECRET = 'sk-rv15-0123456789abcdef';

interface Lib {
  createHost: (o: unknown) => { session(): { stream(p: string): AsyncIterable<{ type: string; agentId?: string }> } };
  scriptedModel: (s: unknown) => unknown;
  tool: (...a: unknown[]) => unknown;
  eventGrammarViolations: (events: readonly unknown[]) => unknown[];
}

export async function nestedSubagentRedaction(lib: Lib): Promise<void> {
  const model = lib.scriptedModel([
    { toolCalls: [{ name: 'agent', id: 'toolu_parent', input: { subagent_type: 'researcher', prompt: 'look' } }] },
    { toolCalls: [{ name: 'Leak', input: {} }] },
    { toolCalls: [{ name: 'agent', input: { subagent_type: 'checker', prompt: `check ${SECRET}` } }] },
    { text: 'checked' },
    { text: 'found it' },
    { text: 'done' },
  ]);
  const leak = lib.tool('Leak', 'leaks', z.object({}), () => `out ${SECRET}`);
  const redactor = async (input: { tool_response?: string }) => ({ updatedOutput: (input.tool_response ?? '').replaceAll(SECRET, '[redacted]') });
  const host = lib.createHost({
    model,
    permissionMode: 'bypassPermissions',
    maxAgentDepth: 2,
    tools: [leak],
    agents: {
      researcher: { description: 'looks', systemPrompt: 'Look.', tools: ['Leak', 'agent'] },
      checker: { description: 'checks', systemPrompt: 'Check.', tools: [] },
    },
    hooks: { PostToolUse: [{ matcher: 'agent', hooks: [redactor] }] },
  });
  const events: { type: string; agentId?: string; depth?: number }[] = [];
  for await (const e of host.session().stream('go')) events.push(e);
  assert.ok(events.some((e) => e.type === 'subagent.start' && e.depth === 2), `a nested sub-agent ran: ${events.map((e) => e.type).join(' ')}`);
  assert.deepEqual(events.filter((e) => JSON.stringify(e).includes(SECRET)), []);
  assert.deepEqual(lib.eventGrammarViolations(events), []);
}
