// Red review (red11) on Node, Deno and Bun, through the built ESM: each scenario is a class of hole
// that was open on `main`, now closed. Vitest twins that fail on the old code:
// test/agent/red11.progress.test.ts, test/plugins/red11.log-sessions.test.ts,
// test/anylang/red11.wasi-poll.test.ts, test/agent/red11.context-cap.test.ts,
// test/models/red11.tool-args.test.ts, test/store/red11.redis-missed.test.ts,
// test/sandbox/red11.throw-fuel.test.ts, test/sandbox/red11.kernel-refusal.test.ts.
import assert from 'node:assert/strict';
import { z } from 'zod';
import wabtInit from 'wabt';
import { createHost, createSandbox, loadPlugin, openaiModel, scriptedModel, tool } from '../../dist/index.js';
import type { HookCallback, HooksConfig, HostEvent, Message, ModelEvent } from '../../dist/index.js';
import { hostile } from './wat.ts';

const { cannedPlugin } = (await import(new URL('../fixtures/canned.ts', import.meta.url).href)) as typeof import('../fixtures/canned.js');

const SECRET = 'sk-live-0123456789abcdef';


const logsOf = (events: HostEvent[]) => events.flatMap((e) => (e.type === 'plugin.log' ? [e.message] : []));

/** Session B runs a prompt (held in a tool) while session A runs one through the logger plugin's hook and tool. */
async function twoSessions(isolation: 'in-thread' | 'worker', hooks: HooksConfig = {}) {
  const plugin = await loadPlugin({ bytes: await hostile('red11-logger') }, { isolation });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const model = scriptedModel({
    rules: [
      { when: { lastUser: 'peek' }, reply: { toolCalls: [{ name: 'Peek', input: { secret: SECRET } }] } },
      { when: { lastUser: 'wait' }, reply: { toolCalls: [{ name: 'Wait', input: {} }] } },
    ],
    turns: Array.from({ length: 4 }, () => ({ text: 'done' })),
  });
  const wait = tool('Wait', 'waits', z.object({}), async () => (await held, 'waited'));
  const host = createHost({ model, plugins: [plugin], permissionMode: 'bypassPermissions', hooks, tools: [wait] });
  try {
    const b: HostEvent[] = [];
    const running = (async () => {
      for await (const e of host.session({ sessionId: 'B' }).stream('wait')) b.push(e);
    })();
    while (!b.some((e) => e.type === 'tool.call')) await new Promise((r) => setTimeout(r, 5));
    const a: HostEvent[] = [];
    for await (const e of host.session({ sessionId: 'A' }).stream('peek')) a.push(e);
    release();
    await running;
    return { a, b };
  } finally {
    await plugin.close();
  }
}

const redactor: HookCallback = async (input) =>
  input.hook_event_name === 'PostToolUse' || input.hook_event_name === 'PostToolUseFailure' ? { updatedOutput: (input.tool_response ?? '').replaceAll(SECRET, '[redacted]') } : {};

/** An OpenAI-compatible model whose one turn is a tool call with these raw arguments. */
function modelCalling(args: string) {
  const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const body = chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'Bash', arguments: args } }] }) + chunk({}, 'tool_calls') + 'data: [DONE]\n\n';
  const fetch = (async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } })) as unknown as typeof globalThis.fetch;
  return openaiModel({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', fetch, retry: { maxRetries: 0 } });
}

async function streamOf(model: ReturnType<typeof openaiModel>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const e of model.stream({ messages: [{ role: 'user', content: 'go' }], tools: [], signal: new AbortController().signal })) out.push(e);
  return out;
}

