// conf3: conformance of the external protocols on Node, Deno and Bun against the build.
// Provider streams: every case of test/models/stream-conformance.ts through a whole prompt.
// MCP: test/mcp/mcp-conformance.ts, our client against a raw JSON-RPC server, our server against raw JSON-RPC.
import assert from 'node:assert/strict';
import { aiSdkModel, anthropicModel, createHost, eventGrammarViolations, openaiModel, scriptedModel } from '../../dist/index.js';
import { createMcpServer, relayModel } from '../../dist/mcp.js';
import { cases, runCase, type Api } from '../models/stream-conformance.ts';
import * as mcp from '../mcp/mcp-conformance.ts';

const api = { createHost, openaiModel, anthropicModel, aiSdkModel, eventGrammarViolations } as unknown as Api;
const mcpApi = { createHost, scriptedModel, createMcpServer, relayModel } as unknown as mcp.Api;

export const scenarios: Record<string, () => Promise<void>> = {
  'provider streams: each shape the SDKs allow mid-stream, and broken ones, map to the right events or a typed error': async () => {
    const failed: string[] = [];
    for (const c of cases) {
      const problems = await runCase(api, c);
      if (problems.length > 0) failed.push(`${c.name}:\n  ${problems.join('\n  ')}`);
    }
    assert.deepEqual(failed, []);
  },
  'MCP client: every tools/list page, each content type, a legacy toolResult, isError, a JSON-RPC error, progress, version negotiation': async () => {
    const events = await mcp.rawClientRun(mcpApi, [...Object.keys(mcp.RAW_EXPECTED), 'rpcerror']);
    assert.deepEqual(eventGrammarViolations(events), []);
    const out = mcp.outputsByTool(events);
    for (const [name, want] of Object.entries(mcp.RAW_EXPECTED)) assert.equal(out[name], want, name);
    assert.match(out.rpcerror ?? '', /MCP_ERROR.*backend down.*\(isError\)/s);
    assert.deepEqual(events.flatMap((e) => (e.type === 'tool.progress' ? [e.progress] : [])), ['step 1', '2/2']);
    assert.equal(mcp.outputsByTool(await mcp.rawClientRun(mcpApi, ['legacy'], ['--version=2024-10-07'])).legacy, '{"answer":42}');
    const refused = (await mcp.rawClientRun(mcpApi, [], ['--version=1999-01-01'])).find((e) => e.type === 'mcp.server.error');
    assert.ok(refused && refused.type === 'mcp.server.error' && refused.code === 'MCP_START_FAILED', JSON.stringify(refused));
  },
  'MCP server: progress increases with each notification; versions negotiated; ids of both types echoed': async () => {
    const seen = await mcp.progressSeen(mcpApi);
    assert.equal(seen.text, 'stepped');
    assert.deepEqual(seen.messages, ['a', 'b', 'c']);
    assert.ok(seen.progress.every((p, i) => i === 0 || p > (seen.progress[i - 1] as number)), JSON.stringify(seen.progress));
    assert.deepEqual(await mcp.rawServerExchange(mcpApi, '2024-11-05'), { negotiated: '2024-11-05', ids: ['init-α', 'list-1', 0], listed: [['steps'], ['steps']] });
    assert.equal((await mcp.rawServerExchange(mcpApi, '2099-01-01')).negotiated, mcp.LATEST_PROTOCOL_VERSION);
  },
};
