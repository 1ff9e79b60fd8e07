// MCP servers as tool sources, against real server processes (the SDK's own
// server class in test/fixtures/mcp/server.mjs), never a mock.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import type { HostOptions } from '../../host/host-options.js';
import { loadPlugin } from '../../host/plugins/load.js';
import { scriptedModel, type ScriptedTurn } from '../../host/models/scripted.js';
import { collect, endResult, ofType } from '../agent/helpers.js';
import { builtPlugin } from '../plugins-firstparty/wasm.js';

const fixture = fileURLToPath(new URL('../fixtures/mcp/server.mjs', import.meta.url));
const stdio = { demo: { command: process.execPath, args: [fixture] } };
const call = (name: string, input: Record<string, unknown> = {}): ScriptedTurn => ({ toolCalls: [{ name, input }] });
const run = (turns: ScriptedTurn[], options: HostOptions = {}) =>
  createHost({ model: scriptedModel({ turns: [...turns, { text: 'done' }] }), permissionMode: 'bypassPermissions', mcpServers: stdio, ...options });

const hosts: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
});

describe('MCP servers as tool sources', () => {
  it('start lazily, register mcp__<server>__<tool> and run calls', async () => {
    const host = run([call('mcp__demo__echo', { text: 'hi' })]);
    hosts.push(host);
    expect(host.tools.get('mcp__demo__echo')).toBeUndefined(); // lazy: nothing started yet
    const events = await collect(host.session(), 'go');
    const connected = ofType(events, 'mcp.server.connected')[0];
    expect(connected?.tools).toEqual(expect.arrayContaining(['mcp__demo__echo', 'mcp__demo__slow', 'mcp__demo__crash']));
    expect(ofType(events, 'tool.output')[0]).toMatchObject({ name: 'mcp__demo__echo', content: 'echo: hi', isError: false });
    expect(host.tools.definitions().map((d) => d.name)).toContain('mcp__demo__echo');
    expect(endResult(events).subtype).toBe('success');
  });

  it('a guard denies an MCP tool by its mcp__ name; the server never sees the call', async () => {
    const host = run([call('mcp__demo__echo', { text: 'rm -rf /' })], {
      hooks: { PreToolUse: [{ matcher: 'mcp__demo__.*', hooks: [async (i) => ({ decision: 'deny', reason: `no ${'tool_name' in i ? i.tool_name : ''}` })] }] },
    });
    hosts.push(host);
    const events = await collect(host.session(), 'go');
    expect(ofType(events, 'tool.denied')[0]).toMatchObject({ name: 'mcp__demo__echo', reason: 'no mcp__demo__echo' });
    expect(ofType(events, 'tool.output')).toHaveLength(0);
  });

  it('secret-redactor (WASM) rewrites an MCP tool output before the model and the stream see it', async () => {
    const redactor = await loadPlugin({ path: builtPlugin('secret-redactor') });
    const host = run([call('mcp__demo__secret')], { plugins: [redactor] });
    hosts.push(host, redactor);
    const events = await collect(host.session(), 'go');
    const out = ofType(events, 'tool.output')[0];
    expect(out?.content).toContain('[REDACTED:openai-key]');
    expect(JSON.stringify(events)).not.toContain('sk-proj-abcdefghij');
  });

  it('an error result is a tool error (PostToolUseFailure fires)', async () => {
    const failures: string[] = [];
    const host = run([call('mcp__demo__fail')], {
      hooks: { PostToolUseFailure: [{ hooks: [async (i) => (failures.push('error' in i ? i.error : ''), {})] }] },
    });
    hosts.push(host);
    const events = await collect(host.session(), 'go');
    expect(ofType(events, 'tool.output')[0]).toMatchObject({ content: 'disk on fire', isError: true });
    expect(failures).toEqual(['disk on fire']);
  });

  it('a server crashing mid-call gives a typed error and an event, and restarts at the next prompt', async () => {
    const host = run([call('mcp__demo__crash'), { text: 'after' }, call('mcp__demo__echo', { text: 'again' })]);
    hosts.push(host);
    const session = host.session();
    const events = await collect(session, 'go');
    const out = ofType(events, 'tool.output')[0];
    expect(out?.isError).toBe(true);
    expect(out?.content).toMatch(/\[MCP_CLOSED\]/);
    expect(out?.content).toContain('crashing now'); // the server's stderr, for the operator
    expect(events.some((e) => e.type === 'mcp.server.closed' || (e.type === 'mcp.server.error' && e.code === 'MCP_CLOSED'))).toBe(true);
    // mcp.server.error goes to every live session: it names the failure, never the server's words
    for (const e of ofType(events, 'mcp.server.error')) expect(e.message).not.toContain('crashing now');
    const again = await collect(session, 'again');
    expect(ofType(again, 'mcp.server.connected')).toHaveLength(1);
    expect(ofType(again, 'tool.output')[0]).toMatchObject({ content: 'echo: again', isError: false });
  });

  it('a server that cannot start is an event; the prompt still runs without its tools', async () => {
    const host = run([{ text: 'no tools' }], { mcpServers: { broken: { command: process.execPath, args: ['-e', 'console.error("no config"); process.exit(2)'] } } });
    hosts.push(host);
    const events = await collect(host.session(), 'go');
    const error = ofType(events, 'mcp.server.error')[0];
    expect(error).toMatchObject({ server: 'broken', code: 'MCP_START_FAILED' });
    expect(error?.message).toContain('no config');
    expect(endResult(events).subtype).toBe('success');
  });

  it('a call past its timeoutMs is MCP_TIMEOUT', async () => {
    const host = run([call('mcp__demo__slow', { ms: 5_000 })], { mcpServers: { demo: { ...stdio.demo, timeoutMs: 300 } } });
    hosts.push(host);
    const started = performance.now();
    const events = await collect(host.session(), 'go');
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(ofType(events, 'tool.output')[0]?.content).toMatch(/\[MCP_TIMEOUT\]/);
  });

  it('abort cancels the in-flight call (notifications/cancelled reaches the server)', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'mcp-')), 'log');
    const host = run([call('mcp__demo__slow', { ms: 10_000 })], { mcpServers: { demo: { ...stdio.demo, env: { MCP_FIXTURE_LOG: log } } } });
    hosts.push(host);
    const session = host.session();
    const controller = new AbortController();
    const pending = collect(session, 'go', controller.signal);
    // Abort once the call is running.
    const unsubscribe = session.subscribe((e) => {
      if (e.type === 'tool.call') setTimeout(() => controller.abort(), 200);
    });
    const started = performance.now();
    const events = await pending;
    unsubscribe();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(endResult(events).subtype).toBe('aborted');
    await expect.poll(() => (existsSync(log) ? readFileSync(log, 'utf8') : ''), { timeout: 3_000 }).toContain('cancelled');
  });

  it('tools/list_changed refreshes the registry', async () => {
    const host = run([call('mcp__demo__grow'), { text: 'grown' }, call('mcp__demo__added')]);
    hosts.push(host);
    const session = host.session();
    await collect(session, 'grow');
    await expect.poll(() => host.tools.get('mcp__demo__added') !== undefined, { timeout: 3_000 }).toBe(true);
    const events = await collect(session, 'use it');
    expect(ofType(events, 'tool.output')[0]).toMatchObject({ content: 'I am new' });
  });

  it('Streamable HTTP servers work the same', async () => {
    const child: ChildProcess = spawn(process.execPath, [fixture, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout?.on('data', (d: Buffer) => {
          const m = /listening (\S+)/.exec(String(d));
          if (m) resolve(m[1] as string);
        });
        child.on('exit', () => reject(new Error('the HTTP fixture exited')));
      });
      const host = run([call('mcp__web__echo', { text: 'over http' })], { mcpServers: { web: { url } } });
      hosts.push(host);
      const events = await collect(host.session(), 'go');
      expect(ofType(events, 'mcp.server.connected')[0]).toMatchObject({ server: 'web', transport: 'http' });
      expect(ofType(events, 'tool.output')[0]).toMatchObject({ content: 'echo: over http', isError: false });
    } finally {
      child.kill();
    }
  });

  it('bad server config is refused with the path named', () => {
    expect(() => createHost({ mcpServers: { 'bad name!': { command: 'x' } } })).toThrow(/mcpServers.*bad name!|server names must match/);
    expect(() => createHost({ mcpServers: { a: { url: 'ftp://x' } as never } })).toThrow(/INVALID|http/);
  });
});
