// Red review (red4): hostile MCP servers (test/fixtures/mcp/hostile.mjs, raw JSON-RPC) must cost the host
// a bounded amount and never hang a prompt.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { collect, endResult, ofType } from '../agent/helpers.js';
import { boundedFetch, MAX_MCP_MESSAGE_BYTES } from '../../host/mcp/bounds.js';
import { hostileHttpMcp } from '../fixtures/mcp/hostile-http.js';

const fixture = fileURLToPath(new URL('../fixtures/mcp/hostile.mjs', import.meta.url));
const hosts: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
});

const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms))]);

describe('hostile MCP servers', () => {
  it('a tool schema with a backtracking pattern cannot hold the event loop (the model\'s input is checked on RE2)', async () => {
    const host = createHost({
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'mcp__h__find', input: { q: `${'a'.repeat(28)}!` } }] }, { text: 'done' }] }),
      permissionMode: 'bypassPermissions',
      mcpServers: { h: { command: process.execPath, args: [fixture, 'redos'] } },
    });
    hosts.push(host);
    const started = performance.now();
    const events = await collect(host.session(), 'go');
    const out = ofType(events, 'tool.output')[0];
    expect(out).toMatchObject({ name: 'mcp__h__find', isError: true });
    expect(out?.content).toMatch(/invalid input/);
    // 28 a's took JavaScript's RegExp about 10 s here (doubling with each one); RE2 takes microseconds.
    expect(performance.now() - started).toBeLessThan(5000);
  }, 60_000);

  it('a server paging tools/list forever fails its start within startTimeoutMs; the prompt ends', async () => {
    const host = createHost({
      model: scriptedModel({ turns: [{ text: 'done' }] }),
      mcpServers: { p: { command: process.execPath, args: [fixture, 'pages'], startTimeoutMs: 1500 } },
    });
    hosts.push(host);
    const events = await within(collect(host.session(), 'go'), 20_000, 'the prompt');
    const error = ofType(events, 'mcp.server.error')[0];
    expect(error).toMatchObject({ server: 'p', code: 'MCP_START_FAILED' });
    expect(error?.message).toMatch(/tools\/list (still had a next page after 100 pages|did not finish within startTimeoutMs)/);
    expect(endResult(events).subtype).toBe('success');
  }, 30_000);

  it('a server listing 50,000 tools and asking for a refresh every 400 ms gets 1,000 registered and a bounded share of the CPU', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'wasmhooks-mcp-')), 'log');
    const host = createHost({
      model: scriptedModel({ turns: [{ text: 'done' }] }),
      mcpServers: { f: { command: process.execPath, args: [fixture, 'flood'], env: { FLOOD_MS: '400', MCP_FIXTURE_LOG: log } } },
    });
    hosts.push(host);
    await within(host.ready(), 30_000, 'the start');
    expect(host.tools.list().filter((t) => t.name.startsWith('mcp__f__'))).toHaveLength(1000);
    // Refreshes, each re-reading the 50,000-tool page: at most one per 2 s, and 20x what the last took.
    const cpu = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(0.4 * 6000);
    // The SDK's own refresh re-read the page every ~700 ms (its 300 ms debounce after each notification).
    const lists = readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
    expect(lists).toBeLessThanOrEqual(3);
    expect(host.tools.list().filter((t) => t.name.startsWith('mcp__f__'))).toHaveLength(1000);
  }, 60_000);

  it('progress notifications pass on at most 1 MiB of text per call, then one note', async () => {
    const host = createHost({
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'mcp__c__chatty', input: {} }] }, { text: 'done' }] }),
      permissionMode: 'bypassPermissions',
      mcpServers: { c: { command: process.execPath, args: [fixture, 'progress'] } },
    });
    hosts.push(host);
    const events = await within(collect(host.session(), 'go'), 30_000, 'the prompt');
    const progress = ofType(events, 'tool.progress');
    const chars = progress.reduce((n, e) => n + e.progress.length, 0);
    // The server sent 2,000 x 10,000 characters.
    expect(chars).toBeLessThanOrEqual((1 << 20) + 10_000 + 100);
    expect(progress.at(-1)?.progress).toMatch(/more progress dropped/);
    expect(ofType(events, 'tool.output')[0]).toMatchObject({ name: 'mcp__c__chatty', isError: false });
  }, 60_000);

  it('input schemas register up to 1 MiB of JSON per server; the rest of the tools are skipped, with an event', async () => {
    const host = createHost({ model: scriptedModel({ turns: [{ text: 'done' }] }), mcpServers: { s: { command: process.execPath, args: [fixture, 'bigschemas'] } } });
    hosts.push(host);
    const events = await within(collect(host.session(), 'go'), 60_000, 'the prompt');
    const registered = host.tools.list().filter((t) => t.name.startsWith('mcp__s__')).length;
    // 500 properties is about 12,000 characters: 87 fit. Before, all 200 were compiled.
    expect(registered).toBeGreaterThan(50);
    expect(registered).toBeLessThan(100);
    expect(ofType(events, 'mcp.server.error').some((e) => /input schemas pass 1048576 characters/.test(e.message))).toBe(true);
  }, 90_000);
});

