// fc1: the Extism ABI's failure signal is an export's non-zero return code (Extism's Rust host fails
// such a call; its JavaScript host, and the host before fc1, dropped it). A guard whose own logic
// failed and returned 1 read as an empty HookResponse: "no objection", its fail-closed policy never
// ran. Now every plugin export the host interprets (hook, tool, describe, an Extism export used as a
// tool) fails on a non-zero code, in-thread and in a worker; the sandbox itself only reports it.
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { loadPlugin } from '../../host/plugins/load.js';
import { createSandbox } from '../../host/sandbox/index.js';
import { scriptedModel } from '../../host/models/scripted.js';
import type { HookInput } from '../../host/hooks/types.js';
import type { HostEvent } from '../../host/events/types.js';
import { WasmhooksError } from '../../host/errors.js';
import { cannedPlugin } from '../fixtures/canned.js';
import { assemble } from '../sandbox/instrument-helpers.js';
import { ALLOW, DENY, guardInfo, rmInput, wire } from '../fixtures/guard-wire.js';
import { field } from '../xrt/wat.js';

const ISOLATIONS = ['in-thread', 'worker'] as const;
const PRE_TOOL_USE = 6;
const SESSION_START = 1;
// Roomy: these tests check verdicts, not timing (CI runs on two busy cores).
const LIMITS = { timeoutMs: 10_000 };

const info = (event: number, tools = false) => guardInfo('buggy', event, tools);
const input: HookInput = rmInput;
const ctx = { signal: new AbortController().signal, toolUseId: 't1', context: {} } as never;

