// An ordinary Extism plugin (Extism's AssemblyScript PDK, no wasmhooks
// protocol) used through its exports as agent tools, and embedder host
// functions given by grant.
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import type { HostEvent } from '../../host/events/types.js';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { loadPlugin } from '../../host/plugins/load.js';
import type { PluginOptions } from '../../host/plugins/options.js';
import { createSandbox } from '../../host/sandbox/index.js';
import type { HostFunction } from '../../host/sandbox/host-functions.js';
import { extismVowels, str, text, wasiGuard } from './helpers.js';

const TOOLS: PluginOptions['tools'] = [
  { name: 'count_vowels', description: 'Counts vowels', input: 'text' },
  {
    name: 'repeat_text',
    export: 'repeat',
    description: 'Repeats text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' }, times: { type: 'number' } }, required: ['text'] },
  },
  { name: 'spin', input: 'text' },
];
const ctx = { signal: new AbortController().signal, toolUseId: 't1', context: {} } as never;

const lookup: HostFunction = {
  params: ['i64'],
  results: ['i64'],
  fn: (c, offset) => c.store(`answer to ${c.readText(offset as bigint)}`),
};

describe('an Extism plugin as tools', () => {
  it('exposes the configured exports as tools, text and JSON input, text output', async () => {
    const plugin = await loadPlugin({ bytes: await extismVowels() }, { tools: TOOLS, pluginName: 'vowels', grants: { hostFunctions: ['lookup'] }, hostFunctions: { lookup } });
    expect(plugin.name).toBe('vowels');
    expect(plugin.isExtismTools).toBe(true);
    expect(plugin.tools().map((t) => [t.name, t.kind, t.plugin])).toEqual([
      ['count_vowels', 'wasm', 'vowels'],
      ['repeat_text', 'wasm', 'vowels'],
      ['spin', 'wasm', 'vowels'],
    ]);
    expect(plugin.tools()[0]!.inputSchema).toMatchObject({ required: ['input'] });
    expect(await plugin.callTool('count_vowels', { input: 'Hello, World' }, ctx)).toEqual({ content: '{"count":3,"total":12}', isError: false });
    expect(await plugin.callTool('repeat_text', { text: 'ab', times: 3 }, ctx)).toEqual({ content: 'ababab', isError: false });
    const bad = await plugin.callTool('count_vowels', { text: 'no input field' }, ctx);
    expect(bad).toMatchObject({ isError: true, content: expect.stringMatching(/BAD_INPUT/) });
    const own = await plugin.callTool('repeat_text', { nothing: true }, ctx);
    expect(own).toMatchObject({ isError: true, content: expect.stringMatching(/PLUGIN_ERROR: expected \{"text"/) });
    await plugin.close();
  });

  it('types failures as for protocol plugins (a spin is a TIMEOUT error result)', async () => {
    const plugin = await loadPlugin({ bytes: await extismVowels() }, { tools: TOOLS, limits: { timeoutMs: 50, fuel: 1e15 }, grants: { hostFunctions: ['lookup'] }, hostFunctions: { lookup } });
    const spun = await plugin.callTool('spin', { input: 'x' }, ctx);
    expect(spun).toMatchObject({ isError: true, content: expect.stringMatching(/^tool spin \(plugin extism-plugin\) failed: TIMEOUT: the call ran past its deadline of 50 ms$/) });
    await plugin.close();
  });

  it('refuses a tool naming a missing export, and a plugin without describe nor tools', async () => {
    const bytes = await extismVowels();
    const options = { grants: { hostFunctions: ['lookup'] }, hostFunctions: { lookup } };
    await expect(loadPlugin({ bytes }, { ...options, tools: [{ name: 'nope' }] })).rejects.toMatchObject({ code: 'MISSING_EXPORT', message: expect.stringMatching(/"nope" \(tool nope\).*count_vowels/) });
    await expect(loadPlugin({ bytes }, options)).rejects.toMatchObject({ code: 'MISSING_EXPORT', message: expect.stringMatching(/"tools" option/) });
  });

  it('runs as a tool in an agent run (scripted model)', async () => {
    const plugin = await loadPlugin({ bytes: await extismVowels() }, { tools: TOOLS, pluginName: 'vowels', grants: { hostFunctions: ['lookup'] }, hostFunctions: { lookup } });
    const host = createHost({
      plugins: [plugin],
      permissionMode: 'bypassPermissions',
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'count_vowels', input: { input: 'an agent loop' } }] }, { text: 'There are 5 vowels.' }] }),
    });
    const events: HostEvent[] = [];
    for await (const event of host.session().stream('count the vowels')) events.push(event);
    await plugin.close();
    const output = events.find((e) => e.type === 'tool.output');
    expect(output).toMatchObject({ name: 'count_vowels', isError: false, content: '{"count":5,"total":13}' });
    const end = events.at(-1);
    expect(end?.type === 'agent.end' && end.result.subtype).toBe('success');
  });
});

