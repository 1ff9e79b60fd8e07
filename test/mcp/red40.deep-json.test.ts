// Session 40: JSON nested 100,000 deep from outside the host. `JSON.parse` takes it (the MCP SDK
// parses every message itself), but the host's own walks did not: a tool schema of 100,000 levels
// of `properties`, `items` or `allOf` in an MCP server's listing ended its start with "could not
// start: Maximum call stack size exceeded" (none of its tools registered); a structuredContent as
// deep failed the call with the same words; the schema checker took a schema it could not walk as
// one zod cannot read and passed every input; a call's arguments as deep to our own MCP server
// answered the RangeError. Now each is refused by one limit (MAX_JSON_DEPTH, 64, the limit of
// every JSON text the host parses), with where it came from. A plugin's JSON (describe's
// input_schema_json, a hook's updated_input_json) was already refused at that limit as text
// (test/protocol/codec.test.ts).
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { WasmhooksError } from '../../host/errors.js';
import { MAX_JSON_DEPTH, nestsDeeper } from '../../host/json.js';
import { createMcpServer, relayModel } from '../../host/mcp/server.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { jsonSchemaChecker } from '../../host/tools/define.js';
import { ToolRegistry } from '../../host/tools/registry.js';
import { collect, ofType } from '../agent/helpers.js';

const fixture = fileURLToPath(new URL('../fixtures/mcp/hostile.mjs', import.meta.url));
const closers: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c.close().catch(() => {});
});

const TOO_DEEP = /nests arrays\/objects deeper than 64 levels \(the host's limit for JSON from outside\)/;

/** A value nested `depth` levels of `kind` around `leaf`, built without recursion. */
function deep(kind: 'props' | 'items' | 'allof' | 'array', depth: number, leaf: unknown = { type: 'string' }): Record<string, unknown> {
  let node = leaf;
  for (let i = 0; i < depth; i++) {
    node = kind === 'props' ? { type: 'object', properties: { a: node } } : kind === 'items' ? { type: 'array', items: node } : kind === 'allof' ? { allOf: [node] } : [node];
  }
  return { type: 'object', properties: { q: node } };
}

describe('JSON nested past the host\'s limit is refused where it enters, not walked', () => {
  it('nestsDeeper counts as parseJson does ([] is depth 1), at any depth, without recursion', () => {
    const nest = (n: number) => JSON.parse('['.repeat(n) + ']'.repeat(n)) as unknown;
    expect(nestsDeeper(nest(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeper(nest(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeper(nest(200_000))).toBe(true);
    expect(nestsDeeper('x')).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(nestsDeeper(cyclic)).toBe(true);
  });

  it.each(['props', 'items', 'allof'] as const)('an MCP tool whose inputSchema nests 100,000 levels of %s is skipped, naming it; the server\'s other tools register', async (kind) => {
    const host = createHost({
      model: scriptedModel({ turns: [{ text: 'done' }] }),
      mcpServers: { d: { command: process.execPath, args: [fixture, 'deep'], env: { KIND: kind } } },
    });
    closers.push(host);
    const events = await collect(host.session(), 'go');
    // Old code: MCP_START_FAILED, "could not start: Maximum call stack size exceeded", and no tools.
    expect(ofType(events, 'mcp.server.error')).toEqual([expect.objectContaining({ server: 'd', code: 'MCP_PROTOCOL', message: expect.stringMatching(/^tool "deep" is skipped: its inputSchema nests/) })]);
    expect(ofType(events, 'mcp.server.error')[0]?.message).toMatch(TOO_DEEP);
    expect(host.tools.list().map((t) => t.name)).toEqual(['mcp__d__ok']);
  }, 60_000);

  it('an MCP result whose structuredContent nests 100,000 arrays deep is an error result that says so', async () => {
    const host = createHost({
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'mcp__d__ok', input: {} }] }, { text: 'done' }] }),
      permissionMode: 'bypassPermissions',
      mcpServers: { d: { command: process.execPath, args: [fixture, 'deep'], env: { KIND: 'props', DEPTH: '100000' } } },
    });
    closers.push(host);
    const events = await collect(host.session(), 'go');
    const out = ofType(events, 'tool.output')[0];
    expect(out).toMatchObject({ name: 'mcp__d__ok', isError: true, content: expect.stringMatching(/^the MCP tool's result was not read: its structuredContent nests/) });
    expect(out?.content).toMatch(TOO_DEEP);
  }, 60_000);

  it.each(['props', 'items', 'allof'] as const)('the schema checker refuses every input under a schema nesting 100,000 levels of %s (it passed them all)', (kind) => {
    const check = jsonSchemaChecker(deep(kind, 100_000));
    expect(check({ q: 1 })).toEqual({ ok: false, message: expect.stringMatching(TOO_DEEP) });
    expect(check({})).toMatchObject({ ok: false });
  });

  it('the schema checker refuses an input nested 100,000 deep (it passed unchecked)', () => {
    const check = jsonSchemaChecker({ type: 'object', properties: { q: { type: 'string' } } });
    expect(check(deep('array', 100_000, 1))).toEqual({ ok: false, message: expect.stringMatching(/^the input nests arrays\/objects deeper than 64/) });
    expect(check({ q: 'fine' })).toEqual({ ok: true, value: { q: 'fine' } });
  });

  it('the tool registry refuses a stranger\'s tool whose schema nests too deep, by name (every model request wrote it out)', () => {
    const registry = new ToolRegistry();
    const add = () => registry.add({ name: 'deep', description: 'd', inputSchema: deep('props', 100_000), kind: 'wasm', plugin: 'p', run: async () => ({ content: '', isError: false }) });
    expect(add).toThrow(WasmhooksError);
    expect(add).toThrow(/^tool "deep" \(p\): its input schema nests arrays\/objects deeper than 64 levels/);
    expect(registry.list()).toEqual([]);
    registry.add({ name: 'fine', description: 'd', inputSchema: deep('props', 20), kind: 'wasm', run: async () => ({ content: '', isError: false }) });
    expect(registry.definitions().map((d) => d.name)).toEqual(['fine']);
  });

  it('our MCP server answers a call whose arguments nest 100,000 deep with an error result that says so', async () => {
    const host = createHost({ model: relayModel(), permissionMode: 'bypassPermissions' });
    closers.push(host);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await createMcpServer(host).connect(a);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(b);
    closers.push(client);
    // Old code: the SDK's error for the handler's RangeError, "Maximum call stack size exceeded".
    const result = await client.callTool({ name: 'anything', arguments: deep('array', 100_000, 1) });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^the call did not run: its arguments object nests/) }] });
  });
});
