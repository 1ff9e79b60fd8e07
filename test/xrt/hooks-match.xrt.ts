// Matchers, hook outputs and binding routing on Node, Deno and Bun, against
// the ESM build: one meaning of a matcher for JS, shell and WASM hooks; a
// hostile plugin matcher runs in linear time (in-thread and in a worker); a
// Claude-shaped JS guard denies and an unreadable one fails closed; a plugin
// with two bindings for one event answers once per binding.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createHost, createShellHook, HOOK_EVENT_NAMES, jsHookHandlers, loadPlugin, scriptedModel } from '../../dist/index.js';
import type { HookCallbackOutput, HookEventName, HookHandler, HostEvent, ToolHandler, WasmPlugin } from '../../dist/index.js';

// By URL: Deno does not map `.js` to `.ts` as tsx and Bun do.
const { cannedPlugin } = (await import(new URL('../fixtures/canned.ts', import.meta.url).href)) as typeof import('../fixtures/canned.js');

const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';
const multiBinding = new URL('../fixtures/multi-binding/build/multi-binding.wasm', import.meta.url);

// A PluginInfo by hand (the codec is not part of the public build): name, version,
// protocol_version 1, and hook bindings of (event, matcher).
export function describeBytes(bindings: Array<[HookEventName, string]>): Uint8Array {
  const bytes: number[] = [];
  const varint = (n: number) => {
    for (; n > 0x7f; n >>>= 7) bytes.push((n & 0x7f) | 0x80);
    bytes.push(n);
  };
  const text = (field: number, s: string) => {
    const b = new TextEncoder().encode(s);
    varint((field << 3) | 2);
    varint(b.length);
    bytes.push(...b);
  };
  text(1, 'xrt');
  text(2, '1');
  varint(3 << 3);
  varint(1);
  for (const [event, matcher] of bindings) {
    const m = new TextEncoder().encode(matcher);
    const body = [0x08, HOOK_EVENT_NAMES.indexOf(event) + 1, 0x12, m.length, ...m];
    varint((4 << 3) | 2);
    varint(body.length);
    bytes.push(...body);
  }
  return new Uint8Array(bytes);
}

const stub = (name: string, ran: string[] = []): ToolHandler => ({
  name,
  description: 'records its calls',
  inputSchema: { type: 'object' },
  kind: 'js',
  run: async (input: Record<string, unknown>) => {
    ran.push(`${name} ${JSON.stringify(input)}`);
    return { content: 'ok', isError: false };
  },
});

async function runAgent(options: Parameters<typeof createHost>[0], call: { name: string; input: Record<string, unknown> }) {
  const model = scriptedModel([{ toolCalls: [call] }, { text: 'done' }]);
  const session = createHost({ permissionMode: 'bypassPermissions', ...options, model }).session();
  const events: HostEvent[] = [];
  session.subscribe((e: HostEvent) => void events.push(e));
  const started = performance.now();
  const result = await session.prompt('go');
  return { result, events, ms: performance.now() - started, ends: events.flatMap((e) => (e.type === 'hook.end' ? [e] : [])), model };
}

const NAMES = ['Bash', 'BashX', 'Write', 'Edit', 'mcp__gh__x', 'a'.repeat(40)];
const accepted = (h: HookHandler) => NAMES.filter((n) => !h.matcher || h.matcher.test(n));