describe('embedder host functions', () => {
  it('a granted host function is called, typed, with the plugin memory', async () => {
    const plugin = await loadPlugin({ bytes: await extismVowels() }, { tools: [{ name: 'ask_host', input: 'text' }], grants: { hostFunctions: ['lookup'] }, hostFunctions: { lookup } });
    expect(await plugin.callTool('ask_host', { input: 'life' }, ctx)).toEqual({ content: 'answer to life', isError: false });
    expect(plugin.pin.grants.hostFunctions).toEqual(['lookup']);
    await plugin.close();
  });

  it('a plugin importing an ungranted host function fails at load with GRANT_DENIED', async () => {
    const error = await loadPlugin({ bytes: await extismVowels() }, { tools: [{ name: 'count_vowels' }], hostFunctions: { lookup } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WasmhooksError);
    expect(error).toMatchObject({ code: 'GRANT_DENIED', message: expect.stringMatching(/imports host functions it was not granted: lookup/) });
    await expect(loadPlugin({ bytes: await extismVowels() }, { tools: [{ name: 'count_vowels' }], grants: { hostFunctions: ['lookup'] } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });

  it('the sandbox refuses a missing or mistyped host function, and host functions in a worker', async () => {
    const bytes = await extismVowels();
    await expect(createSandbox(bytes)).rejects.toMatchObject({ code: 'LOAD_FAILED', message: expect.stringMatching(/host function "lookup".*not given/) });
    const wrong: HostFunction = { params: ['i32'], results: ['i64'], fn: () => 0n };
    await expect(createSandbox(bytes, { hostFunctions: { lookup: wrong } })).rejects.toMatchObject({ code: 'LOAD_FAILED', message: expect.stringMatching(/as \(i64\) -> \(i64\), but it is \(i32\) -> \(i64\)/) });
    await expect(createSandbox(bytes, { hostFunctions: { lookup }, isolation: 'worker' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await expect(createSandbox(bytes, { hostFunctions: { lookup: { ...lookup, fn: async () => 0n } as never } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });

  it('charges fuel per call and checks the deadline when a host function returns', async () => {
    const slow: HostFunction = {
      params: ['i64'],
      results: ['i64'],
      fn: (c) => {
        const until = performance.now() + 80;
        while (performance.now() < until);
        return c.store('late');
      },
    };
    const s = await createSandbox(await extismVowels(), { hostFunctions: { lookup: slow }, limits: { timeoutMs: 40 } });
    const late = await s.call('ask_host', text('q'));
    expect(late.ok ? str(late.output) : late.failure.code).toBe('TIMEOUT');
    const typed = await createSandbox(await extismVowels(), { hostFunctions: { lookup: { ...lookup, fn: () => 7 } } });
    const bad = await typed.call('ask_host', text('q'));
    expect(bad.ok ? 'ok' : `${bad.failure.code}: ${bad.failure.message}`).toMatch(/TRAP: .*"lookup" returned number, but its result type is i64/);
    const fast = await createSandbox(await extismVowels(), { hostFunctions: { lookup } });
    const a = await fast.call('ask_host', text('q'));
    const b = await fast.call('count_vowels', text('q'));
    expect(a.ok && b.ok).toBe(true);
    await Promise.all([s.close(), typed.close(), fast.close()]);
  });
});

describe('a WASI protocol plugin through loadPlugin', () => {
  it('decides, and its stderr reaches the session as plugin.log events', async () => {
    const guard = await loadPlugin({ bytes: await wasiGuard() }, { wasi: true });
    expect(guard.name).toBe('wasi-guard');
    expect(guard.pin.wasi).toEqual({ args: [], env: [], preopens: {} });
    const ran: string[] = [];
    const host = createHost({
      plugins: [guard],
      permissionMode: 'bypassPermissions',
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }, { name: 'Bash', input: { command: 'ls' } }] }, { text: 'Done.' }] }),
      tools: [{ name: 'Bash', description: 'shell', inputSchema: { type: 'object' }, kind: 'js', run: async (input) => (ran.push(String(input.command)), { content: 'ok', isError: false }) }],
    });
    const events: HostEvent[] = [];
    for await (const event of host.session().stream('clean up')) events.push(event);
    await guard.close();
    expect(ran).toEqual(['ls']);
    expect(events.some((e) => e.type === 'tool.denied' && /wasi-guard: rm -rf/.test(e.reason ?? ''))).toBe(true);
    const logs = events.filter((e) => e.type === 'plugin.log');
    expect(logs.map((e) => e.type === 'plugin.log' && [e.plugin, e.level, e.message.replace(/\d+-byte/, 'N-byte')])).toEqual([
      ['wasi-guard', 'warn', 'wasi-guard: denied a N-byte request'],
      ['wasi-guard', 'warn', 'wasi-guard: allowed a N-byte request'],
    ]);
  });
});
