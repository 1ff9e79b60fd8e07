// conf3: conformance of the external protocols on Node, Deno and Bun against the build.
// Provider streams: every case of test/models/stream-conformance.ts through a whole prompt.
// MCP: test/mcp/mcp-conformance.ts, our client against a raw JSON-RPC server, our server against raw JSON-RPC.
// Wire codec: the AssemblyScript and C SDK codecs (codec-echo, vector-echo-c) in this runtime's sandbox on the
// hand-made cases of test/guest/codec-cases.ts (the full differential is test/guest/codec-differential.test.ts).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { aiSdkModel, anthropicModel, createHost, createSandbox, eventGrammarViolations, openaiModel, scriptedModel } from '../../dist/index.js';
import { createMcpServer, relayModel } from '../../dist/mcp.js';
import { cases, runCase, type Api } from '../models/stream-conformance.ts';
import * as mcp from '../mcp/mcp-conformance.ts';
import { CANONICAL, NOT_UTF8, notUtf8Request } from '../guest/codec-cases.ts';

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
  'MCP server: progress increases with each notification; versions negotiated; ids of both types echoed; an unknown cursor refused; a cancelled call stops its tool': async () => {
    const seen = await mcp.progressSeen(mcpApi);
    assert.equal(seen.text, 'stepped');
    assert.deepEqual(seen.messages, ['a', 'b', 'c']);
    assert.ok(seen.progress.every((p, i) => i === 0 || p > (seen.progress[i - 1] as number)), JSON.stringify(seen.progress));
    assert.deepEqual(await mcp.rawServerExchange(mcpApi, '2024-11-05'), { negotiated: '2024-11-05', ids: ['init-α', 'list-1', 0, -1], listed: [['steps', 'waits'], ['steps', 'waits']], badCursor: -32602 });
    assert.equal((await mcp.rawServerExchange(mcpApi, '2099-01-01')).negotiated, mcp.LATEST_PROTOCOL_VERSION);
    const cancelled = await mcp.cancelSeen(mcpApi);
    assert.deepEqual([cancelled[0], ...cancelled.slice(1).sort()], ['started', 'aborted', 'client: rejected'], JSON.stringify(cancelled));
  },
  'wire codec: both SDK codecs merge, skip, truncate and refuse as protobufjs does, in this runtime\'s sandbox': async () => {
    const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    const bytes = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
    for (const path of ['test/fixtures/codec-echo/build/codec-echo.wasm', 'test/fixtures/vector-echo-c/build/vector-echo-c.wasm']) {
      const sandbox = await createSandbox(new Uint8Array(await readFile(new URL(`../../${path}`, import.meta.url))));
      const echo = (type: string, h: string) => sandbox.call('echo', new Uint8Array([...new TextEncoder().encode(`${type}\n`), ...bytes(h)]));
      try {
        for (const [what, type, input, canonical] of CANONICAL) {
          const outcome = await echo(type, input);
          assert.ok(outcome.ok, `${path} ${what}: ${JSON.stringify(outcome)}`);
          assert.equal(outcome.ok && hex(outcome.output), canonical, `${path} ${what}`);
        }
        for (const [what, bad] of NOT_UTF8) {
          const outcome = await echo('ToolRequest', notUtf8Request(bad));
          assert.ok(!outcome.ok && /string field is not valid UTF-8/.test(JSON.stringify(outcome)), `${path} ${what}: ${JSON.stringify(outcome)}`);
        }
      } finally {
        await sandbox.close();
      }
    }
  },
};