describe('a hostile MCP server over HTTP (red7)', () => {
  // The SDK read a JSON answer (response.json()), an error's text and an SSE event whatever their size: an
  // endless body held the call until its timeout while the host buffered every byte it was sent.
  for (const mode of ['json', 'sse', 'error'] as const) {
    it(`an endless ${mode} answer fails the call at ${MAX_MCP_MESSAGE_BYTES} bytes, at once`, async () => {
      const server = await hostileHttpMcp(mode);
      try {
        const host = createHost({
          model: scriptedModel({ turns: [{ toolCalls: [{ name: 'mcp__e__endless', input: {} }] }, { text: 'done' }] }),
          permissionMode: 'bypassPermissions',
          mcpServers: { e: { url: server.url, timeoutMs: 30_000 } },
        });
        hosts.push(host);
        const started = performance.now();
        const events = await within(collect(host.session(), 'go'), 40_000, 'the prompt');
        const out = ofType(events, 'tool.output')[0];
        expect(out).toMatchObject({ name: 'mcp__e__endless', isError: true });
        // The old code waited for timeoutMs (30 s) with the body in memory.
        expect(performance.now() - started).toBeLessThan(10_000);
        expect(server.sent()).toBeLessThan(64 * 1024 * 1024);
      } finally {
        await server.close();
      }
    }, 60_000);
  }
});

describe('boundedFetch (red7)', () => {
  const serve = (all: string[], type: string) => async () => {
    const parts = [...all];
    const body = new ReadableStream({
      pull(c) {
        const p = parts.shift();
        if (p === undefined) c.close();
        else c.enqueue(new TextEncoder().encode(p));
      },
    });
    return new Response(body, { headers: { 'content-type': type } });
  };
  const read = (r: Response) => r.text().then((t) => t.length, (e: unknown) => String(e));

  it('cuts an event stream per event: many events of any total pass, one over the cap fails', async () => {
    const event = (n: number, nl: string) => `data: ${'y'.repeat(n)}${nl}${nl}`;
    for (const nl of ['\n', '\r\n']) {
      const many = Array.from({ length: 30 }, () => event(600, nl));
      expect(await read(await boundedFetch(1000, serve(many, 'text/event-stream') as never)('http://x'))).toBe(many.join('').length);
      // Split across chunks anywhere, blank lines included.
      const split = many.join('').match(/[^]{1,7}/g)!;
      expect(await read(await boundedFetch(1000, serve(split, 'text/event-stream') as never)('http://x'))).toBe(many.join('').length);
      const big = [event(600, nl), `data: ${'z'.repeat(700)}`, `${'z'.repeat(400)}${nl}`];
      expect(await read(await boundedFetch(1000, serve(big, 'text/event-stream') as never)('http://x'))).toMatch(/sent a message over 1000 bytes/);
    }
  });

  it('cuts any other body in all; the response keeps its status and headers', async () => {
    const r = await boundedFetch(1000, serve(['a'.repeat(600), 'a'.repeat(600)], 'application/json') as never)('http://x');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(await read(r)).toMatch(/sent a message over 1000 bytes/);
    expect(await read(await boundedFetch(1000, serve(['a'.repeat(999)], 'application/json') as never)('http://x'))).toBe(999);
  });
});

describe('tool descriptions (red7)', () => {
  it("an MCP server's tool descriptions are cut at MAX_TOOL_DESCRIPTION, with one event naming them", async () => {
    const { MAX_TOOL_DESCRIPTION } = await import('../../host/protocol/codec.js');
    const model = scriptedModel({ turns: [{ text: 'done' }] });
    const host = createHost({
      model,
      mcpServers: { l: { command: process.execPath, args: [fixture, 'longdesc'] } },
    });
    hosts.push(host);
    const events = await within(collect(host.session(), 'go'), 20_000, 'the prompt');
    const errors = ofType(events, 'mcp.server.error').filter((e) => e.code === 'MCP_PROTOCOL');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/the descriptions of "d0", "d1", "d2", "d3", "d4", and 55 more are cut at 8192 characters/);
    // What the model was told.
    const described = (model.requests[0]?.tools ?? []).filter((t) => t.name.startsWith('mcp__l__'));
    expect(described).toHaveLength(60);
    for (const t of described) expect(t.description.length).toBeLessThanOrEqual(MAX_TOOL_DESCRIPTION + 40);
  }, 30_000);
});
