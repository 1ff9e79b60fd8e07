// A tool given by a JSON schema (a plugin's, an MCP server's, a JS tool without its own check) gets the input
// its guards judged, on Node, Deno and Bun against the build. Before, it got zod's parse of that input: a schema
// with a `default` made the tool run with `{ path: "/etc/shadow" }` while PreToolUse, the approval and
// PostToolUse had all seen `{}`, and keys the conversion dropped were gone from what ran.
import assert from 'node:assert/strict';
import { createHost, scriptedModel, type ToolHandler } from '../../dist/index.js';

export const scenarios: Record<string, () => Promise<void>> = {
  'a JSON-schema tool runs with exactly the input PreToolUse and PostToolUse saw (no default filled in, no key dropped)': async () => {
    const ran: unknown[] = [];
    const judged: unknown[] = [];
    const reviewed: unknown[] = [];
    const read: ToolHandler = {
      name: 'Read',
      description: 'read a file',
      kind: 'js',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string', default: '/etc/shadow' }, mode: { type: 'string', default: 'raw' }, n: { type: 'integer' } },
      },
      run: async (input) => (ran.push(input), { content: 'ok', isError: false }),
    };
    const inputs = [{}, { n: 3 }, { n: 1, note: 'extra key' }];
    const host = createHost({
      model: scriptedModel([{ toolCalls: inputs.map((input) => ({ name: 'Read', input })) }, { text: 'done' }]),
      tools: [read],
      allowedTools: ['Read'],
      hooks: {
        PreToolUse: [{ hooks: [async (i) => (i.hook_event_name === 'PreToolUse' && judged.push(i.tool_input), {})] }],
        PostToolUse: [{ hooks: [async (i) => (i.hook_event_name === 'PostToolUse' && reviewed.push(i.tool_input), {})] }],
      },
    });
    const result = await host.session().prompt('go');
    assert.equal(result.subtype, 'success', JSON.stringify(result));
    assert.deepEqual(judged, inputs);
    assert.deepEqual(ran, inputs);
    assert.deepEqual(reviewed, inputs);
  },
  'a JSON-schema tool still refuses an input its schema refuses': async () => {
    let runs = 0;
    const tool: ToolHandler = {
      name: 'Count',
      description: 'count',
      kind: 'js',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      run: async () => (runs++, { content: 'ok', isError: false }),
    };
    const host = createHost({ model: scriptedModel([{ toolCalls: [{ name: 'Count', input: { n: 'three' } }] }, { text: 'done' }]), tools: [tool], allowedTools: ['Count'] });
    const events = [];
    for await (const e of host.session().stream('go')) events.push(e);
    const output = events.find((e) => e.type === 'tool.output');
    assert.ok(output && output.type === 'tool.output' && output.isError, JSON.stringify(output));
    assert.match(output.content, /invalid input for Count/);
    assert.equal(runs, 0);
  },
};
