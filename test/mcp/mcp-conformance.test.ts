// MCP conformance (mcp-conformance.ts) against the sources; the same checks run on Node, Deno and
// Bun against dist/ in test/xrt/conf3.xrt.ts.
import { describe, expect, it } from 'vitest';
import { createHost, scriptedModel } from '../../host/index.js';
import { createMcpServer, relayModel } from '../../host/entries/mcp.js';
import { eventGrammarViolations } from '../../host/events/grammar.js';
import { cancelSeen, LATEST_PROTOCOL_VERSION, outputsByTool, progressSeen, RAW_EXPECTED, rawClientRun, rawServerExchange } from './mcp-conformance.js';

const api = { createHost, scriptedModel, createMcpServer, relayModel };

describe('our MCP client against a server written on raw JSON-RPC', () => {
  it('reads every tools/list page (string cursor), skips an unknown notification, answers a ping, and gives the model each content type', async () => {
    const events = await rawClientRun(api, [...Object.keys(RAW_EXPECTED), 'rpcerror']);
    expect(eventGrammarViolations(events)).toEqual([]);
    const connected = events.find((e) => e.type === 'mcp.server.connected');
    expect(connected && connected.type === 'mcp.server.connected' ? connected.tools.length : 0).toBe(7);
    const out = outputsByTool(events);
    expect(out).toMatchObject(RAW_EXPECTED);
    expect(out.rpcerror).toMatch(/MCP_ERROR.*backend down.*\(isError\)/s);
    const progress = events.flatMap((e) => (e.type === 'tool.progress' ? [e.progress] : []));
    expect(progress).toEqual(['step 1', '2/2']);
  }, 30_000);

  it('speaks an older protocol version the server chooses (2024-10-07), and refuses one it cannot speak as MCP_START_FAILED', async () => {
    const old = outputsByTool(await rawClientRun(api, ['legacy'], ['--version=2024-10-07']));
    expect(old.legacy).toBe('{"answer":42}');
    const events = await rawClientRun(api, [], ['--version=1999-01-01']);
    const failed = events.find((e) => e.type === 'mcp.server.error');
    expect(failed).toMatchObject({ code: 'MCP_START_FAILED', message: expect.stringMatching(/protocol version/i) });
  }, 30_000);
});

describe('our MCP server against the SDK Client and raw JSON-RPC', () => {
  it('sends progress that increases with each notification (the spec\'s MUST), with the tool\'s text as the message', async () => {
    const seen = await progressSeen(api);
    expect(seen.text).toBe('stepped');
    expect(seen.messages).toEqual(['a', 'b', 'c']);
    expect(seen.progress.every((p, i) => i === 0 || p > (seen.progress[i - 1] as number))).toBe(true);
  });

  it('answers an older version with that version, an unknown one with its latest, echoes ids of both types, and refuses a cursor it never gave (-32602)', async () => {
    const old = await rawServerExchange(api, '2024-11-05');
    expect(old).toEqual({ negotiated: '2024-11-05', ids: ['init-α', 'list-1', 0, -1], listed: [['steps', 'waits'], ['steps', 'waits']], badCursor: -32602 });
    const future = await rawServerExchange(api, '2099-01-01');
    expect(future.negotiated).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('stops the tool when the client cancels the call (notifications/cancelled)', async () => {
    const seen = await cancelSeen(api);
    expect(seen[0]).toBe('started');
    expect(seen.slice(1).sort()).toEqual(['aborted', 'client: rejected'].sort());
  });
});