describe.each(ISOLATIONS)('a non-zero return code is a failed call (%s)', (isolation) => {
  it.each([
    ['no output', null, 1],
    ['an allow answer', ALLOW, 1],
    ['an allow answer, code -1', ALLOW, -1],
    ['an allow answer, code 2^31 - 1', ALLOW, 2147483647],
  ])('hook: %s with a non-zero code is PLUGIN_ERROR naming plugin, export and code', async (_, output, code) => {
    const plugin = await loadPlugin({ bytes: cannedPlugin({ describe: info(PRE_TOOL_USE), hook: output }, { hook: code }) }, { isolation, limits: LIMITS });
    try {
      const r = await plugin.callHook(input);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.failure.code).toBe('PLUGIN_ERROR');
      expect(r.failure.message).toBe(`plugin buggy: export "hook" returned ${code}; under the Extism ABI a non-zero return code is a failed call (the plugin set no error message)`);
      // The guard's handler carries the fail-closed default: the chain turns this failure into deny.
      expect(plugin.hooks()[0]!.failurePolicy).toBe('fail-closed');
    } finally {
      await plugin.close();
    }
  });

  it('hook: code 0 still answers (an empty answer is continue, a deny is a deny)', async () => {
    const plugin = await loadPlugin({ bytes: cannedPlugin({ describe: info(PRE_TOOL_USE), hook: DENY }) }, { isolation, limits: LIMITS });
    const empty = await loadPlugin({ bytes: cannedPlugin({ describe: info(PRE_TOOL_USE), hook: null }) }, { isolation, limits: LIMITS });
    try {
      expect(await plugin.callHook(input)).toMatchObject({ ok: true, output: { decision: 'deny', reason: 'no' } });
      expect(await empty.callHook(input)).toMatchObject({ ok: true, output: { decision: 'continue' } });
    } finally {
      await plugin.close();
      await empty.close();
    }
  });

  it('tool: a ToolResponse returned with code 1 is an error result, not the content', async () => {
    const answer = wire(field(1, 'all good'));
    const plugin = await loadPlugin({ bytes: cannedPlugin({ describe: info(PRE_TOOL_USE, true), hook: null, tool: answer }, { tool: 1 }) }, { isolation, limits: LIMITS });
    try {
      const r = await plugin.callTool('Probe', {}, ctx);
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/failed: PLUGIN_ERROR: plugin buggy: export "tool" returned 1/);
    } finally {
      await plugin.close();
    }
  });

  it('describe: returning 1 fails the load (LOAD_FAILED, saying PLUGIN_ERROR and the code)', async () => {
    const wasm = cannedPlugin({ describe: info(PRE_TOOL_USE), hook: null }, { describe: 1 });
    const error = await loadPlugin({ bytes: wasm }, { isolation, limits: LIMITS }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as WasmhooksError).code).toBe('LOAD_FAILED');
    expect((error as WasmhooksError).message).toMatch(/describe failed \(PLUGIN_ERROR\): plugin <bytes>: export "describe" returned 1/);
  });

  it('an Extism export used as a tool: code 1 (or a result that is not an i32) is a failed tool call', async () => {
    const wasm = await assemble(`(module
      (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
      (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))
      (memory (export "memory") 1)
      (func (export "fails") (result i32) (call $output_set (call $alloc (i64.const 2)) (i64.const 2)) (i32.const 1))
      (func (export "wide") (result i64) (call $output_set (call $alloc (i64.const 2)) (i64.const 2)) (i64.const 0))
      (func (export "none") (call $output_set (call $alloc (i64.const 2)) (i64.const 2)))
      (func (export "works") (result i32) (call $output_set (call $alloc (i64.const 2)) (i64.const 2)) (i32.const 0)))`);
    const plugin = await loadPlugin({ bytes: wasm }, { isolation, limits: LIMITS, tools: ['fails', 'wide', 'none', 'works'].map((name) => ({ name })) });
    try {
      expect(await plugin.callTool('fails', {}, ctx)).toMatchObject({ isError: true, content: expect.stringMatching(/PLUGIN_ERROR: .*export "fails" returned 1;/) });
      // Extism's Rust host reads a result that is not an i32 as -1, and no result as 0.
      expect(await plugin.callTool('wide', {}, ctx)).toMatchObject({ isError: true, content: expect.stringMatching(/export "wide" returned -1;/) });
      expect(await plugin.callTool('none', {}, ctx)).toEqual({ isError: false, content: '\0\0' });
      expect(await plugin.callTool('works', {}, ctx)).toEqual({ isError: false, content: '\0\0' });
    } finally {
      await plugin.close();
    }
  });

  it("the sandbox only reports the code: any export's result is data (raw sandbox callers judge it)", async () => {
    const wasm = await assemble(`(module (memory (export "memory") 1)
      (func (export "seven") (result i32) (i32.const 7))
      (func (export "none")))`);
    const sandbox = await createSandbox(wasm, { isolation, limits: LIMITS });
    try {
      expect(await sandbox.call('seven', new Uint8Array())).toMatchObject({ ok: true, returnCode: 7 });
      expect(await sandbox.call('none', new Uint8Array())).toMatchObject({ ok: true, returnCode: 0 });
    } finally {
      await sandbox.close();
    }
  });

  it('an observer whose hook returns 1 fails open: the run goes on (the failure is reported)', async () => {
    const plugin = await loadPlugin({ bytes: cannedPlugin({ describe: info(SESSION_START), hook: null }, { hook: 1 }) }, { isolation, limits: LIMITS });
    try {
      const host = createHost({ plugins: [plugin], model: scriptedModel([{ text: 'hello' }]) });
      const events: HostEvent[] = [];
      for await (const e of host.session().stream('hi')) events.push(e);
      const end = events.find((e) => e.type === 'hook.end' && e.hookName === 'buggy');
      expect(end).toMatchObject({ failure: { code: 'PLUGIN_ERROR' } });
      expect(events.find((e) => e.type === 'agent.end')).toMatchObject({ result: { text: 'hello' } });
    } finally {
      await plugin.close();
    }
  });
});

describe('an agent run: a PreToolUse guard that returns 1 denies, and the tool does not run', () => {
  it.each(ISOLATIONS)('%s', async (isolation) => {
    // The guard answers "allow" but returns 1: its logic failed. Before fc1 the call ran, unasked.
    const plugin = await loadPlugin({ bytes: cannedPlugin({ describe: info(PRE_TOOL_USE), hook: ALLOW }, { hook: 1 }) }, { isolation, limits: LIMITS });
    const ran: string[] = [];
    try {
      const host = createHost({
        plugins: [plugin],
        permissionMode: 'bypassPermissions',
        model: scriptedModel({ turns: [{ toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }] }, { text: 'Done.' }] }),
        tools: [{ name: 'Bash', description: 'shell', inputSchema: { type: 'object' }, kind: 'js', run: async (i: Record<string, unknown>) => (ran.push(String(i.command)), { content: 'ok', isError: false }) }],
      });
      const events: HostEvent[] = [];
      for await (const e of host.session().stream('clean up')) events.push(e);
      expect(ran).toEqual([]);
      const denied = events.find((e) => e.type === 'tool.denied');
      expect(denied).toMatchObject({ source: 'hook' });
      expect(JSON.stringify(denied)).toMatch(/returned 1/);
    } finally {
      await plugin.close();
    }
  });
});