export const scenarios: Record<string, () => Promise<void>> = {
  'a redacting PostToolUse hook withholds the call\'s progress: the secret it takes out of tool.output is in no event': async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'Leak', input: {} }] }, { text: '.' }]);
    const leak = tool('Leak', 'leaks', z.object({}), (_i, ctx) => (ctx.onProgress(`reading ${SECRET}`), `out ${SECRET}`));
    const host = createHost({ model, permissionMode: 'bypassPermissions', tools: [leak], hooks: { PostToolUse: [{ hooks: [redactor] }] } });
    const events: HostEvent[] = [];
    for await (const e of host.session().stream('go')) events.push(e);
    assert.ok(!JSON.stringify(events).includes(SECRET));
    assert.deepEqual(events.filter((e) => e.type === 'tool.progress').map((e) => (e.type === 'tool.progress' ? e.progress : '')), ['[progress withheld: a PostToolUse hook reviews this tool\'s output]']);
  },

  'a plugin\'s log lines reach only the session whose call wrote them (in-thread and in a worker)': async () => {
    for (const isolation of ['in-thread', 'worker'] as const) {
      const { a, b } = await twoSessions(isolation);
      assert.equal(logsOf(a).filter((m) => m.includes(SECRET)).length, 2, isolation);
      assert.ok(!JSON.stringify(b).includes(SECRET), `${isolation}: session B saw session A's log line`);
      assert.ok(logsOf(b).some((m) => m.includes('Wait')), isolation);
    }
  },

  'a plugin tool\'s log lines are withheld while a redactor reviews the call': async () => {
    const { a } = await twoSessions('in-thread', { PostToolUse: [{ hooks: [redactor] }] });
    const lines = logsOf(a);
    assert.ok(lines.includes('[log lines withheld: a PostToolUse hook reviews this tool\'s output]'));
    assert.equal(lines.filter((m) => m.includes(SECRET)).length, 1, 'only the PreToolUse hook\'s line (the input) carries it');
  },

  'plugin.health, sent to every session, names a plugin-worded failure by its code without quoting it': async () => {
    const enc = new TextEncoder();
    const json = enc.encode(`{"${SECRET}":1,"${SECRET}":2}`);
    const info = [0x0a, 5, ...enc.encode('leaky'), 0x12, 1, 0x31, 0x18, 1, 0x22, 2, 0x08, 6];
    const plugin = await loadPlugin({ bytes: cannedPlugin({ describe: new Uint8Array(info), hook: new Uint8Array([0x1a, json.length, ...json]) }) });
    const messages: string[] = [];
    plugin.onHealth((change) => messages.push(change.message ?? ''));
    try {
      const input = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default', tool_name: 'Bash', tool_input: {}, tool_use_id: 't' } as const;
      const result = await plugin.callHook(input);
      assert.ok(!result.ok && result.failure.message.includes(SECRET));
      assert.equal(messages.length, 1);
      assert.match(messages[0]!, /^BAD_OUTPUT/);
      assert.ok(!messages[0]!.includes(SECRET));
    } finally {
      await plugin.close();
    }
  },

  'WASI poll_oneoff: 50 sleeps of 1 ns wake on 100 µs steps (at least 4.9 ms), not at any nanosecond': async () => {
    const probe = { params: [], results: ['i32' as const], fn: () => 0 };
    const sandbox = await createSandbox(await hostile('red11'), { wasi: true, hostFunctions: { probe }, limits: { timeoutMs: 5_000 } });
    try {
      const started = performance.now();
      const out = await sandbox.call('nap', new Uint8Array());
      assert.equal(out.ok, true, out.ok ? '' : out.failure.message);
      assert.ok(performance.now() - started >= 4.9, `50 sleeps took ${(performance.now() - started).toFixed(2)} ms`);
    } finally {
      await sandbox.close();
    }
  },

  'an embedder\'s host function runs as a plain function: `this` is undefined, not our frozen copy': async () => {
    const probe = {
      params: [],
      results: ['i32' as const],
      fn(this: unknown) {
        return this === undefined ? 1 : 2;
      },
    };
    const sandbox = await createSandbox(await hostile('red11'), { wasi: true, hostFunctions: { probe } });
    try {
      const out = await sandbox.call('this', new Uint8Array());
      assert.equal(out.ok && out.output[0], 1, out.ok ? `this was ${out.output[0]}` : out.failure.message);
    } finally {
      await sandbox.close();
    }
  },

  'a caught throw is charged THROW_FUEL (16,384), in both metering modes: a loop of them is bounded by its fuel': async () => {
    const wabt = await wabtInit();
    const source = `(module (memory (export "memory") 1) (tag $e (param i32))
      (func (export "run") (result i32) (local $i i32)
        (loop $l (try (do (throw $e (i32.const 1))) (catch $e (drop)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $l (i32.lt_u (local.get $i) (i32.const 100))))
        (i32.const 0)))`;
    const mod = wabt.parseWat('throws.wat', source, { exceptions: true });
    const bytes = new Uint8Array(mod.toBinary({}).buffer);
    mod.destroy();
    for (const metering of ['fast', 'exact'] as const) {
      const sandbox = await createSandbox(bytes, { allowExceptions: true, metering, limits: { timeoutMs: 10_000, fuel: 1e12 } });
      try {
        const out = await sandbox.call('run', new Uint8Array());
        assert.ok(out.ok && out.fuelUsed >= 100 * 16_384, `${metering}: ${out.ok ? out.fuelUsed : out.failure.message}`);
      } finally {
        await sandbox.close();
      }
    }
  },

  'an address Extism refuses is a final TRAP, even caught by catch_all 20,000 times (in-thread and in a worker)': async () => {
    const bytes = await hostile('red11-kernel');
    for (const isolation of ['in-thread', 'worker'] as const) {
      for (const fn of ['load_u8', 'input_load_u64', 'store_u64']) {
        const sandbox = await createSandbox(bytes, { allowExceptions: true, isolation, limits: { timeoutMs: 10_000, fuel: 1e12 } });
        try {
          const out = await sandbox.call(fn, new Uint8Array([1, 2, 3]));
          assert.equal(out.ok ? 'ok' : out.failure.code, 'TRAP', `${isolation} ${fn}`);
          assert.ok(out.fuelUsed < 10_000, `${isolation} ${fn}: ${out.fuelUsed} fuel`);
        } finally {
          await sandbox.close();
        }
      }
    }
  },

  'an embedder host function\'s throw, caught by catch_all, ends the call: one TRAP, the function called once': async () => {
    const wabt = await wabtInit();
    const mod = wabt.parseWat('boom.wat', `(module
      (import "extism:host/user" "boom" (func $boom))
      (memory (export "memory") 1)
      (func (export "run") (result i32) (local $i i32)
        (loop $l (try (do (call $boom)) (catch_all))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $l (i32.lt_u (local.get $i) (i32.const 20000))))
        (i32.const 0)))`, { exceptions: true });
    const bytes = new Uint8Array(mod.toBinary({}).buffer);
    mod.destroy();
    let calls = 0;
    const boom = {
      params: [],
      results: [],
      fn: () => {
        calls++;
        throw new Error('no such user');
      },
    };
    const sandbox = await createSandbox(bytes, { allowExceptions: true, hostFunctions: { boom }, limits: { timeoutMs: 10_000, fuel: 1e12 } });
    try {
      const out = await sandbox.call('run', new Uint8Array());
      assert.equal(out.ok ? 'ok' : out.failure.code, 'TRAP');
      assert.equal(calls, 1);
    } finally {
      await sandbox.close();
    }
  },

  'maxMessages counts pending hook context: a conversation one short of the cap is never sent maxMessages + 1': async () => {
    const history: Message[] = Array.from({ length: 9 }, (_, i): Message => (i % 2 ? { role: 'assistant', content: [{ type: 'text', text: `a${i}` }] } : { role: 'user', content: `u${i}` }));
    for (const event of ['UserPromptSubmit', 'IterationStart'] as const) {
      const model = scriptedModel([{ text: 'one' }, { text: 'two' }]);
      const host = createHost({ model, hooks: { [event]: [{ hooks: [async () => ({ additionalContext: 'context' })] }] } });
      await host.session({ history, maxMessages: 10 }).prompt('go');
      assert.ok(Math.max(0, ...model.requests.map((r) => r.messages.length)) <= 10, event);
    }
  },

  'a model\'s tool-call arguments naming a key twice, __proto__ or a number past a double are BAD_STREAM; plain ones call the tool': async () => {
    for (const args of ['{"command":"ls","command":"rm -rf /"}', '{"__proto__":{"command":"rm -rf /"}}', '{"command":"sleep","timeout":1e400}']) {
      const events = await streamOf(modelCalling(args));
      assert.ok(!events.some((e) => e.type === 'tool.call'), args);
      assert.equal(events.find((e) => e.type === 'error')?.type === 'error' && events.find((e) => e.type === 'error')!.error.code, 'BAD_STREAM', args);
    }
    const ok = await streamOf(modelCalling('{"command":"ls"}'));
    assert.deepEqual(ok.find((e) => e.type === 'tool.call')?.type === 'tool.call' && ok.find((e) => e.type === 'tool.call')!.input, { command: 'ls' });
  },
};