export const scenarios: Record<string, () => Promise<void>> = {
  'one matcher meaning for JS, shell and WASM hooks': async () => {
    const table: Array<[string, string[]]> = [
      ['', NAMES],
      ['*', NAMES],
      ['Bash', ['Bash']],
      ['Write|Edit', ['Write', 'Edit']],
      ['mcp__.*', ['mcp__gh__x']],
      ['(a+)+', ['a'.repeat(40)]],
    ];
    for (const [pattern, expected] of table) {
      const js = jsHookHandlers('PreToolUse', { matcher: pattern, hooks: [async () => ({})] })[0]!;
      const shell = createShellHook({ event: 'PreToolUse', matcher: pattern, command: 'true' });
      const plugin = await loadPlugin({ bytes: cannedPlugin({ describe: describeBytes([['PreToolUse', pattern]]), hook: new Uint8Array() }) });
      try {
        for (const h of [js, shell, plugin.hooks()[0]!]) assert.deepEqual(accepted(h), expected, `${h.kind} ${JSON.stringify(pattern)}`);
      } finally {
        await plugin.close();
      }
    }
    assert.throws(() => jsHookHandlers('PreToolUse', { matcher: '.{1000}', hooks: [async () => ({})] }), /counted repetitions/);
    await assert.rejects(
      loadPlugin({ bytes: cannedPlugin({ describe: describeBytes([['Stop', ''], ['PreToolUse', '(a)\\1']]), hook: new Uint8Array() }) }),
      (e: Error & { code?: string }) => e.code === 'BAD_OUTPUT' && /hooks\[1\] \(PreToolUse\) has an invalid matcher/.test(e.message),
    );
  },

  'a plugin matcher (a+)+b on a 40-character tool name answers in milliseconds, in-thread and in a worker': async () => {
    const name = 'a'.repeat(40);
    for (const isolation of ['in-thread', 'worker'] as const) {
      const describe = describeBytes([['PreToolUse', '(a+)+b'], ['PostToolUse', '(a+)+']]);
      const plugin = await loadPlugin({ bytes: cannedPlugin({ describe, hook: new Uint8Array() }) }, { isolation });
      try {
        const { result, ends, ms } = await runAgent({ plugins: [plugin], tools: [stub(name)] }, { name, input: {} });
        assert.equal(result.subtype, 'success');
        assert.deepEqual(ends.map((e) => `${e.event}:${e.decision}`), ['PostToolUse:continue']);
        assert.ok(ms < 2_000, `${isolation}: ${ms.toFixed(0)} ms`);
        console.log(`    [${runtime}] ${isolation}: agent run with (a+)+b vs ${name.length} chars: ${ms.toFixed(1)} ms`);
      } finally {
        await plugin.close();
      }
    }
  },

  'a JS or shell guard answering in the Claude shape denies; an unknown key fails closed': async () => {
    const ask = async (answer: HookCallbackOutput) => {
      const ran: string[] = [];
      const run = await runAgent(
        { tools: [stub('Bash', ran)], hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [async () => answer] }] } },
        { name: 'Bash', input: { command: 'rm -rf /' } },
      );
      return { ran, end: run.ends[0]! };
    };
    const claude = await ask({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm' } });
    assert.deepEqual(claude.ran, []);
    assert.equal(claude.end.decision, 'deny');
    assert.equal(claude.end.reason, 'no rm');
    const unknown = await ask({ permissionDecision: 'allow' } as HookCallbackOutput);
    assert.deepEqual(unknown.ran, []);
    assert.equal(unknown.end.decision, 'deny');
    assert.equal(unknown.end.failure?.code, 'BAD_OUTPUT');
    const other = await ask({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'x' } });
    assert.equal(other.end.failure?.code, 'BAD_OUTPUT');
    assert.deepEqual(other.ran, []);
    // Shell hooks read their stdout with the same reader.
    const input = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/tmp', turn: 1, iteration: 1, permission_mode: 'default', tool_name: 'Bash', tool_input: {}, tool_use_id: 't' } as const;
    const ctx = { signal: new AbortController().signal };
    const shell = (json: string) => createShellHook({ event: 'PreToolUse', command: `echo '${json}'` }).run(input, ctx);
    assert.deepEqual(await shell('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}'), {
      ok: true,
      output: { decision: 'deny', reason: 'no rm' },
    });
    const bad = await shell('{"permissionDecision":"allow"}');
    assert.equal(bad.ok ? 'ok' : bad.failure.code, 'BAD_OUTPUT');
  },

  'a plugin with onPreToolUse("Bash", A) and onPreToolUse("", B): one hook.end per binding, each its own context': async () => {
    const plugin: WasmPlugin = await loadPlugin({ bytes: new Uint8Array(await readFile(multiBinding)) });
    try {
      const ran: string[] = [];
      const { ends, model } = await runAgent({ plugins: [plugin], tools: [stub('Bash', ran)] }, { name: 'Bash', input: { command: 'ls' } });
      assert.deepEqual(
        ends.map((e) => [e.hookId, e.additionalContext]),
        [
          ['multi-binding#0', 'A saw ls'],
          ['multi-binding#1', 'B saw Bash {"command":"ls"}'],
        ],
      );
      const context = model.requests[1]?.messages.find((m: { content: unknown }) => typeof m.content === 'string' && m.content.startsWith('<hook-context '));
      assert.equal(context?.content, '<hook-context from="multi-binding">\nA saw ls\n</hook-context>\n<hook-context from="multi-binding">\nB saw Bash {"command":"ls"}\n</hook-context>');
      const denied = await runAgent({ plugins: [plugin], tools: [stub('Bash', ran)] }, { name: 'Bash', input: { command: 'rm -rf /' } });
      assert.deepEqual(denied.ends.map((e) => [e.hookId, e.decision]), [['multi-binding#0', 'deny']]);
      assert.deepEqual(ran, ['Bash {"command":"ls"}']);
    } finally {
      await plugin.close();
    }
  },
};
