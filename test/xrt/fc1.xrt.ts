// fc1, "a broken guard fails closed", on Node, Deno and Bun against the ESM build, in-thread and in a
// worker: an export's non-zero return code is a failed call (Extism's ABI, as its Rust host reads it),
// exit(0) keeps the answer set before it, and output_set's range is the output. Vitest twins that
// fail on the old code: test/plugins/fc1.return-code.test.ts, fc1.exit-answer.test.ts,
// fc1.output-range.test.ts, fc1.fallback.test.ts.
import assert from 'node:assert/strict';
import { createHost, createSandbox, loadPlugin, scriptedModel } from '../../dist/index.js';
import type { HookInput, HostEvent } from '../../dist/index.js';
import { ALLOW, DENY, guardInfo, rmInput, wire } from '../fixtures/guard-wire.ts';
import { field } from './wat.ts';

const { cannedPlugin, rangePlugin } = (await import(new URL('../fixtures/canned.ts', import.meta.url).href)) as typeof import('../fixtures/canned.js');

const ISOLATIONS = ['in-thread', 'worker'] as const;
const LIMITS = { timeoutMs: 10_000 };
const info = (event: number, tools = false) => guardInfo('buggy', event, tools);
const input: HookInput = rmInput;
const ctx = { signal: new AbortController().signal, toolUseId: 't1', context: {} } as never;

/** A prompt whose model asks for Bash once; returns the commands the tool ran and the events. */
async function agentRun(plugin: Awaited<ReturnType<typeof loadPlugin>>): Promise<{ ran: string[]; events: HostEvent[] }> {
  const ran: string[] = [];
  const host = createHost({
    plugins: [plugin],
    permissionMode: 'bypassPermissions',
    model: scriptedModel({ turns: [{ toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }] }, { text: 'Done.' }] }),
    tools: [{ name: 'Bash', description: 'shell', inputSchema: { type: 'object' }, kind: 'js', run: async (i: Record<string, unknown>) => (ran.push(String(i.command)), { content: 'ok', isError: false }) }],
  });
  const events: HostEvent[] = [];
  for await (const e of host.session().stream('clean up')) events.push(e);
  return { ran, events };
}

export const scenarios: Record<string, () => Promise<void>> = {};

for (const isolation of ISOLATIONS) {
  scenarios[`${isolation}: an agent run whose PreToolUse guard answers allow but returns 1 denies, and the tool does not run`] = async () => {
    const plugin = await loadPlugin({ bytes: cannedPlugin({ describe: info(6), hook: ALLOW }, { hook: 1 }) }, { isolation, limits: LIMITS });
    try {
      const { ran, events } = await agentRun(plugin);
      assert.deepEqual(ran, []);
      const denied = events.find((e) => e.type === 'tool.denied');
      assert.ok(denied && denied.source === 'hook', JSON.stringify(events.map((e) => e.type)));
      assert.match(JSON.stringify(denied), /export \\"hook\\" returned 1/);
      const end = events.find((e) => e.type === 'hook.end' && e.hookName === 'buggy');
      assert.equal(end?.type === 'hook.end' && end.failure?.code, 'PLUGIN_ERROR');
    } finally {
      await plugin.close();
    }
  };

  scenarios[`${isolation}: the same guard returning 0 allows (the control), and one returning 1 without output denies`] = async () => {
    const fine = await loadPlugin({ bytes: cannedPlugin({ describe: info(6), hook: ALLOW }) }, { isolation, limits: LIMITS });
    const silent = await loadPlugin({ bytes: cannedPlugin({ describe: info(6), hook: null }, { hook: 1 }) }, { isolation, limits: LIMITS });
    try {
      assert.deepEqual((await agentRun(fine)).ran, ['rm -rf /']);
      assert.deepEqual((await agentRun(silent)).ran, []);
    } finally {
      await fine.close();
      await silent.close();
    }
  };

  scenarios[`${isolation}: an observer returning 1 fails open; a tool and an Extism export returning 1 are failed tool calls; describe returning 1 does not load`] = async () => {
    const observer = await loadPlugin({ bytes: cannedPlugin({ describe: info(1), hook: null }, { hook: 1 }) }, { isolation, limits: LIMITS });
    const tool = await loadPlugin({ bytes: cannedPlugin({ describe: info(6, true), hook: null, tool: wire(field(1, 'all good')) }, { tool: 1 }) }, { isolation, limits: LIMITS });
    const extism = await loadPlugin({ bytes: cannedPlugin({ greet: new TextEncoder().encode('hi') }, { greet: 1 }) }, { isolation, limits: LIMITS, tools: [{ name: 'greet' }] });
    try {
      const host = createHost({ plugins: [observer], model: scriptedModel([{ text: 'hello' }]) });
      const events: HostEvent[] = [];
      for await (const e of host.session().stream('hi')) events.push(e);
      const end = events.find((e) => e.type === 'agent.end');
      assert.equal(end?.type === 'agent.end' && end.result.text, 'hello');
      const probe = await tool.callTool('Probe', {}, ctx);
      assert.equal(probe.isError, true);
      assert.match(String(probe.content), /PLUGIN_ERROR: plugin buggy: export "tool" returned 1/);
      const greet = await extism.callTool('greet', {}, ctx);
      assert.equal(greet.isError, true);
      assert.match(String(greet.content), /export "greet" returned 1/);
      await assert.rejects(loadPlugin({ bytes: cannedPlugin({ describe: info(6), hook: null }, { describe: 1 }) }, { isolation, limits: LIMITS }), /export "describe" returned 1/);
    } finally {
      await observer.close();
      await tool.close();
      await extism.close();
    }
  };

  scenarios[`${isolation}: the sandbox reports an export's result as returnCode and judges nothing; exit(0) keeps the answer set before it`] = async () => {
    const sandbox = await createSandbox(cannedPlugin({ seven: new Uint8Array([1]) }, { seven: 7 }), { isolation, limits: LIMITS });
    const exiting = await loadPlugin({ bytes: cannedPlugin({ describe: info(6), hook: DENY }, {}, { hook: 0 }) }, { isolation, wasi: true, limits: LIMITS });
    try {
      const out = await sandbox.call('seven', new Uint8Array());
      assert.ok(out.ok);
      assert.equal(out.returnCode, 7);
      assert.deepEqual([...out.output], [1]);
      const r = await exiting.callHook(input);
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.output.decision, 'deny');
    } finally {
      await sandbox.close();
      await exiting.close();
    }
  };

  scenarios[`${isolation}: output_set's range is the output: a deny before a stale allow in the block denies; a range past the block is a TRAP`] = async () => {
    const described = info(6);
    const block = wire(field(1, 3), field(1, 2));
    const wasm = rangePlugin({ describe: { data: described, offset: 0, length: described.length }, hook: { data: block, offset: 0, length: 2 } });
    const plugin = await loadPlugin({ bytes: wasm }, { isolation, limits: LIMITS });
    const data = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const sandbox = await createSandbox(rangePlugin({ middle: { data, offset: 2, length: 3 }, past: { data, offset: 4, length: 3 } }), { isolation, limits: LIMITS });
    try {
      const { ran } = await agentRun(plugin);
      assert.deepEqual(ran, []);
      const middle = await sandbox.call('middle', new Uint8Array());
      assert.deepEqual(middle.ok && [...middle.output], [3, 4, 5]);
      const past = await sandbox.call('past', new Uint8Array());
      assert.equal(past.ok ? 'ok' : past.failure.code, 'TRAP');
    } finally {
      await plugin.close();
      await sandbox.close();
    }
  };
}
